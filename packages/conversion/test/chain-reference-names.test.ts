import * as E from 'fp-ts/lib/Either.js';
import { describe, expect, it } from 'vitest';
import { CONVERSION_DATA_ANNOTATION, convertTo, type JsonObject, V1BETA1, V1BETA2 } from '../src/index.js';
import { stashOf, withForgedPatch } from './support/stash-text.js';

// A stash is data: it never changes what an object refers to. The rows of the v1beta1 ⇄
// v1beta2 hop move a reference whole, so stash-rules let a stash restore anything under it,
// and an entry applies while the field holds its `base`: a forged entry whose `base` was the
// reference's current name, kind or group renamed it, going down or up. The conversion never
// writes such an entry (the rows carry kind, name and group over unchanged), so one is refused.

const INFRA = 'infrastructure.cluster.x-k8s.io';
const BOOTSTRAP = 'bootstrap.cluster.x-k8s.io';

function convert(object: JsonObject, to: typeof V1BETA1 | typeof V1BETA2) {
  const result = convertTo(structuredClone(object), to);
  if (E.isLeft(result)) throw new Error(JSON.stringify(result.left));
  return result.right;
}

const machine: JsonObject = {
  apiVersion: V1BETA1,
  kind: 'Machine',
  metadata: { name: 'm', namespace: 'ns' },
  spec: {
    clusterName: 'c',
    bootstrap: { configRef: { apiVersion: `${BOOTSTRAP}/v1beta1`, kind: 'KubeadmConfig', name: 'm' } },
    infrastructureRef: { apiVersion: `${INFRA}/v1beta1`, kind: 'AWSMachine', name: 'm', uid: 'u-1' },
  },
};

/** `machine` in v1beta2, its stash (which restores v1beta1) forged to hold `entries` only. */
const downWith = (...entries: JsonObject[]) =>
  withForgedPatch(convert(machine, V1BETA2).object, () => entries);

/** `machine` through v1beta2 back in v1beta1, its stash (which restores v1beta2) forged to hold `entries` only. */
function upWith(...entries: JsonObject[]): JsonObject {
  const hub = convert(machine, V1BETA2).object;
  delete (hub.metadata as JsonObject).annotations;
  // (no lookup: the references come down without an apiVersion, their apiGroup stashed)
  const down = convert(hub, V1BETA1).object;
  expect(JSON.parse(stashOf(down))).toMatchObject({ restores: V1BETA2 });
  return withForgedPatch(down, () => entries);
}

const refused = (object: JsonObject, to: typeof V1BETA1 | typeof V1BETA2, path: string) =>
  expect(convertTo(object, to)).toMatchObject({
    _tag: 'Left',
    left: {
      code: 'stash-identity',
      path,
      message: expect.stringContaining('never changes what an object refers to'),
    },
  });

const ref = ['spec', 'infrastructureRef'];
const refOf = (object: JsonObject) => (object.spec as JsonObject).infrastructureRef;

describe('going down (v1beta2 → v1beta1), a stash cannot change what a reference names', () => {
  it.each([
    ['its name', { p: [...ref, 'name'], v: 'evil', b: 'm' }, 'spec.infrastructureRef.name'],
    ['its kind', { p: [...ref, 'kind'], v: 'Secret', b: 'AWSMachine' }, 'spec.infrastructureRef.kind'],
    ['a name it lacks', { p: [...ref, 'name', 'x'], v: 'evil' }, 'spec.infrastructureRef.name.x'],
    [
      'the whole reference',
      {
        p: ref,
        v: { kind: 'AWSMachine', name: 'evil', namespace: 'ns' },
        b: { kind: 'AWSMachine', name: 'm', namespace: 'ns' },
      },
      'spec.infrastructureRef',
    ],
    [
      'a parent holding the reference',
      {
        p: ['spec', 'bootstrap'],
        v: { configRef: { kind: 'KubeadmConfig', name: 'evil', namespace: 'ns' } },
        b: { configRef: { kind: 'KubeadmConfig', name: 'm', namespace: 'ns' } },
      },
      'spec.bootstrap',
    ],
    [
      'taking the reference out',
      { p: ref, b: { kind: 'AWSMachine', name: 'm', namespace: 'ns' } },
      'spec.infrastructureRef',
    ],
    [
      'an apiVersion the plain way down would have',
      { p: [...ref, 'apiVersion'], v: 'x/v1', b: `${INFRA}/v1beta1` },
      'spec.infrastructureRef.apiVersion',
    ],
  ])('%s', (_what, entry, path) => {
    refused(downWith(entry), V1BETA1, path);
  });

  it('the stash still gives back the apiVersion and object fields', () => {
    const down = convert(convert(machine, V1BETA2).object, V1BETA1);
    expect(down.object).toStrictEqual(machine);
  });
});

