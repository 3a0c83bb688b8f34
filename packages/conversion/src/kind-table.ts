import type { FieldMove } from './moves.js';
import { type StashRules, stashRules } from './stash-rules.js';
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

const rulesCache = new WeakMap<KindTable, StashRules>();

function joined(at: string, path: string | undefined): string | undefined {
  return path === undefined ? undefined : at === '' ? path : `${at}.${path}`;
}

/**
 * What a stash may touch on this kind's hop: the paths its move rows read or write (in both
 * versions), and the references its provider plug-in fills in. See stash-rules.ts.
 */
export function tableStashRules(table: KindTable): StashRules {
  let rules = rulesCache.get(table);
  if (rules === undefined) {
    const paths = table.groups.flatMap((g) =>
      g.moves.flatMap((m) => [joined(g.at, m.v1alpha1), joined(g.at, m.v1alpha2)]),
    );
    const spec = joined(table.infrastructure.at, 'spec')!;
    const generated = [
      `${spec}.infrastructureRef`,
      ...(table.infrastructure.required ? [`${spec}.bootstrap`] : []),
    ];
    rules = stashRules(
      paths.filter((p): p is string => p !== undefined),
      generated,
    );
    rulesCache.set(table, rules);
  }
  return rules;
}
