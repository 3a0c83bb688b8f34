import * as E from 'fp-ts/lib/Either.js';
import { describe, expect, it } from 'vitest';
import { type ChainOptions, convertTo, type JsonObject, V1BETA1, V1BETA2 } from '../src/index.js';
import { stashOf, withForgedPatch } from './support/stash-text.js';

// A v1beta2 reference is {apiGroup, kind, name}; going up the stash keeps what it cannot hold
// (namespace, uid, resourceVersion, fieldPath, the apiVersion's version) and going down puts it
// back. The uid, resourceVersion and fieldPath belong to the one object the reference names,
// but their stash entries had no `base` (the plain way down makes none of them), so nothing
// told whether the reference still named it: a Machine whose infrastructureRef was pointed at
// another object in v1beta2 came down naming that object with the old one's uid and
// resourceVersion, and a reference taken out came back as a fragment of stashed fields. The
// stash now records, as those entries' `base`, the identity they belong to; they apply only
// while the reference still names it. The apiVersion stays bound to the group
// (chain-reference-group.test.ts).

const INFRA = 'infrastructure.cluster.x-k8s.io';
const OTHER = 'infrastructure.example.io';
const lookup: ChainOptions = {
  referenceApiVersion: (group) => (group === OTHER ? `${OTHER}/v1` : `${group}/v1beta9`),
};

function convert(object: JsonObject, to: typeof V1BETA1 | typeof V1BETA2, options: ChainOptions = {}) {
  const result = convertTo(structuredClone(object), to, options);
  if (E.isLeft(result)) throw new Error(JSON.stringify(result.left));
  return result.right;
}

const ref = {
  apiVersion: `${INFRA}/v1beta1`,
  kind: 'AWSMachine',
  name: 'm',
  namespace: 'ns',
  uid: '7c0d4f6e-0000-4000-8000-000000000001',
  resourceVersion: '5',
  fieldPath: 'spec.providerID',
};

const machine: JsonObject = {
  apiVersion: V1BETA1,
  kind: 'Machine',
  metadata: { name: 'm', namespace: 'ns' },
  spec: { clusterName: 'c', bootstrap: { dataSecretName: 's' }, infrastructureRef: ref },
};

const refOf = (object: JsonObject) => (object.spec as JsonObject).infrastructureRef;

/** `machine` in v1beta2 with its reference changed there. */
function edited(change: (ref: JsonObject) => void, from: JsonObject = machine): JsonObject {
  const object = convert(from, V1BETA2).object;
  change(refOf(object) as JsonObject);
  return object;
}

/** `machine` in v1beta2, changed there, with its stash as the conversion wrote it before: no `base` on the object fields. */
function legacy(change: (ref: JsonObject) => void = () => {}): JsonObject {
  return withForgedPatch(edited(change), (patch) =>
    patch.map((entry) => {
      if (!['uid', 'resourceVersion', 'fieldPath'].includes((entry.p as string[])[2]!)) return entry;
      const { b: _, ...unbound } = entry;
      return unbound;
    }),
  );
}

const OBJECT_FIELDS = ['uid', 'resourceVersion', 'fieldPath'].map((f) => `spec.infrastructureRef.${f}`);