describe('going up (v1beta1 → v1beta2), a stash cannot change what a reference names', () => {
  it.each([
    ['its name', { p: [...ref, 'name'], v: 'evil', b: 'm' }, 'spec.infrastructureRef.name'],
    ['its kind', { p: [...ref, 'kind'], v: 'Secret', b: 'AWSMachine' }, 'spec.infrastructureRef.kind'],
    ['its group', { p: [...ref, 'apiGroup'], v: '', b: INFRA }, 'spec.infrastructureRef.apiGroup'],
    [
      'the whole reference',
      {
        p: ref,
        v: { apiGroup: INFRA, kind: 'AWSMachine', name: 'evil' },
        b: { apiGroup: INFRA, kind: 'AWSMachine', name: 'm' },
      },
      'spec.infrastructureRef',
    ],
  ])('%s', (_what, entry, path) => {
    refused(upWith(entry), V1BETA2, path);
  });

  it('a group the v1beta1 reference lacks (converted down without a lookup) still comes back from the stash', () => {
    const hub = convert(machine, V1BETA2).object;
    delete (hub.metadata as JsonObject).annotations;
    const down = convert(hub, V1BETA1).object;
    expect((down.spec as JsonObject).infrastructureRef).not.toHaveProperty('apiVersion');
    expect(convert(down, V1BETA2).object).toStrictEqual(hub);
  });
});

describe('a reference taken out stays out, whichever way', () => {
  it('taken out in v1beta1, a field the v1beta2 reference had does not bring it back going up', () => {
    const hub = convert(machine, V1BETA2).object;
    (refOf(hub) as JsonObject).extra = 'x';
    const down = convert(hub, V1BETA1).object;
    delete (down.spec as JsonObject).infrastructureRef;
    const up = convert(down, V1BETA2);
    expect(up.object.spec).not.toHaveProperty('infrastructureRef');
    expect(up.reports[0]!.warnings).toContainEqual(
      "spec.infrastructureRef: the reference was taken out; the conversion data's extra is not restored",
    );
    // and the way back down again converts (the stash it wrote takes out no reference)
    expect(convert(up.object, V1BETA1).object.spec).not.toHaveProperty('infrastructureRef');
  });
});

describe('the contract lookup gives a reference a version of its own group only', () => {
  it('an apiVersion of another group from the lookup is not written, and the way back up converts', () => {
    const hub = convert(machine, V1BETA2).object;
    delete (hub.metadata as JsonObject).annotations;
    const result = convertTo(structuredClone(hub), V1BETA1, {
      referenceApiVersion: (group) => (group === INFRA ? 'evil.example.com/v1' : undefined),
    });
    if (E.isLeft(result)) throw new Error(JSON.stringify(result.left));
    expect(refOf(result.right.object)).not.toHaveProperty('apiVersion');
    expect(result.right.reports[0]!.warnings).toContainEqual(
      expect.stringContaining('the contract lookup\'s "evil.example.com/v1" is not of that group'),
    );
    expect(convert(result.right.object, V1BETA2).object).toStrictEqual(hub);
  });
});

/** `object` with a stash restoring `restores` that holds `patch` (as whoever may annotate it could write). */
const stashed = (object: JsonObject, restores: string, patch: JsonObject[]): JsonObject => ({
  ...object,
  metadata: {
    ...(object.metadata as JsonObject),
    annotations: { [CONVERSION_DATA_ANNOTATION]: JSON.stringify({ restores, patch }) },
  },
});

