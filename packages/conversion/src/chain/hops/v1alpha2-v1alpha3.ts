import { MachinePhases } from '@capi-kit/core/v1alpha2';
import { isObject, type Json, type JsonObject } from '../../path.js';
import { V1ALPHA2 } from '../../versions.js';
import { type Hop, type HopMove, hopGroup } from '../hop.js';
import { V1ALPHA3 } from '../versions.js';
import { added, annotationRenames, labelAt, moved, removed } from './common.js';

/**
 * v1alpha2 ⇄ v1alpha3 (Cluster API v0.2 → v0.3). Facts: upstream's v0.3.25
 * api/v1alpha2/conversion.go; see docs/conversion.md for the version map.
 */

const CLUSTER_NAME_LABEL = 'cluster.x-k8s.io/cluster-name';

/** v1alpha2 spoke phases are lowercase; v1alpha3 capitalises them. Upstream copies the text as is. */
const PHASES = [...MachinePhases, 'unknown'];
const capitalised = new Map(PHASES.map((p) => [p, `${p[0]!.toUpperCase()}${p.slice(1)}`]));
const lowercased = new Map([...capitalised].map(([l, c]) => [c, l]));
const phaseRow: HopMove = {
  lower: 'status.phase',
  upper: 'status.phase',
  up: (v) => (typeof v === 'string' ? (capitalised.get(v) ?? v) : v),
  down: (v) => (typeof v === 'string' ? (lowercased.get(v) ?? v) : v),
  note: 'phase words are capitalised in v1alpha3 (upstream copies them unchanged; its controller then reads "Unknown")',
};

const failureRows = (note: string): HopMove[] => [
  moved('status.errorReason', 'status.failureReason', note),
  moved('status.errorMessage', 'status.failureMessage', note),
];

/**
 * v1alpha3 requires `clusterName`; v1alpha2 said which Cluster only through the cluster-name
 * label. Going up it is taken from the label (the template's own labels first, then the
 * object's); going down it is dropped, and the stash keeps it when it differs from the label.
 */
function clusterNameRow(path: string, labelsAt: readonly (readonly string[])[]): HopMove {
  return {
    upper: path,
    evenIfAbsent: 'up',
    up: (_absent, root: JsonObject): Json | undefined => {
      for (const at of labelsAt) {
        const name = labelAt(root, at, CLUSTER_NAME_LABEL);
        if (name !== undefined) return name;
      }
      return undefined;
    },
    note: `required in v1alpha3; filled from the ${CLUSTER_NAME_LABEL} label (v1alpha2's only link to the Cluster)`,
  };
}

/** Machine spec rows, at `p` ('' for a Machine, 'spec.template.' for a template). */
const machineSpecRows = (p: string): HopMove[] => [
  removed(`${p}spec.metadata`, 'v1alpha3 has no Machine spec.metadata (upstream drops it for good)'),
  added(`${p}spec.bootstrap.dataSecretName`),
  added(`${p}spec.failureDomain`),
  added(`${p}spec.nodeDrainTimeout`),
];

const OBJECT_LABELS = ['metadata', 'labels'];
const TEMPLATE_LABELS = ['spec', 'template', 'metadata', 'labels'];

const EXCLUDE_DRAINING: readonly [string, string] = [
  'machine.cluster.x-k8s.io.io/exclude-node-draining',
  'machine.cluster.x-k8s.io/exclude-node-draining',
];
const REVISION_ANNOTATIONS = ['revision', 'revision-history', 'desired-replicas', 'max-replicas'].map(
  (a) => [`machinedeployment.clusters.k8s.io/${a}`, `machinedeployment.clusters.x-k8s.io/${a}`] as const,
);
const revisionRow = annotationRenames(
  REVISION_ANNOTATIONS,
  'MachineDeployment revision annotations moved to the machinedeployment.clusters.x-k8s.io prefix',
);

/** Rows MachineSets and MachineDeployments share. */
const setRows: HopMove[] = [
  revisionRow,
  clusterNameRow('spec.clusterName', [OBJECT_LABELS, TEMPLATE_LABELS]),
  clusterNameRow('spec.template.spec.clusterName', [TEMPLATE_LABELS, OBJECT_LABELS]),
  ...machineSpecRows('spec.template.'),
];

const clusterEndpoint: HopMove = {
  lower: 'status.apiEndpoints',
  upper: 'spec.controlPlaneEndpoint',
  up: (v) => (Array.isArray(v) && isObject(v[0]) ? v[0] : undefined),
  down: (v) => (isObject(v) ? [v] : undefined),
  note: 'the first of status.apiEndpoints becomes spec.controlPlaneEndpoint (the others are stashed)',
};

export const v1alpha2ToV1alpha3: Hop = {
  lower: V1ALPHA2,
  upper: V1ALPHA3,
  tables: {
    Cluster: {
      kind: 'Cluster',
      groups: [
        hopGroup('', [
          clusterEndpoint,
          ...failureRows('errorReason/errorMessage are failureReason/failureMessage in v1alpha3'),
          phaseRow,
          added('spec.paused'),
          added('spec.controlPlaneRef'),
          added('status.controlPlaneReady'),
          added('status.failureDomains'),
          added('status.conditions'),
          added('status.observedGeneration'),
        ]),
      ],
    },
    Machine: {
      kind: 'Machine',
      groups: [
        hopGroup('', [
          annotationRenames(
            [EXCLUDE_DRAINING],
            'the exclude-node-draining annotation loses v1alpha2’s “.io.io” typo',
          ),
          clusterNameRow('spec.clusterName', [OBJECT_LABELS]),
          ...machineSpecRows(''),
          ...failureRows('errorReason/errorMessage are failureReason/failureMessage in v1alpha3'),
          phaseRow,
          added('status.conditions'),
          added('status.observedGeneration'),
        ]),
      ],
    },
    MachineSet: {
      kind: 'MachineSet',
      groups: [
        hopGroup('', [
          ...setRows,
          ...failureRows('errorReason/errorMessage are failureReason/failureMessage in v1alpha3'),
        ]),
      ],
    },
    MachineDeployment: {
      kind: 'MachineDeployment',
      groups: [
        hopGroup('', [
          ...setRows,
          added('status.phase', 'no v1alpha2 field; the v1alpha3 controller computes it'),
        ]),
      ],
    },
  },
};