describe('a stashed uid, resourceVersion and fieldPath apply only to the reference they were stashed from', () => {
  it('unedited, the stash gives them back, and records the identity they belong to', () => {
    const up = convert(machine, V1BETA2).object;
    const patch = JSON.parse(stashOf(up)).patch as JsonObject[];
    for (const field of ['uid', 'resourceVersion', 'fieldPath'])
      expect(patch).toContainEqual({
        p: ['spec', 'infrastructureRef', field],
        v: (ref as Record<string, string>)[field],
        b: { apiGroup: INFRA, kind: 'AWSMachine', name: 'm' },
      });
    const down = convert(up, V1BETA1);
    expect(down.object).toStrictEqual(machine);
    // byte for byte what the stash written before gave back
    expect(JSON.stringify(down.object)).toBe(JSON.stringify(convert(legacy(), V1BETA1).object));
    for (const path of OBJECT_FIELDS) expect(down.reports[0]!.restored).toContain(path);
    expect(down.reports[0]!.warnings).toStrictEqual([]);
  });

  for (const [what, change] of [
    ['another name', (r: JsonObject) => (r.name = 'other')],
    ['another kind of the same group', (r: JsonObject) => (r.kind = 'AWSMachinePool')],
  ] as const) {
    it(`pointed at ${what} in v1beta2, the edit wins: they are not restored, with a warning`, () => {
      const object = edited(change);
      const down = convert(object, V1BETA1);
      const { uid: _u, resourceVersion: _r, fieldPath: _f, ...rest } = ref;
      // (the apiVersion belongs to the group, which is the same)
      const { apiGroup: _g, ...named } = refOf(object) as JsonObject;
      expect(refOf(down.object)).toStrictEqual({ ...rest, ...named });
      for (const path of OBJECT_FIELDS) expect(down.reports[0]!.restored).not.toContain(path);
      expect(down.reports[0]!.warnings).toStrictEqual([
        expect.stringMatching(
          /^spec\.infrastructureRef: the reference now names .*; the conversion data's uid, resourceVersion, fieldPath are not restored/,
        ),
      ]);
      // and back up, the v1beta2 object as edited
      expect(refOf(convert(down.object, V1BETA2).object)).toStrictEqual(refOf(object));
    });
  }

  it('pointed at another group, neither they nor the apiVersion are restored: the lookup decides', () => {
    const object = edited((r) => {
      r.apiGroup = OTHER;
    });
    const down = convert(object, V1BETA1, lookup);
    expect(refOf(down.object)).toStrictEqual({
      apiVersion: `${OTHER}/v1`,
      kind: 'AWSMachine',
      name: 'm',
      namespace: 'ns',
    });
    for (const path of [...OBJECT_FIELDS, 'spec.infrastructureRef.apiVersion'])
      expect(down.reports[0]!.restored).not.toContain(path);
  });

  it('a template reference pointed at another template in v1beta2 (a MachineDeployment rollout) keeps no old uid', () => {
    const deployment: JsonObject = {
      apiVersion: V1BETA1,
      kind: 'MachineDeployment',
      metadata: { name: 'md', namespace: 'ns' },
      spec: {
        clusterName: 'c',
        selector: {},
        template: {
          spec: {
            clusterName: 'c',
            bootstrap: {
              configRef: {
                ...ref,
                apiVersion: 'bootstrap.cluster.x-k8s.io/v1beta1',
                kind: 'KubeadmConfigTemplate',
              },
            },
            infrastructureRef: { ...ref, kind: 'AWSMachineTemplate' },
          },
        },
      },
    };
    const up = convert(deployment, V1BETA2).object;
    expect(convert(up, V1BETA1).object).toStrictEqual(deployment);
    const template = ((up.spec as JsonObject).template as JsonObject).spec as JsonObject;
    (template.infrastructureRef as JsonObject).name = 'm-v2';
    const down = convert(up, V1BETA1);
    const spec = ((down.object.spec as JsonObject).template as JsonObject).spec as JsonObject;
    expect(spec.infrastructureRef).toStrictEqual({
      apiVersion: `${INFRA}/v1beta1`,
      kind: 'AWSMachineTemplate',
      name: 'm-v2',
      namespace: 'ns',
    });
    // the bootstrap reference, unedited, gets its own back
    expect((spec.bootstrap as JsonObject).configRef).toStrictEqual(
      ((deployment.spec as JsonObject).template as { spec: { bootstrap: JsonObject } }).spec.bootstrap
        .configRef,
    );
    expect(down.reports[0]!.restored).not.toContain('spec.template.spec.infrastructureRef.uid');
    expect(down.reports[0]!.restored).toContain('spec.template.spec.bootstrap.configRef.uid');
  });

  it('a reference taken out in v1beta2 stays out: it does not come back as a fragment of stashed fields', () => {
    const cluster: JsonObject = {
      apiVersion: V1BETA1,
      kind: 'Cluster',
      metadata: { name: 'c', namespace: 'ns' },
      spec: { infrastructureRef: { ...ref, kind: 'AWSCluster', name: 'c' } },
    };
    const up = convert(cluster, V1BETA2).object;
    delete (up.spec as JsonObject).infrastructureRef;
    const down = convert(up, V1BETA1);
    expect((down.object.spec as JsonObject).infrastructureRef).toBeUndefined();
    expect(down.reports[0]!.restored.filter((p) => p.startsWith('spec.infrastructureRef'))).toStrictEqual([]);
    expect(down.reports[0]!.warnings).toContainEqual(
      expect.stringContaining('spec.infrastructureRef: the reference was taken out'),
    );
    expect(convert(down.object, V1BETA2).object.spec).toStrictEqual(up.spec);
  });

  it('a bootstrap reference taken out leaves no `bootstrap` the stash made for it', () => {
    const object = convert(
      { ...machine, spec: { clusterName: 'c', bootstrap: { configRef: ref }, infrastructureRef: ref } },
      V1BETA2,
    ).object;
    delete (object.spec as JsonObject).bootstrap;
    const down = convert(object, V1BETA1);
    expect((down.object.spec as JsonObject).bootstrap).toBeUndefined();
  });
});

