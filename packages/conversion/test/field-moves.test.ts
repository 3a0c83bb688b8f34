import * as E from 'fp-ts/lib/Either.js';
import { describe, expect, it } from 'vitest';
import { awsConversionPlugin } from '../../providers-aws/src/conversion/index.js';
import { CONVERSION_DATA_ANNOTATION, convertObject, V1ALPHA1, V1ALPHA2 } from '../src/index.js';
import { getPath, type JsonObject, setPath } from '../src/path.js';

// One row per field move: a field set on a minimal object of the source version, and
// what the converted object holds at the named paths (ABSENT: the field must be gone).

const ABSENT = Symbol('absent');
type Expect = Record<string, unknown>;
interface Row {
  readonly kind: 'Cluster' | 'Machine' | 'MachineSet' | 'MachineDeployment';
  readonly move: string;
  readonly set: Record<string, unknown>;
  readonly expect: Expect;
  /** Paths the report must list as stashed (going up) for the way back. */
  readonly stashed?: readonly string[];
}

const awsMachine = {
  apiVersion: 'awsprovider/v1alpha1',
  kind: 'AWSMachineProviderSpec',
  instanceType: 't3.large',
};
const v1Base: Record<Row['kind'], JsonObject> = {
  Cluster: {
    apiVersion: V1ALPHA1,
    kind: 'Cluster',
    metadata: { name: 'c1', namespace: 'ns' },
    spec: {
      clusterNetwork: {
        services: { cidrBlocks: ['10.96.0.0/12'] },
        pods: { cidrBlocks: ['192.168.0.0/16'] },
        serviceDomain: 'cluster.local',
      },
    },
  },
  Machine: {
    apiVersion: V1ALPHA1,
    kind: 'Machine',
    metadata: { name: 'm1', namespace: 'ns' },
    spec: { providerSpec: { value: awsMachine } },
  },
  MachineSet: {
    apiVersion: V1ALPHA1,
    kind: 'MachineSet',
    metadata: { name: 'ms1', namespace: 'ns' },
    spec: { selector: {}, template: { spec: { providerSpec: { value: awsMachine } } } },
  },
  MachineDeployment: {
    apiVersion: V1ALPHA1,
    kind: 'MachineDeployment',
    metadata: { name: 'md1', namespace: 'ns' },
    spec: { selector: {}, template: { spec: { providerSpec: { value: awsMachine } } } },
  },
};

const ref = (apiVersion: string, kind: string, name: string) => ({ apiVersion, kind, name, namespace: 'ns' });
const INFRA = 'infrastructure.cluster.x-k8s.io/v1alpha2';
const BOOT = 'bootstrap.cluster.x-k8s.io/v1alpha2';