describe('the hop’s other references are guarded the same way', () => {
  const cluster: JsonObject = {
    apiVersion: V1BETA2,
    kind: 'Cluster',
    metadata: { name: 'c', namespace: 'ns' },
    spec: {
      topology: {
        classRef: { name: 'cc' },
        version: 'v1.31.0',
        controlPlane: {
          healthCheck: {
            remediation: { templateRef: { apiVersion: `${INFRA}/v1beta1`, kind: 'T', name: 't' } },
          },
        },
        workers: {
          machineDeployments: [{ class: 'md', name: 'a', deletion: { nodeDrainTimeoutSeconds: 5 } }],
          machinePools: [{ class: 'mp', name: 'p' }],
        },
      },
    },
  };
  const downList = [{ class: 'md', name: 'a', nodeDrainTimeout: '5s' }];
  const mhc: JsonObject = {
    apiVersion: V1BETA2,
    kind: 'MachineHealthCheck',
    metadata: { name: 'h', namespace: 'ns' },
    spec: {
      clusterName: 'c',
      selector: {},
      remediation: { templateRef: { apiVersion: `${INFRA}/v1beta1`, kind: 'T', name: 't' } },
    },
  };
  const node: JsonObject = { ...machine, apiVersion: V1BETA2, status: { nodeRef: { name: 'n1' } } };
  delete (node.spec as JsonObject).clusterName;

  it.each([
    [
      'a Cluster’s ClusterClass',
      cluster,
      [{ p: ['spec', 'topology', 'class'], v: 'evil', b: 'cc' }],
      'spec.topology.class',
    ],
    [
      'a machine deployment topology’s class',
      cluster,
      [
        {
          p: ['spec', 'topology', 'workers', 'machineDeployments'],
          v: [{ ...downList[0], class: 'evil' }],
          b: downList,
        },
      ],
      'spec.topology.workers.machineDeployments',
    ],
    [
      'a machine pool topology’s name',
      cluster,
      [
        {
          p: ['spec', 'topology', 'workers', 'machinePools'],
          v: [{ class: 'mp', name: 'evil' }],
          b: [{ class: 'mp', name: 'p' }],
        },
      ],
      'spec.topology.workers.machinePools',
    ],
    [
      'the control plane health check’s remediation template',
      cluster,
      [
        {
          p: ['spec', 'topology', 'controlPlane', 'machineHealthCheck', 'remediationTemplate', 'kind'],
          v: 'Secret',
          b: 'T',
        },
      ],
      'spec.topology.controlPlane.machineHealthCheck.remediationTemplate.kind',
    ],
    [
      'a MachineHealthCheck’s remediation template',
      mhc,
      [{ p: ['spec', 'remediationTemplate', 'name'], v: 'evil', b: 't' }],
      'spec.remediationTemplate.name',
    ],
    [
      'a Machine’s Node',
      node,
      [{ p: ['status', 'nodeRef', 'name'], v: 'n2', b: 'n1' }],
      'status.nodeRef.name',
    ],
  ])('going down, %s', (_what, object, patch, path) => {
    refused(stashed(object, V1BETA1, patch), V1BETA1, path);
  });

  it('going up, a Cluster’s ClusterClass', () => {
    const down = convert(cluster, V1BETA1).object;
    refused(
      stashed(down, V1BETA2, [{ p: ['spec', 'topology', 'classRef', 'name'], v: 'evil', b: 'cc' }]),
      V1BETA2,
      'spec.topology.classRef.name',
    );
  });

  it('a list entry that keeps every name still applies (a sub-second timeout)', () => {
    const object = stashed(cluster, V1BETA1, [
      {
        p: ['spec', 'topology', 'workers', 'machineDeployments'],
        v: [{ ...downList[0], nodeDrainTimeout: '5.5s' }],
        b: downList,
      },
    ]);
    const down = convert(object, V1BETA1);
    expect(down.object.spec).toMatchObject({
      topology: { workers: { machineDeployments: [{ class: 'md', name: 'a', nodeDrainTimeout: '5.5s' }] } },
    });
  });
});

describe('the version part of a stashed apiVersion names no other object: it is not bound', () => {
  // (same group, same kind, same name: the same object, in another served version)
  it('a stash gives back the version the reference had, whatever the lookup says', () => {
    const up = convert(machine, V1BETA2).object;
    const result = convertTo(up, V1BETA1, { referenceApiVersion: (group) => `${group}/v1beta2` });
    if (E.isLeft(result)) throw new Error(JSON.stringify(result.left));
    expect(refOf(result.right.object)).toMatchObject({ apiVersion: `${INFRA}/v1beta1` });
  });
});

describe('what names nothing is not guarded', () => {
  it('an empty remediation template (no health check going up) still round-trips', () => {
    // (found by chain-roundtrip.property: the way up writes no health check for it, and the
    // stash keeps it; it names nothing, so keeping it changes no reference)
    const cluster: JsonObject = {
      apiVersion: V1BETA1,
      kind: 'Cluster',
      metadata: { name: 'a' },
      spec: {
        topology: {
          class: '',
          controlPlane: { machineHealthCheck: { remediationTemplate: {} } },
          version: '',
        },
      },
    };
    expect(convert(convert(cluster, V1BETA2).object, V1BETA1).object).toStrictEqual(cluster);
  });
});

describe('v1alpha4 ⇄ v1beta1: a stash cannot rename a machine deployment topology or change its class', () => {
  const cluster: JsonObject = {
    apiVersion: 'cluster.x-k8s.io/v1alpha4',
    kind: 'Cluster',
    metadata: { name: 'c', namespace: 'ns' },
    spec: {
      topology: {
        class: 'cc',
        version: 'v1.22.0',
        workers: { machineDeployments: [{ class: 'md', name: 'a' }] },
      },
    },
  };
  const list = ['spec', 'topology', 'workers', 'machineDeployments'];
  it.each([
    ['going down', V1BETA1, 'cluster.x-k8s.io/v1alpha4'],
    ['going up', 'cluster.x-k8s.io/v1alpha4', V1BETA1],
  ] as const)('%s', (_what, at, to) => {
    const object = { ...structuredClone(cluster), apiVersion: at };
    const forged = stashed(object, to, [
      { p: list, v: [{ class: 'evil', name: 'a' }], b: [{ class: 'md', name: 'a' }] },
    ]);
    expect(convertTo(forged, to)).toMatchObject({
      _tag: 'Left',
      left: { code: 'stash-identity', path: 'spec.topology.workers.machineDeployments' },
    });
    // (a list entry that keeps the names applies: the fields v1alpha4 cannot hold)
    const kept = stashed(object, to, [
      { p: list, v: [{ class: 'md', name: 'a', failureDomain: 'fd' }], b: [{ class: 'md', name: 'a' }] },
    ]);
    expect(E.isRight(convertTo(kept, to))).toBe(true);
  });
});
