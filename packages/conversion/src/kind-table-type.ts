import type { FieldMove } from './moves.js';
import type { ConvertibleKind } from './versions.js';

/** Which provider plug-in hook makes a kind's references, and where they go. */
export type InfrastructureRole = 'cluster' | 'machine' | 'template';

/**
 * A kind's conversion, as data: groups of field-move rows (each applied at a path of the
 * object), and where a provider plug-in fills what v1alpha1 kept in `providerSpec`.
 */
export interface KindTable {
  readonly kind: ConvertibleKind;
  readonly groups: readonly { readonly at: string; readonly moves: readonly FieldMove[] }[];
  readonly infrastructure: {
    readonly role: InfrastructureRole;
    /** Path of the machine (or cluster) whose spec holds providerSpec / the references. */
    readonly at: string;
    /** Whether v1alpha2 requires the references (Machines) or merely allows them (Cluster). */
    readonly required: boolean;
  };
}