const upRows: Row[] = [
  { kind: 'Cluster', move: 'apiVersion', set: {}, expect: { apiVersion: V1ALPHA2, kind: 'Cluster' } },
  {
    kind: 'Cluster',
    move: 'serviceDomain is kept (upstream dropped it)',
    set: {},
    expect: {
      'spec.clusterNetwork.serviceDomain': 'cluster.local',
      'spec.clusterNetwork.pods.cidrBlocks': ['192.168.0.0/16'],
    },
  },
  {
    kind: 'Cluster',
    move: 'empty status.errorReason / errorMessage become absent',
    set: { 'status.errorReason': '', 'status.errorMessage': '' },
    expect: { 'status.errorReason': ABSENT, 'status.errorMessage': ABSENT },
    stashed: ['status.errorReason', 'status.errorMessage'],
  },
  {
    kind: 'Cluster',
    move: 'non-empty errors are kept',
    set: { 'status.errorReason': 'CreateError', 'status.errorMessage': 'quota' },
    expect: { 'status.errorReason': 'CreateError', 'status.errorMessage': 'quota' },
  },
  {
    kind: 'Cluster',
    move: 'status.providerStatus has no v1alpha2 field',
    set: { 'status.providerStatus': { ready: true } },
    expect: { 'status.providerStatus': ABSENT },
    stashed: ['status.providerStatus'],
  },
  {
    kind: 'Cluster',
    move: 'status.apiEndpoints kept',
    set: { 'status.apiEndpoints': [{ host: '10.0.0.1', port: 6443 }] },
    expect: { 'status.apiEndpoints': [{ host: '10.0.0.1', port: 6443 }] },
  },
  {
    kind: 'Cluster',
    move: 'cluster-name label renamed',
    set: { 'metadata.labels': { 'cluster.k8s.io/cluster-name': 'c1', team: 'a' } },
    expect: { 'metadata.labels': { 'cluster.x-k8s.io/cluster-name': 'c1', team: 'a' } },
  },
  {
    kind: 'Cluster',
    move: 'finalizer renamed',
    set: { 'metadata.finalizers': ['cluster.cluster.k8s.io', 'foregroundDeletion'] },
    expect: { 'metadata.finalizers': ['cluster.cluster.x-k8s.io', 'foregroundDeletion'] },
  },
  {
    kind: 'Cluster',
    move: 'providerSpec → infrastructureRef (AWS plug-in)',
    set: {
      'spec.providerSpec.value': {
        apiVersion: 'awsprovider/v1alpha1',
        kind: 'AWSClusterProviderSpec',
        region: 'eu-west-1',
      },
    },
    expect: { 'spec.providerSpec': ABSENT, 'spec.infrastructureRef': ref(INFRA, 'AWSCluster', 'c1') },
    stashed: ['spec.providerSpec'],
  },
  {
    kind: 'Machine',
    move: 'versions.controlPlane → version, plus the control-plane label',
    set: { 'spec.versions': { kubelet: 'v1.14.3', controlPlane: 'v1.14.4' } },
    expect: {
      'spec.versions': ABSENT,
      'spec.version': 'v1.14.4',
      'metadata.labels': { 'cluster.x-k8s.io/control-plane': 'true' },
    },
    stashed: ['spec.versions.kubelet'],
  },
  {
    kind: 'Machine',
    move: 'versions.kubelet → version on workers, no control-plane label',
    set: { 'spec.versions': { kubelet: 'v1.14.4' } },
    expect: { 'spec.version': 'v1.14.4', 'metadata.labels': ABSENT },
  },
  {
    kind: 'Machine',
    move: 'taints and configSource have no v1alpha2 field',
    set: {
      'spec.taints': [{ key: 'k', effect: 'NoSchedule' }],
      'spec.configSource': { configMap: { name: 'x' } },
    },
    expect: { 'spec.taints': ABSENT, 'spec.configSource': ABSENT },
    stashed: ['spec.taints', 'spec.configSource'],
  },
  {
    kind: 'Machine',
    move: 'spec.metadata cut to the v1alpha2 subset',
    set: { 'spec.metadata': { labels: { a: 'b' }, creationTimestamp: null, uid: 'u' } },
    expect: { 'spec.metadata': { labels: { a: 'b' } } },
    stashed: ['spec.metadata.creationTimestamp', 'spec.metadata.uid'],
  },
  {
    kind: 'Machine',
    move: 'providerID kept',
    set: { 'spec.providerID': 'aws:///us-east-1a/i-1' },
    expect: { 'spec.providerID': 'aws:///us-east-1a/i-1' },
  },
  {
    kind: 'Machine',
    move: 'providerSpec → infrastructureRef + bootstrap.configRef (AWS plug-in)',
    set: {},
    expect: {
      'spec.providerSpec': ABSENT,
      'spec.infrastructureRef': ref(INFRA, 'AWSMachine', 'm1'),
      'spec.bootstrap': { configRef: ref(BOOT, 'KubeadmConfig', 'm1') },
    },
    stashed: ['spec.providerSpec.value'],
  },
  {
    kind: 'Machine',
    move: 'phase Running → running',
    set: { 'status.phase': 'Running' },
    expect: { 'status.phase': 'running' },
  },
  {
    kind: 'Machine',
    move: 'phase Terminating → deleting',
    set: { 'status.phase': 'Terminating' },
    expect: { 'status.phase': 'deleting' },
  },
  {
    kind: 'Machine',
    move: 'phase Creating → provisioning',
    set: { 'status.phase': 'Creating' },
    expect: { 'status.phase': 'provisioning' },
  },
  {
    kind: 'Machine',
    move: 'unknown phase left for the controller',
    set: { 'status.phase': 'Warming up' },
    expect: { 'status.phase': ABSENT },
    stashed: ['status.phase'],
  },
  {
    kind: 'Machine',
    move: 'status.versions → status.version',
    set: { 'status.versions': { kubelet: 'v1.14.4' } },
    expect: { 'status.versions': ABSENT, 'status.version': 'v1.14.4' },
  },
  {
    kind: 'Machine',
    move: 'empty machine errors become absent',
    set: { 'status.errorMessage': '', 'status.errorReason': '' },
    expect: { 'status.errorMessage': ABSENT, 'status.errorReason': ABSENT },
  },
  {
    kind: 'Machine',
    move: 'conditions, lastOperation, providerStatus have no v1alpha2 field',
    set: {
      'status.conditions': [{ type: 'Ready', status: 'True' }],
      'status.lastOperation': { type: 'Create' },
      'status.providerStatus': {},
    },
    expect: { 'status.conditions': ABSENT, 'status.lastOperation': ABSENT, 'status.providerStatus': ABSENT },
    stashed: ['status.conditions', 'status.lastOperation', 'status.providerStatus'],
  },
  {
    kind: 'Machine',
    move: 'addresses and nodeRef kept',
    set: {
      'status.addresses': [{ type: 'InternalIP', address: '10.0.0.4' }],
      'status.nodeRef': { kind: 'Node', name: 'n' },
    },
    expect: {
      'status.addresses': [{ type: 'InternalIP', address: '10.0.0.4' }],
      'status.nodeRef': { kind: 'Node', name: 'n' },
    },
  },
  {
    kind: 'Machine',
    move: 'finalizer and owner references follow the new group',
    set: {
      'metadata.finalizers': ['machine.cluster.k8s.io'],
      'metadata.ownerReferences': [
        { apiVersion: V1ALPHA1, kind: 'MachineSet', name: 'ms', uid: 'u1' },
        { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'rs', uid: 'u2' },
      ],
    },
    expect: {
      'metadata.finalizers': ['machine.cluster.x-k8s.io'],
      'metadata.ownerReferences': [
        { apiVersion: V1ALPHA2, kind: 'MachineSet', name: 'ms', uid: 'u1' },
        { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'rs', uid: 'u2' },
      ],
    },
  },
  {
    kind: 'Machine',
    move: 'delete-machine annotation keeps its name (v0.2 reads cluster.k8s.io/delete-machine)',
    set: { 'metadata.annotations': { 'cluster.k8s.io/delete-machine': 'yes' } },
    expect: { 'metadata.annotations.cluster.k8s.io/delete-machine': 'yes' },
  },
  {
    kind: 'MachineSet',
    move: 'selector keys renamed with the labels',
    set: {
      'spec.selector': {
        matchLabels: { 'cluster.k8s.io/cluster-name': 'c1' },
        matchExpressions: [{ key: 'cluster.k8s.io/cluster-name', operator: 'Exists' }],
      },
      'spec.template.metadata': { labels: { 'cluster.k8s.io/cluster-name': 'c1' }, creationTimestamp: null },
    },
    expect: {
      'spec.selector': {
        matchLabels: { 'cluster.x-k8s.io/cluster-name': 'c1' },
        matchExpressions: [{ key: 'cluster.x-k8s.io/cluster-name', operator: 'Exists' }],
      },
      'spec.template.metadata': { labels: { 'cluster.x-k8s.io/cluster-name': 'c1' } },
    },
    stashed: ['spec.template.metadata.creationTimestamp'],
  },
  {
    kind: 'MachineSet',
    move: 'template → AWSMachineTemplate + KubeadmConfigTemplate named after the MachineSet',
    set: { 'spec.template.spec.versions': { kubelet: 'v1.14.4' } },
    expect: {
      'spec.template.spec.version': 'v1.14.4',
      'spec.template.spec.infrastructureRef': ref(INFRA, 'AWSMachineTemplate', 'ms1'),
      'spec.template.spec.bootstrap': { configRef: ref(BOOT, 'KubeadmConfigTemplate', 'ms1') },
    },
  },
  {
    kind: 'MachineSet',
    move: 'empty MachineSet errors become absent',
    set: { 'status.replicas': 2, 'status.errorReason': '', 'status.errorMessage': '' },
    expect: { 'status.replicas': 2, 'status.errorReason': ABSENT, 'status.errorMessage': ABSENT },
  },
  {
    kind: 'MachineDeployment',
    move: 'strategy, replicas and status counters kept',
    set: {
      'spec.replicas': 3,
      'spec.strategy': { type: 'RollingUpdate', rollingUpdate: { maxSurge: '25%', maxUnavailable: 0 } },
      'status.updatedReplicas': 1,
    },
    expect: {
      'spec.replicas': 3,
      'spec.strategy': { type: 'RollingUpdate', rollingUpdate: { maxSurge: '25%', maxUnavailable: 0 } },
      'status.updatedReplicas': 1,
    },
  },
  {
    kind: 'MachineDeployment',
    move: 'control-plane template gets the control-plane label',
    set: { 'spec.template.spec.versions': { kubelet: 'v1.14.4', controlPlane: 'v1.14.4' } },
    expect: { 'spec.template.metadata.labels': { 'cluster.x-k8s.io/control-plane': 'true' } },
  },
];

