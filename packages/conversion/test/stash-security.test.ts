import fc from 'fast-check';
import * as E from 'fp-ts/lib/Either.js';
import { describe, expect, it } from 'vitest';
import { awsConversionPlugin } from '../../providers-aws/src/conversion/index.js';
import {
  CONVERSION_DATA_ANNOTATION,
  convertManifest,
  convertObject,
  V1ALPHA1,
  V1ALPHA2,
} from '../src/index.js';
import type { Json, JsonObject } from '../src/path.js';
import { MAX_ANNOTATIONS_BYTES, MAX_STASH_DEPTH } from '../src/stash-rules.js';

// A stash is data from whoever could annotate the object. These are the attacks from issue
// #12: each converted with exit 0 before the stash was checked against the move table.

const v2Machine = (stash: unknown, namespace = 'team-a'): JsonObject => ({
  apiVersion: V1ALPHA2,
  kind: 'Machine',
  metadata: {
    name: 'web-0',
    namespace,
    annotations: { [CONVERSION_DATA_ANNOTATION]: typeof stash === 'string' ? stash : JSON.stringify(stash) },
  },
  spec: {
    version: 'v1.15.3',
    bootstrap: {
      configRef: { apiVersion: 'bootstrap.cluster.x-k8s.io/v1alpha2', kind: 'KubeadmConfig', name: 'web-0' },
    },
    infrastructureRef: {
      apiVersion: 'infrastructure.cluster.x-k8s.io/v1alpha2',
      kind: 'AWSMachine',
      name: 'web-0',
    },
  },
});

const v1Machine = (stash: unknown): JsonObject => ({
  apiVersion: V1ALPHA1,
  kind: 'Machine',
  metadata: {
    name: 'web-0',
    namespace: 'team-a',
    annotations: { [CONVERSION_DATA_ANNOTATION]: JSON.stringify(stash) },
  },
  spec: {
    versions: { kubelet: 'v1.15.3' },
    providerSpec: {
      value: { apiVersion: 'awsprovider/v1alpha1', kind: 'AWSMachineProviderSpec', instanceType: 't3.small' },
    },
  },
});

const down = (object: JsonObject) => convertObject(object, V1ALPHA1);
const up = (object: JsonObject) => convertObject(object, V1ALPHA2, { plugins: [awsConversionPlugin] });

function refusal(result: ReturnType<typeof down>) {
  if (E.isRight(result)) throw new Error(`converted: ${JSON.stringify(result.right.object)}`);
  return result.left;
}

const awsMachineRef = (namespace: string) => ({
  apiVersion: 'infrastructure.cluster.x-k8s.io/v1alpha2',
  kind: 'AWSMachine',
  name: 'x',
  namespace,
});

/** `levels` arrays, one inside the other, around a string. */
function nestedList(levels: number): Json {
  let value: Json = 'x';
  for (let i = 0; i < levels; i++) value = [value];
  return value;
}

