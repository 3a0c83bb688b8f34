import { clusterTable } from './cluster.js';
import type { KindTable } from './kind-table-type.js';
import { machineTable } from './machine.js';
import { machineDeploymentTable } from './machinedeployment.js';
import { machineSetTable } from './machineset.js';
import { type StashRules, stashRules } from './stash-rules.js';
import type { ConvertibleKind } from './versions.js';

export type { InfrastructureRole, KindTable } from './kind-table-type.js';

/** Every convertible kind's table: the data the conversion runs on. */
export const KIND_TABLES: Readonly<Record<ConvertibleKind, KindTable>> = {
  Cluster: clusterTable,
  Machine: machineTable,
  MachineSet: machineSetTable,
  MachineDeployment: machineDeploymentTable,
};

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
