import { assign, type JsonObject } from '../../path.js';
import { type Hop, type HopMove, hopGroup } from '../hop.js';
import { type GuardedField, guardFields, topologiesNamedBy } from '../reference-guard.js';
import { V1ALPHA4, V1BETA1 } from '../versions.js';
import { added, mapItems, removed } from './common.js';

/**
 * v1alpha4 ⇄ v1beta1 (Cluster API v0.4 → v1.x). The schema change at v1.0 is only Machine
 * `status.version`; everything else v1beta1 grew during v1.x (v1.2 … v1.13), additively.
 * Facts: upstream's v1.10.10 internal/apis/core/v1alpha4/conversion.go and the CRDs.
 */

const machineSpecAdded = (p: string): HopMove[] => [
  added(`${p}spec.nodeDeletionTimeout`),
  added(`${p}spec.nodeVolumeDetachTimeout`),
  added(`${p}spec.readinessGates`),
  added(`${p}spec.taints`),
];

/** Keys v1beta1 added to each `topology.workers.machineDeployments[]` item (v1.1 … v1.13). */
const TOPOLOGY_MD_ADDED = [
  'failureDomain',
  'machineHealthCheck',
  'minReadySeconds',
  'nodeDeletionTimeout',
  'nodeDrainTimeout',
  'nodeVolumeDetachTimeout',
  'readinessGates',
  'rollout',
  'strategy',
  'taints',
  'variables',
];
const withoutAdded = (item: JsonObject): JsonObject => {
  if (!TOPOLOGY_MD_ADDED.some((k) => Object.hasOwn(item, k))) return item;
  const out: JsonObject = {};
  for (const [k, v] of Object.entries(item)) if (!TOPOLOGY_MD_ADDED.includes(k)) assign(out, k, v);
  return out;
};

const topologyRows: HopMove[] = [
  added('spec.topology.classNamespace'),
  added('spec.topology.variables'),
  ...[
    'machineHealthCheck',
    'nodeDeletionTimeout',
    'nodeDrainTimeout',
    'nodeVolumeDetachTimeout',
    'readinessGates',
    'rollout',
    'taints',
    'variables',
  ].map((k) => added(`spec.topology.controlPlane.${k}`)),
  added('spec.topology.workers.machinePools'),
  {
    lower: 'spec.topology.workers.machineDeployments',
    upper: 'spec.topology.workers.machineDeployments',
    down: mapItems(withoutAdded),
    note: 'machine deployment topologies lose the fields v1beta1 added (the stash keeps them)',
  },
];

/**
 * Each machine deployment topology's name and class: the row moves the list whole, so a stash
 * may restore it whole (the fields v1alpha4 cannot hold), but never renames an item or points
 * it at another class (reference-guard.ts); the row carries both over unchanged.
 */
const topologyNames: GuardedField = {
  path: ['spec', 'topology', 'workers', 'machineDeployments'],
  keys: [],
  names: topologiesNamedBy(),
};

export const v1alpha4ToV1beta1: Hop = {
  lower: V1ALPHA4,
  upper: V1BETA1,
  tables: {
    Cluster: {
      kind: 'Cluster',
      groups: [hopGroup('', [added('spec.availabilityGates'), ...topologyRows, added('status.v1beta2')])],
      checkStash: guardFields({ down: [topologyNames], up: [topologyNames] }),
    },
    Machine: {
      kind: 'Machine',
      groups: [
        hopGroup('', [
          ...machineSpecAdded(''),
          removed('status.version', 'v1beta1 has no Machine status.version (upstream drops it for good)'),
          added('status.certificatesExpiryDate'),
          added('status.deletion'),
          added('status.v1beta2'),
        ]),
      ],
    },
    MachineSet: {
      kind: 'MachineSet',
      groups: [
        hopGroup('', [
          added('spec.machineNamingStrategy'),
          ...machineSpecAdded('spec.template.'),
          added('status.v1beta2'),
        ]),
      ],
    },
    MachineDeployment: {
      kind: 'MachineDeployment',
      groups: [
        hopGroup('', [
          added('spec.machineNamingStrategy'),
          added('spec.rolloutAfter'),
          added('spec.strategy.remediation'),
          ...machineSpecAdded('spec.template.'),
          added('status.v1beta2'),
        ]),
      ],
    },
    MachineHealthCheck: {
      kind: 'MachineHealthCheck',
      groups: [hopGroup('', [added('spec.unhealthyMachineConditions'), added('status.v1beta2')])],
    },
  },
};