describe('a stash written before the identity was recorded', () => {
  it('unedited, still gives everything back, byte for byte', () => {
    const down = convert(legacy(), V1BETA1);
    expect(down.object).toStrictEqual(machine);
    // (the plain way down writes kind, name and namespace; the stash adds the rest in its order)
    const { kind, name, namespace, ...stashed } = ref;
    expect(JSON.stringify(refOf(down.object))).toBe(JSON.stringify({ kind, name, namespace, ...stashed }));
  });

  it('pointed at another group, the object fields go with the apiVersion of the old group', () => {
    const down = convert(
      legacy((r) => {
        r.apiGroup = OTHER;
      }),
      V1BETA1,
      lookup,
    );
    expect(refOf(down.object)).toStrictEqual({
      apiVersion: `${OTHER}/v1`,
      kind: 'AWSMachine',
      name: 'm',
      namespace: 'ns',
    });
    for (const path of OBJECT_FIELDS) expect(down.reports[0]!.restored).not.toContain(path);
    expect(down.reports[0]!.warnings).toContainEqual(
      expect.stringContaining('it and its uid, resourceVersion, fieldPath are not restored'),
    );
  });
});

describe('a forged identity does no more than a forged entry could before', () => {
  it('an object field bound to another identity is not applied', () => {
    const object = withForgedPatch(
      edited(() => {}),
      (patch) =>
        patch.map((e) =>
          (e.p as string[])[2] === 'uid'
            ? { ...e, v: 'forged', b: { apiGroup: INFRA, kind: 'X', name: 'y' } }
            : e,
        ),
    );
    const down = convert(object, V1BETA1);
    expect((refOf(down.object) as JsonObject).uid).toBeUndefined();
    expect(down.reports[0]!.restored).not.toContain('spec.infrastructureRef.uid');
  });

  it('an identity under a path outside the move table is refused like any other stash field', () => {
    const object = withForgedPatch(
      edited(() => {}),
      (patch) => [
        ...patch,
        { p: ['spec', 'providerID', 'uid'], v: 'x', b: { apiGroup: INFRA, kind: 'AWSMachine', name: 'm' } },
      ],
    );
    expect(convertTo(object, V1BETA1)).toMatchObject({ _tag: 'Left', left: { code: 'stash-outside-moves' } });
  });
});
