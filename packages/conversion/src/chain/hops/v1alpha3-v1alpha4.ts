import { getPath, isObject, type Json } from '../../path.js';
import { type Hop, type HopMove, hopGroup } from '../hop.js';
import { V1ALPHA3, V1ALPHA4 } from '../versions.js';
import { added, removed } from './common.js';

/**
 * v1alpha3 ⇄ v1alpha4 (Cluster API v0.3 → v0.4). Facts: upstream's v0.4.8
 * api/v1alpha3/conversion.go; see docs/conversion.md for the version map.
 */

const INITIALIZED = 'ControlPlaneInitialized';

function initializedCondition(conditions: Json | undefined): Json | undefined {
  return Array.isArray(conditions)
    ? conditions.find((c) => isObject(c) && c.type === INITIALIZED)
    : undefined;
}

/**
 * v1alpha4 dropped Cluster `status.controlPlaneInitialized` for a `ControlPlaneInitialized`
 * condition. Going up, a true bool adds the condition when there is none (upstream stamps it
 * with "now"; this one has no time, so conversion stays deterministic). Going down the bool
 * is true when the condition is; the condition stays, as upstream keeps it.
 */
const controlPlaneInitialized: HopMove[] = [
  {
    lower: 'status.conditions',
    upper: 'status.conditions',
    evenIfAbsent: 'up',
    up: (conditions, root) => {
      if (getPath(root, ['status', 'controlPlaneInitialized']) !== true) return conditions;
      if (initializedCondition(conditions) !== undefined) return conditions;
      const list = Array.isArray(conditions) ? conditions : [];
      return [...list, { type: INITIALIZED, status: 'True' }];
    },
    note: 'a true status.controlPlaneInitialized becomes the ControlPlaneInitialized condition',
  },
  {
    lower: 'status.controlPlaneInitialized',
    evenIfAbsent: 'down',
    down: (_absent, root) => {
      const c = initializedCondition(getPath(root, ['status', 'conditions']) as Json | undefined);
      return isObject(c) && c.status === 'True' ? true : undefined;
    },
    note: 'status.controlPlaneInitialized is the ControlPlaneInitialized condition in v1alpha4',
  },
];

/** What a machine template's metadata loses: v1alpha4 keeps only labels and annotations. */
const templateMetadata: HopMove[] = ['name', 'generateName', 'namespace', 'ownerReferences'].map((key) =>
  removed(
    `spec.template.metadata.${key}`,
    'v1alpha4 template metadata has only labels and annotations (upstream drops the rest)',
  ),
);

const bootstrapData = (p: string): HopMove =>
  removed(
    `${p}spec.bootstrap.data`,
    'v1alpha4 has only bootstrap.dataSecretName (upstream drops the inline data for good)',
  );

export const v1alpha3ToV1alpha4: Hop = {
  lower: V1ALPHA3,
  upper: V1ALPHA4,
  tables: {
    Cluster: {
      kind: 'Cluster',
      groups: [hopGroup('', [...controlPlaneInitialized, added('spec.topology')])],
    },
    Machine: {
      kind: 'Machine',
      groups: [hopGroup('', [bootstrapData(''), added('status.nodeInfo')])],
    },
    MachineSet: {
      kind: 'MachineSet',
      groups: [
        hopGroup('', [...templateMetadata, bootstrapData('spec.template.'), added('status.conditions')]),
      ],
    },
    MachineDeployment: {
      kind: 'MachineDeployment',
      groups: [
        hopGroup('', [
          ...templateMetadata,
          bootstrapData('spec.template.'),
          added('spec.strategy.rollingUpdate.deletePolicy'),
          added('status.conditions'),
        ]),
      ],
    },
    MachineHealthCheck: {
      kind: 'MachineHealthCheck',
      groups: [hopGroup('', [added('spec.unhealthyRange')])],
    },
  },
};