function at(value: unknown, path: string): unknown {
  // Keys with dots (labels) are addressed by their own segment after the map name.
  const m = /^(metadata\.annotations)\.(.+)$/.exec(path);
  if (m) return getPath(value, [...m[1]!.split('.'), m[2]!]);
  return getPath(value, path.split('.'));
}

function build(base: JsonObject, set: Record<string, unknown>): JsonObject {
  const out = structuredClone(base);
  for (const [path, value] of Object.entries(set)) setPath(out, path.split('.'), value as never);
  return out;
}

function withoutStash(value: JsonObject): JsonObject {
  const copy = structuredClone(value);
  const annotations = getPath(copy, ['metadata', 'annotations']) as JsonObject | undefined;
  if (annotations) delete annotations[CONVERSION_DATA_ANNOTATION];
  return copy;
}

describe('v1alpha1 → v1alpha2 field moves', () => {
  it.each(upRows.map((r) => [`${r.kind}: ${r.move}`, r] as const))('%s', (_, row) => {
    const input = build(v1Base[row.kind], row.set);
    const result = convertObject(input, V1ALPHA2, { plugins: [awsConversionPlugin] });
    if (E.isLeft(result)) throw new Error(JSON.stringify(result.left));
    const out = withoutStash(result.right.object);
    for (const [path, expected] of Object.entries(row.expect)) {
      if (expected === ABSENT) expect(at(out, path), path).toBeUndefined();
      else expect(at(out, path), path).toStrictEqual(expected);
    }
    const report = result.right.reports[0]!;
    for (const path of row.stashed ?? []) expect(report.stashed).toContain(path);
    // and back: the original, exactly
    const back = convertObject(result.right.object, V1ALPHA1);
    if (E.isLeft(back)) throw new Error(JSON.stringify(back.left));
    expect(back.right.object).toStrictEqual(input);
  });
});