describe('the conversion stash is data, not instructions', () => {
  const cases: { name: string; patch: unknown[]; code: string; path: string }[] = [
    {
      name: 'turning the object into a ClusterRoleBinding',
      patch: [{ p: ['kind'], v: 'ClusterRoleBinding', b: 'Machine' }],
      code: 'stash-identity',
      path: 'kind',
    },
    {
      name: 'changing apiVersion',
      patch: [{ p: ['apiVersion'], v: 'rbac.authorization.k8s.io/v1', b: V1ALPHA1 }],
      code: 'stash-identity',
      path: 'apiVersion',
    },
    {
      name: 'adding top-level keys (roleRef, subjects)',
      patch: [{ p: ['roleRef'], v: { kind: 'ClusterRole', name: 'cluster-admin' } }],
      code: 'stash-outside-moves',
      path: 'roleRef.kind',
    },
    {
      name: 'renaming',
      patch: [{ p: ['metadata', 'name'], v: 'other', b: 'web-0' }],
      code: 'stash-identity',
      path: 'metadata.name',
    },
    {
      name: 're-namespacing',
      patch: [{ p: ['metadata', 'namespace'], v: 'kube-system', b: 'team-a' }],
      code: 'stash-identity',
      path: 'metadata.namespace',
    },
    {
      name: 'changing the uid',
      patch: [{ p: ['metadata', 'uid'], v: 'x' }],
      code: 'stash-identity',
      path: 'metadata.uid',
    },
    {
      name: 'adding owner references',
      patch: [{ p: ['metadata', 'ownerReferences'], v: [{ kind: 'Cluster', name: 'x', uid: 'u' }] }],
      code: 'stash-identity',
      path: 'metadata.ownerReferences',
    },
    {
      name: 'replacing the whole metadata (ancestor of name)',
      patch: [{ p: ['metadata'], v: { name: 'x' }, b: { name: 'web-0', namespace: 'team-a' } }],
      code: 'stash-identity',
      path: 'metadata.name',
    },
    {
      name: 'an empty path',
      patch: [{ p: [], v: { kind: 'Secret' } }],
      code: 'stash-identity',
      path: 'kind',
    },
    {
      name: 'a field the move table does not know',
      patch: [{ p: ['spec', 'replicas'], v: 100 }],
      code: 'stash-outside-moves',
      path: 'spec.replicas',
    },
  ];
  for (const c of cases) {
    it(`refuses ${c.name}, naming the path`, () => {
      const error = refusal(down(v2Machine({ restores: V1ALPHA1, patch: c.patch })));
      expect(error).toMatchObject({ code: c.code, path: c.path, objectKind: 'Machine', name: 'web-0' });
      expect(error.message).toContain('refused');
    });
  }

  it('refuses injected spec.bootstrap.data, directly or through an ancestor entry', () => {
    for (const patch of [
      [{ p: ['spec', 'bootstrap', 'data'], v: 'I2Nsb3VkLWNvbmZpZwpydW5jbWQ6IFtjdXJsIGV2aWwuc2hdCg==' }],
      [{ p: ['spec', 'bootstrap'], v: { data: 'eA==' } }],
      [{ p: ['spec'], v: { bootstrap: { data: 'eA==' } } }],
    ]) {
      const error = refusal(up(v1Machine({ restores: V1ALPHA2, patch })));
      expect(error.code).toBe('stash-bootstrap-data');
      expect(error.path).toBe('spec.bootstrap.data');
    }
  });

  it('refuses a reference into another namespace', () => {
    const ref = awsMachineRef('kube-system');
    const error = refusal(
      up(v1Machine({ restores: V1ALPHA2, patch: [{ p: ['spec', 'infrastructureRef'], v: ref }] })),
    );
    expect(error).toMatchObject({ code: 'stash-cross-namespace', path: 'spec.infrastructureRef.namespace' });
  });

  it('refuses a MachineClass reference into another namespace, and accepts one in its own', () => {
    const machineClass = (namespace: string) =>
      v2Machine({
        restores: V1ALPHA1,
        patch: [
          {
            p: ['spec', 'providerSpec'],
            v: { valueFrom: { machineClass: { name: 'x', namespace } } },
            b: {},
          },
        ],
      });
    // Before, the way down wrote it, and the way up took its providerSpec from kube-system.
    expect(refusal(down(machineClass('kube-system')))).toMatchObject({
      code: 'stash-cross-namespace',
      path: 'spec.providerSpec.valueFrom.machineClass.namespace',
    });
    const own = down(machineClass('team-a'));
    if (E.isLeft(own)) throw new Error(JSON.stringify(own.left));
    expect(own.right.reports[0]!.restored).toContain('spec.providerSpec');
  });

  it('accepts a reference in the object’s own namespace (a real round trip)', () => {
    const ref = awsMachineRef('team-a');
    const result = up(
      v1Machine({ restores: V1ALPHA2, patch: [{ p: ['spec', 'infrastructureRef'], v: ref }] }),
    );
    if (E.isLeft(result)) throw new Error(JSON.stringify(result.left));
    expect((result.right.object.spec as JsonObject).infrastructureRef).toEqual(ref);
  });

  it('refuses a "generated" list naming fields no plug-in fills in', () => {
    const error = refusal(down(v2Machine({ restores: V1ALPHA1, patch: [], generated: [{ p: [], v: {} }] })));
    expect(error.code).toBe('stash-generated-path');
  });

  describe('a "generated" list is trusted only when the plug-in would make those references', () => {
    /** A v1alpha1 Machine up, then its infrastructureRef and the stash's record of it set to `kind`. */
    function forged(kind: string): JsonObject {
      const original = v1Machine({ restores: V1ALPHA2, patch: [] });
      delete (original.metadata as JsonObject).annotations;
      const there = up(original);
      if (E.isLeft(there)) throw new Error(JSON.stringify(there.left));
      const object = structuredClone(there.right.object);
      ((object.spec as JsonObject).infrastructureRef as JsonObject).kind = kind;
      const annotations = (object.metadata as JsonObject).annotations as Record<string, string>;
      const stash = JSON.parse(annotations[CONVERSION_DATA_ANNOTATION]!);
      for (const g of stash.generated) if (g.p.at(-1) === 'infrastructureRef') g.v.kind = kind;
      annotations[CONVERSION_DATA_ANNOTATION] = JSON.stringify(stash);
      return object;
    }
    const infrastructureKind = (object: JsonObject) =>
      ((object.spec as JsonObject).infrastructureRef as JsonObject).kind;

    // The AWS plug-in answers with machineReferences; one without them is asked its hook.
    const { machineReferences: _, ...hookOnly } = awsConversionPlugin;
    for (const [how, plugin] of [
      ['machineReferences', awsConversionPlugin],
      ['the hook', hookOnly],
    ] as const) {
      it(`a forged list keeps the reference it names through a round trip (${how})`, () => {
        const object = forged('Evil');
        const back = convertObject(object, V1ALPHA1, { plugins: [plugin] });
        if (E.isLeft(back)) throw new Error(JSON.stringify(back.left));
        expect(back.right.reports[0]!.stashed).toContain('spec.infrastructureRef');
        const again = up(back.right.object);
        if (E.isLeft(again)) throw new Error(JSON.stringify(again.left));
        // Before, the plug-in's AWSMachine replaced Evil without a warning.
        expect(infrastructureKind(again.right.object)).toBe('Evil');
        expect(again.right.generated).toEqual([]);
      });

      it(`a true list still leaves the references to the plug-in, which makes them again (${how})`, () => {
        const object = forged('AWSMachine');
        const back = convertObject(object, V1ALPHA1, { plugins: [plugin] });
        if (E.isLeft(back)) throw new Error(JSON.stringify(back.left));
        expect(back.right.reports[0]!.stashed).not.toContain('spec.infrastructureRef');
        expect((back.right.object.metadata as JsonObject).annotations).toBeUndefined();
        const again = up(back.right.object);
        if (E.isLeft(again)) throw new Error(JSON.stringify(again.left));
        expect(infrastructureKind(again.right.object)).toBe('AWSMachine');
        expect(again.right.generated.map((o) => o.kind)).toEqual(['AWSMachine', 'KubeadmConfig']);
      });
    }
  });

  it('refuses a stash nested deeper than the bound, without overflowing the stack', () => {
    const deep = `{"restores":"${V1ALPHA1}","patch":[{"p":["spec","taints"],"v":${'['.repeat(20_000)}${']'.repeat(20_000)}}]}`;
    const error = refusal(down(v2Machine(deep)));
    expect(error.code).toBe('stash-too-deep');
  });

  it('bounds the nesting at exactly MAX_STASH_DEPTH levels, however many brackets its strings hold', () => {
    // The stash object, `patch` and the entry are three levels; `v` adds `levels` more.
    const nested = (levels: number, text = '') =>
      `{"restores":"${V1ALPHA1}","patch":[{"p":["spec","taints"],"v":${'['.repeat(levels)}${JSON.stringify(text)}${']'.repeat(levels)}}]}`;
    const code = (stash: string) => {
      const result = down(v2Machine(stash));
      return E.isLeft(result) ? result.left.code : undefined;
    };
    expect(code(nested(MAX_STASH_DEPTH - 3))).not.toBe('stash-too-deep');
    expect(code(nested(MAX_STASH_DEPTH - 2))).toBe('stash-too-deep');
    // Brackets inside strings are no nesting (the bracket count alone would say deep).
    expect(code(nested(1, '[{'.repeat(MAX_STASH_DEPTH)))).not.toBe('stash-too-deep');
    expect(code(nested(MAX_STASH_DEPTH - 3, '[{'.repeat(MAX_STASH_DEPTH)))).not.toBe('stash-too-deep');
  });

  it('never writes a stash deeper than the way back reads: the way up refuses it, naming the field', () => {
    // status.providerStatus has no v1alpha2 field, so the stash keeps it. The manifest reader
    // takes documents far deeper than a stash may nest: a providerStatus one level past the
    // stash's room was written, and the way back then refused the object (stash-too-deep).
    const room = MAX_STASH_DEPTH - 3; // the stash object, its `patch` and the entry
    const withStatus = (levels: number): JsonObject => {
      const object = v1Machine(undefined);
      delete (object.metadata as JsonObject).annotations;
      return { ...object, status: { providerStatus: nestedList(levels) } };
    };
    const fits = withStatus(room);
    const there = up(fits);
    if (E.isLeft(there)) throw new Error(JSON.stringify(there.left));
    const back = down(there.right.object);
    if (E.isLeft(back)) throw new Error(JSON.stringify(back.left));
    expect(back.right.object).toEqual(fits);
    expect(refusal(up(withStatus(room + 1)))).toEqual({
      code: 'stash-too-deep',
      objectKind: 'Machine',
      name: 'web-0',
      namespace: 'team-a',
      path: 'status.providerStatus',
      message: `nests more than ${room} levels deep (as it was or as converted): the conversion stash that keeps it for the way back would nest deeper than ${MAX_STASH_DEPTH} levels, which the way back refuses`,
    });
  });

  it('refuses a stash over 256 KiB, naming its size', () => {
    const big = JSON.stringify({
      restores: V1ALPHA1,
      patch: [{ p: ['spec', 'taints'], v: 'x'.repeat(300_000) }],
    });
    const error = refusal(down(v2Machine(big)));
    expect(error.code).toBe('stash-too-large');
    expect(error.message).toContain(`${Buffer.byteLength(big)} bytes`);
  });

  it('refuses to write an object whose annotations (stash included) pass 256 KiB', () => {
    const machine = v1Machine({ restores: V1ALPHA2, patch: [] });
    (machine.metadata as JsonObject).annotations = { note: 'x'.repeat(MAX_ANNOTATIONS_BYTES - 1000) };
    (machine.spec as JsonObject).taints = [{ key: 'k'.repeat(2000), effect: 'NoSchedule' }];
    const error = refusal(up(machine));
    expect(error.code).toBe('annotations-too-large');
    expect(error.message).toMatch(/annotations total \d+ bytes/);
  });

  it('from a manifest: the document and the path are named, and there is no output', () => {
    const manifest = JSON.stringify(
      v2Machine({ restores: V1ALPHA1, patch: [{ p: ['kind'], v: 'ClusterRoleBinding', b: 'Machine' }] }),
    );
    const result = convertManifest(manifest, { to: V1ALPHA1 });
    if (E.isRight(result)) throw new Error(result.right.text);
    expect(result.left).toEqual([
      expect.objectContaining({
        index: 0,
        code: 'stash-identity',
        path: 'kind',
        objectKind: 'Machine',
        name: 'web-0',
      }),
    ]);
  });

  it('going down, bootstrap data and references into other namespaces are not stashed, and the report says so', () => {
    const machine = v2Machine('');
    delete (machine.metadata as JsonObject).annotations;
    const spec = machine.spec as JsonObject;
    (spec.bootstrap as JsonObject).data = 'I2Nsb3VkLWNvbmZpZw==';
    (spec.infrastructureRef as JsonObject).namespace = 'elsewhere';
    const result = down(machine);
    if (E.isLeft(result)) throw new Error(JSON.stringify(result.left));
    const stash = String(
      ((result.right.object.metadata as JsonObject).annotations as JsonObject)[CONVERSION_DATA_ANNOTATION],
    );
    expect(stash).not.toContain('I2Nsb3VkLWNvbmZpZw==');
    expect(stash).not.toContain('elsewhere');
    const back = up(result.right.object);
    if (E.isLeft(back)) throw new Error(JSON.stringify(back.left));
    const backSpec = back.right.object.spec as JsonObject;
    expect(backSpec.bootstrap).toEqual({ configRef: (spec.bootstrap as JsonObject).configRef });
    expect((backSpec.infrastructureRef as JsonObject).namespace).toBeUndefined();
    expect(result.right.reports[0]!.warnings).toEqual([
      expect.stringMatching(
        /^spec\.bootstrap(\.data)? is not kept for the way back: the stash never sets bootstrap data/,
      ),
      expect.stringMatching(
        /^spec\.infrastructureRef(\.namespace)? is not kept for the way back: .*another namespace/,
      ),
    ]);
  });

  it('going up, a MachineClass reference into another namespace is not stashed, and the report says so', () => {
    const machine = v1Machine('');
    delete (machine.metadata as JsonObject).annotations;
    (machine.spec as JsonObject).providerSpec = {
      valueFrom: { machineClass: { name: 'm5', namespace: 'team-b' } },
    };
    const result = convertObject(machine, V1ALPHA2, {
      plugins: [awsConversionPlugin],
      resolveMachineClass: () =>
        E.right({
          providerSpec: { apiVersion: 'awsprovider/v1alpha1', kind: 'AWSMachineProviderSpec' },
          source: 'MachineClass team-b/m5',
        }),
    });
    if (E.isLeft(result)) throw new Error(JSON.stringify(result.left));
    const stash = String(
      ((result.right.object.metadata as JsonObject).annotations as JsonObject)[CONVERSION_DATA_ANNOTATION],
    );
    expect(stash).not.toContain('team-b');
    expect(result.right.reports[0]!.warnings).toEqual([
      expect.stringMatching(
        /^spec\.providerSpec(\.valueFrom\.machineClass\.namespace)? is not kept for the way back: .*another namespace/,
      ),
    ]);
  });

  it('a legitimate round trip still restores everything it stashed', () => {
    const original = v1Machine({ restores: V1ALPHA2, patch: [] });
    delete (original.metadata as JsonObject).annotations;
    (original.spec as JsonObject).taints = [{ key: 'dedicated', effect: 'NoSchedule' }];
    const there = up(original);
    if (E.isLeft(there)) throw new Error(JSON.stringify(there.left));
    const back = down(there.right.object);
    if (E.isLeft(back)) throw new Error(JSON.stringify(back.left));
    expect(back.right.object).toEqual(original);
  });
});

// Arbitrary JSON for the stash, and paths drawn from the fields an attacker would aim at.
const segment = fc.constantFrom(
  'apiVersion',
  'kind',
  'metadata',
  'name',
  'namespace',
  'uid',
  'ownerReferences',
  'generateName',
  'spec',
  'status',
  'bootstrap',
  'data',
  'infrastructureRef',
  'taints',
  'labels',
  'annotations',
  'x',
  '__proto__',
);
const json: fc.Arbitrary<unknown> = fc.letrec<{ v: unknown }>((tie) => ({
  v: fc.oneof(
    { depthSize: 'small' },
    fc.constant(null),
    fc.boolean(),
    fc.integer(),
    fc.string({ maxLength: 6 }),
    fc.constantFrom('ClusterRoleBinding', 'kube-system', 'Machine', V1ALPHA1, V1ALPHA2),
    fc.array(tie('v'), { maxLength: 2 }),
    fc.dictionary(segment, tie('v'), { maxKeys: 3 }),
  ),
})).v;
const entry = fc.record(
  { p: fc.oneof(fc.array(segment, { maxLength: 4 }), json), v: json, b: json },
  { requiredKeys: ['p'] },
);
const stashText = fc.oneof(
  fc
    .record({
      restores: fc.constantFrom(V1ALPHA1, V1ALPHA2),
      patch: fc.array(entry, { maxLength: 4 }),
      generated: fc.option(
        fc.array(fc.record({ p: fc.array(segment, { maxLength: 3 }), v: json }), { maxLength: 2 }),
        { nil: undefined },
      ),
      created: fc.option(fc.constantFrom('metadata', 'annotations', 'x'), { nil: undefined }),
    })
    .map((s) => JSON.stringify(s)),
  json.map((v) => JSON.stringify(v)),
  fc.string(),
);

describe('property: no stash changes identity or kind, and none throws', () => {
  it('for any stash annotation, in either direction (2,000 runs)', () => {
    fc.assert(
      fc.property(stashText, fc.boolean(), (text, goingUp) => {
        const input = goingUp ? v1Machine({}) : v2Machine('');
        ((input.metadata as JsonObject).annotations as JsonObject)[CONVERSION_DATA_ANNOTATION] = text;
        const result = goingUp ? up(input) : down(input);
        if (E.isLeft(result)) return;
        const out = result.right.object;
        expect(out.kind).toBe('Machine');
        expect(out.apiVersion).toBe(goingUp ? V1ALPHA2 : V1ALPHA1);
        expect((out.metadata as JsonObject).name).toBe('web-0');
        expect((out.metadata as JsonObject).namespace).toBe('team-a');
        expect(
          Object.keys(out).every((k) => ['apiVersion', 'kind', 'metadata', 'spec', 'status'].includes(k)),
        ).toBe(true);
        expect(JSON.stringify((out.spec as JsonObject).bootstrap ?? {})).not.toContain('"data"');
      }),
      { numRuns: 2000 },
    );
  }, 120_000);
});