// Refs in the object's own namespace, bootstrap through a configRef: what a stash may carry
// back (bootstrap data and references into other namespaces never are: stash-security.test.ts).
const v2Base: Record<Row['kind'], JsonObject> = {
  Cluster: { apiVersion: V1ALPHA2, kind: 'Cluster', metadata: { name: 'c1', namespace: 'ns' }, spec: {} },
  Machine: {
    apiVersion: V1ALPHA2,
    kind: 'Machine',
    metadata: { name: 'm1', namespace: 'ns' },
    spec: {
      bootstrap: { configRef: ref(BOOT, 'KubeadmConfig', 'm1') },
      infrastructureRef: ref(INFRA, 'AWSMachine', 'm1'),
    },
  },
  MachineSet: {
    apiVersion: V1ALPHA2,
    kind: 'MachineSet',
    metadata: { name: 'ms1', namespace: 'ns' },
    spec: { selector: {} },
  },
  MachineDeployment: {
    apiVersion: V1ALPHA2,
    kind: 'MachineDeployment',
    metadata: { name: 'md1', namespace: 'ns' },
    spec: {
      selector: {},
      template: {
        spec: {
          bootstrap: { configRef: ref(BOOT, 'KubeadmConfigTemplate', 'md1') },
          infrastructureRef: ref(INFRA, 'AWSMachineTemplate', 'md1'),
        },
      },
    },
  },
};

const downRows: Row[] = [
  {
    kind: 'Machine',
    move: 'version + control-plane label → versions.kubelet and versions.controlPlane',
    set: {
      'spec.version': 'v1.15.3',
      'metadata.labels': { 'cluster.x-k8s.io/control-plane': 'true', 'cluster.x-k8s.io/cluster-name': 'c1' },
    },
    expect: {
      apiVersion: V1ALPHA1,
      'spec.versions': { kubelet: 'v1.15.3', controlPlane: 'v1.15.3' },
      'spec.version': ABSENT,
      'metadata.labels': { 'cluster.k8s.io/cluster-name': 'c1' },
    },
  },
  {
    kind: 'Machine',
    move: 'bootstrap and infrastructureRef have no v1alpha1 field; providerSpec is required',
    set: {},
    expect: { 'spec.bootstrap': ABSENT, 'spec.infrastructureRef': ABSENT, 'spec.providerSpec': {} },
  },
  {
    kind: 'Machine',
    move: 'phase and readiness',
    set: { 'status.phase': 'running', 'status.bootstrapReady': true, 'status.infrastructureReady': true },
    expect: {
      'status.phase': 'Running',
      'status.bootstrapReady': ABSENT,
      'status.infrastructureReady': ABSENT,
    },
  },
  {
    kind: 'Cluster',
    move: 'apiServerPort, infrastructureRef and computed status have no v1alpha1 field; required network filled',
    set: {
      'spec.clusterNetwork.apiServerPort': 6443,
      'spec.infrastructureRef': ref(INFRA, 'AWSCluster', 'c1'),
      'status.phase': 'provisioned',
      'status.controlPlaneInitialized': true,
    },
    expect: {
      // v1alpha1 requires these; Go wrote them as zero values
      'spec.clusterNetwork': { services: { cidrBlocks: [] }, pods: { cidrBlocks: [] }, serviceDomain: '' },
      'spec.infrastructureRef': ABSENT,
      'status.phase': ABSENT,
      'status.controlPlaneInitialized': ABSENT,
    },
  },
  {
    kind: 'MachineSet',
    move: 'status.selector has no v1alpha1 field',
    set: { 'status.replicas': 1, 'status.selector': 'a=b' },
    expect: { 'status.replicas': 1, 'status.selector': ABSENT },
  },
  {
    kind: 'MachineDeployment',
    move: 'template references go, an empty providerSpec takes their place',
    set: {},
    expect: { 'spec.template.spec.providerSpec': {}, 'spec.template.spec.infrastructureRef': ABSENT },
  },
];

describe('v1alpha2 → v1alpha1 field moves', () => {
  it.each(downRows.map((r) => [`${r.kind}: ${r.move}`, r] as const))('%s', (_, row) => {
    const input = build(v2Base[row.kind], row.set);
    const result = convertObject(input, V1ALPHA1);
    if (E.isLeft(result)) throw new Error(JSON.stringify(result.left));
    const out = withoutStash(result.right.object);
    for (const [path, expected] of Object.entries(row.expect)) {
      if (expected === ABSENT) expect(at(out, path), path).toBeUndefined();
      else expect(at(out, path), path).toStrictEqual(expected);
    }
    const back = convertObject(result.right.object, V1ALPHA2);
    if (E.isLeft(back)) throw new Error(JSON.stringify(back.left));
    expect(back.right.object).toStrictEqual(input);
  });
});

// A row that renames a key inside one container writes the new key where the old one was:
// a round trip gives back the object byte for byte, key order included (a YAML diff of
// `convert` up and back shows nothing). Moves across containers and stashed fields still
// come back last in their container.
describe('key order of renamed fields', () => {
  const machine: JsonObject = {
    apiVersion: V1ALPHA1,
    kind: 'Machine',
    metadata: { name: 'm1', namespace: 'ns' },
    spec: {
      versions: { kubelet: 'v1.14.4' },
      providerID: 'aws:///eu-west-1a/i-0abc',
      providerSpec: { value: awsMachine },
    },
    status: {
      versions: { kubelet: 'v1.14.4' },
      errorReason: 'CreateError',
      errorMessage: 'quota',
      phase: 'Failed',
      addresses: [],
    },
  };

  it('keeps the position of a renamed key, both ways', () => {
    const up = convertObject(machine, V1ALPHA2, { plugins: [awsConversionPlugin] });
    if (E.isLeft(up)) throw new Error(JSON.stringify(up.left));
    const v2 = up.right.object;
    expect(Object.keys(v2.spec as JsonObject).slice(0, 2)).toStrictEqual(['version', 'providerID']);
    expect(Object.keys(v2.status as JsonObject)).toStrictEqual([
      'version',
      'errorReason',
      'errorMessage',
      'phase',
      'addresses',
    ]);
    const down = convertObject(v2, V1ALPHA1, { plugins: [awsConversionPlugin] });
    if (E.isLeft(down)) throw new Error(JSON.stringify(down.left));
    expect(JSON.stringify(down.right.object)).toBe(JSON.stringify(machine));
  });

  it('overwrites a target key that is already there, where it stands', () => {
    // `version` is not a v1alpha1 field, so it survives decoding as an unknown field; the
    // row's value wins and the stash keeps the one it replaced.
    const input = build(machine, { 'spec.version': 'stale' });
    const up = convertObject(input, V1ALPHA2, { plugins: [awsConversionPlugin] });
    if (E.isLeft(up)) throw new Error(JSON.stringify(up.left));
    const spec = up.right.object.spec as JsonObject;
    expect(spec.version).toBe('v1.14.4');
    expect(Object.keys(spec).slice(0, 2)).toStrictEqual(['providerID', 'version']);
    const down = convertObject(up.right.object, V1ALPHA1, { plugins: [awsConversionPlugin] });
    if (E.isLeft(down)) throw new Error(JSON.stringify(down.left));
    expect(down.right.object).toStrictEqual(input);
  });
});
