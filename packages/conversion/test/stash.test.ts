import fc from 'fast-check';
import * as E from 'fp-ts/lib/Either.js';
import { describe, expect, it } from 'vitest';
import { awsConversionPlugin } from '../../providers-aws/src/conversion/index.js';
import { CONVERSION_DATA_ANNOTATION, convertObject, V1ALPHA1, V1ALPHA2 } from '../src/index.js';
import type { JsonObject } from '../src/path.js';
import { applyStash, diff, putStash, takeStash } from '../src/stash.js';

const json = fc.letrec<{ v: unknown }>((tie) => ({
  v: fc.oneof(
    { depthSize: 'small' },
    fc.constant(null),
    fc.boolean(),
    fc.integer(),
    fc.string({ maxLength: 4 }),
    fc.array(tie('v'), { maxLength: 2 }),
    fc.dictionary(fc.constantFrom('a', 'b', 'c', 'd'), tie('v'), { maxKeys: 3 }),
  ),
})).v;
const object = fc
  .dictionary(fc.constantFrom('a', 'b', 'c', 'd', 'e'), json, { maxKeys: 4 })
  .map((v) => JSON.parse(JSON.stringify(v)) as JsonObject);

describe('stash: diff and apply', () => {
  it('applying diff(original, base) to base gives the original (1,000 pairs)', () => {
    fc.assert(
      fc.property(object, object, (original, base) => {
        const target = structuredClone(base);
        const { skipped } = applyStash(target, diff(original, base));
        expect(skipped).toEqual([]);
        expect(target).toStrictEqual(original);
      }),
      { numRuns: 1000 },
    );
  });

  it('an edited field keeps its edit (the stash entry is skipped)', () => {
    const entries = diff({ phase: 'Creating' }, { phase: 'Provisioning' });
    const edited: JsonObject = { phase: 'Running' };
    const { applied, skipped } = applyStash(edited, entries);
    expect(applied).toEqual([]);
    expect(skipped.map((e) => e.path)).toEqual([['phase']]);
    expect(edited).toEqual({ phase: 'Running' });
  });

  it('a written stash is read back, and the annotations it created are removed again', () => {
    const object: JsonObject = { kind: 'Machine', metadata: { name: 'm' } };
    putStash(object, { restores: V1ALPHA1, entries: [{ path: ['spec', 'taints'], value: [] }] });
    expect(Object.keys((object.metadata as JsonObject).annotations as JsonObject)).toEqual([
      CONVERSION_DATA_ANNOTATION,
    ]);
    const taken = takeStash(object);
    if (E.isLeft(taken)) throw new Error(taken.left.message);
    expect(taken.right.rest).toEqual({ kind: 'Machine', metadata: { name: 'm' } });
    expect(taken.right.stash?.entries).toEqual([{ path: ['spec', 'taints'], value: [] }]);
  });

  // YAML's `annotations:` with nothing after it reads as null. Writing the stash replaces the
  // null with a map; taking it must put the null back, in its place, not drop the key.
  it('annotations: null comes back null, in its place, when the stash is taken', () => {
    const object: JsonObject = { kind: 'Machine', metadata: { name: 'm', annotations: null, labels: {} } };
    putStash(object, { restores: V1ALPHA1, entries: [{ path: ['spec', 'taints'], value: [] }] });
    expect(JSON.parse(getStashText(object))).toMatchObject({ created: 'null-annotations' });
    const taken = takeStash(object);
    if (E.isLeft(taken)) throw new Error(taken.left.message);
    expect(JSON.stringify(taken.right.rest)).toBe(
      JSON.stringify({ kind: 'Machine', metadata: { name: 'm', annotations: null, labels: {} } }),
    );
  });

  it('annotations added after the stash was written stay, as a map', () => {
    const object: JsonObject = { kind: 'Machine', metadata: { name: 'm', annotations: null } };
    putStash(object, { restores: V1ALPHA1, entries: [{ path: ['spec', 'taints'], value: [] }] });
    ((object.metadata as JsonObject).annotations as JsonObject).added = 'later';
    const taken = takeStash(object);
    if (E.isLeft(taken)) throw new Error(taken.left.message);
    expect(taken.right.rest).toEqual({
      kind: 'Machine',
      metadata: { name: 'm', annotations: { added: 'later' } },
    });
  });

  it('a stash with a "created" marker this reader does not know is refused', () => {
    const object: JsonObject = {
      kind: 'Machine',
      metadata: {
        annotations: {
          [CONVERSION_DATA_ANNOTATION]: JSON.stringify({ restores: V1ALPHA1, patch: [], created: 'labels' }),
        },
      },
    };
    const taken = takeStash(object);
    expect(E.isLeft(taken) && taken.left).toMatchObject({
      code: 'stash-malformed',
      message: 'has an unknown "created" marker',
    });
  });

  it('a stash listing a field twice, or a field and one inside it, is refused naming both', () => {
    // (the first entry applied and the second was skipped as "edited since", silently)
    const refusal = (patch: unknown[]) => {
      const text = JSON.stringify({ restores: V1ALPHA1, patch });
      const taken = takeStash({
        kind: 'Machine',
        metadata: { annotations: { [CONVERSION_DATA_ANNOTATION]: text } },
      });
      return E.isLeft(taken) ? taken.left : undefined;
    };
    expect(
      refusal([
        { p: ['spec', 'a'], v: 1 },
        { p: ['spec', 'b'], v: 2 },
        { p: ['spec', 'a'], v: 3 },
      ]),
    ).toEqual({
      code: 'stash-malformed',
      path: `metadata.annotations[${JSON.stringify(CONVERSION_DATA_ANNOTATION)}]`,
      message: 'lists spec.a twice',
    });
    expect(
      refusal([
        { p: ['spec'], v: {} },
        { p: ['spec', 'a', 'b'], v: 1 },
      ])?.message,
    ).toBe('lists spec and spec.a.b, one inside the other');
    expect(
      refusal([
        { p: ['spec', 'a', 'b'], v: 1 },
        { p: ['spec', 'a'], b: 2 },
      ])?.message,
    ).toBe('lists spec.a and spec.a.b, one inside the other');
    // past a handful of entries (a trie, not pairs): the same verdicts
    const many = Array.from({ length: 12 }, (_, i) => ({ p: ['spec', `f${i}`, 'x'], v: i }));
    expect(refusal(many)).toBe(undefined);
    expect(refusal([...many, { p: ['spec', 'f3', 'x'], v: 0 }])?.message).toBe('lists spec.f3.x twice');
    expect(refusal([...many, { p: ['spec', 'f3'], v: 0 }])?.message).toBe(
      'lists spec.f3 and spec.f3.x, one inside the other',
    );
    expect(refusal([...many, { p: ['spec', 'f3', 'x', 'y'], v: 0 }])?.message).toBe(
      'lists spec.f3.x and spec.f3.x.y, one inside the other',
    );
    // siblings and a shared prefix that is no entry are fine
    expect(
      refusal([
        { p: ['spec', 'a', 'b'], v: 1 },
        { p: ['spec', 'a', 'c'], v: 2 },
        { p: ['spec', 'ab'], v: 3 },
      ]),
    ).toBe(undefined);
  });

  it('refuses exactly the stashes with two paths one of which holds the other, few entries or many', () => {
    const isPrefixOf = (a: string[], b: string[]) => a.length <= b.length && a.every((k, i) => k === b[i]);
    const paths = fc.array(fc.array(fc.constantFrom('a', 'b', 'c'), { minLength: 1, maxLength: 3 }), {
      maxLength: 20,
    });
    fc.assert(
      fc.property(paths, (list) => {
        const overlap = list.some((p, i) => list.some((q, j) => i !== j && isPrefixOf(p, q)));
        const text = JSON.stringify({ restores: V1ALPHA1, patch: list.map((p) => ({ p, v: 1 })) });
        const taken = takeStash({ metadata: { annotations: { [CONVERSION_DATA_ANNOTATION]: text } } });
        expect(E.isLeft(taken)).toBe(overlap);
      }),
      { numRuns: 2000 },
    );
  });

  it('every stash diff writes lists each field once and none inside another (1,000 pairs)', () => {
    fc.assert(
      fc.property(object, object, (original, base) => {
        const target: JsonObject = { metadata: {} };
        putStash(target, { restores: V1ALPHA1, entries: diff(original, base) });
        expect(E.isRight(takeStash(target))).toBe(true);
      }),
      { numRuns: 1000 },
    );
  });
});

const getStashText = (object: JsonObject) =>
  ((object.metadata as JsonObject).annotations as JsonObject)[CONVERSION_DATA_ANNOTATION] as string;

const machine = {
  apiVersion: V1ALPHA1,
  kind: 'Machine',
  metadata: { name: 'm', annotations: { keep: 'me' } },
  spec: {
    taints: [{ key: 'dedicated', effect: 'NoSchedule' }],
    providerSpec: {
      value: { apiVersion: 'awsprovider/v1alpha1', kind: 'AWSMachineProviderSpec', instanceType: 't3.small' },
    },
  },
  status: { phase: 'Creating' },
};
const up = () => {
  const r = convertObject(machine, V1ALPHA2, { plugins: [awsConversionPlugin] });
  if (E.isLeft(r)) throw new Error(JSON.stringify(r.left));
  return r.right.object;
};

describe('stash annotation on converted objects', () => {
  it('edits made in v1alpha2 win over the stash on the way back', () => {
    const v2 = up();
    (v2.status as JsonObject).phase = 'running';
    const down = convertObject(v2, V1ALPHA1);
    if (E.isLeft(down)) throw new Error(JSON.stringify(down.left));
    expect((down.right.object.status as JsonObject).phase).toBe('Running');
    expect(down.right.reports[0]!.keptEdits).toEqual(['status.phase']);
    expect((down.right.object.spec as JsonObject).taints).toEqual(machine.spec.taints);
  });

  // The generated references are left out of the stash because the plug-in makes them again
  // going up, but it names them after the object: once the object's name or namespace is
  // not the one they were made for, the way back must keep them, or they would silently
  // point at objects of the new name.
  it.each([
    ['renamed', { name: 'renamed' }],
    ['moved to a namespace', { namespace: 'elsewhere' }],
  ])('references generated for the object survive a round trip once it is %s', (_, edit) => {
    const v2 = up();
    Object.assign(v2.metadata as JsonObject, edit);
    const down = convertObject(v2, V1ALPHA1);
    if (E.isLeft(down)) throw new Error(JSON.stringify(down.left));
    const back = convertObject(down.right.object, V1ALPHA2, { plugins: [awsConversionPlugin] });
    if (E.isLeft(back)) throw new Error(JSON.stringify(back.left));
    const spec = back.right.object.spec as JsonObject;
    expect(spec.infrastructureRef).toEqual((v2.spec as JsonObject).infrastructureRef);
    expect(spec.bootstrap).toEqual((v2.spec as JsonObject).bootstrap);
  });

  // Going up, a plug-in makes the infrastructure reference from the providerSpec. A v1alpha2
  // object without one (a Cluster's is optional; a Machine's taken out, or a template never
  // given one) came back from v1alpha1 with one made, or not at all ("has neither value nor
  // valueFrom"): the way down now stashes the reference's absence.
  describe('an object without an infrastructure reference comes back without one', () => {
    const cluster = {
      apiVersion: V1ALPHA1,
      kind: 'Cluster',
      metadata: { name: 'c' },
      spec: {
        providerSpec: { value: { apiVersion: 'awsprovider/v1alpha1', kind: 'AWSClusterProviderSpec' } },
      },
    };
    const roundTrip = (v2: JsonObject) => {
      const down = convertObject(v2, V1ALPHA1);
      if (E.isLeft(down)) throw new Error(JSON.stringify(down.left));
      const back = convertObject(down.right.object, V1ALPHA2, { plugins: [awsConversionPlugin] });
      if (E.isLeft(back)) throw new Error(JSON.stringify(back.left));
      return back.right;
    };
    const withoutStash = (o: JsonObject) => ({
      ...o,
      metadata: { ...(o.metadata as JsonObject), annotations: {} },
    });

    it.each([
      ['a Cluster whose reference was taken out', cluster],
      ['a Machine whose reference was taken out', machine],
    ])('%s', (_, v1) => {
      const v2 = convertObject(v1, V1ALPHA2, { plugins: [awsConversionPlugin] });
      if (E.isLeft(v2)) throw new Error(JSON.stringify(v2.left));
      const edited = structuredClone(v2.right.object);
      delete (edited.spec as JsonObject).infrastructureRef;
      const back = roundTrip(structuredClone(edited));
      expect(withoutStash(back.object)).toStrictEqual(withoutStash(edited));
      expect(back.generated).toStrictEqual([]);
    });

    it('a MachineSet whose template spec has none (as a v1alpha1 template without a spec converts)', () => {
      const v2: JsonObject = {
        apiVersion: V1ALPHA2,
        kind: 'MachineSet',
        metadata: { name: 'ms' },
        spec: { template: { spec: { version: 'v1.15.3' } } },
      };
      expect(withoutStash(roundTrip(structuredClone(v2)).object)).toStrictEqual(withoutStash(v2));
    });

    it.each([
      ['value: null', { value: null }],
      ['value: "x"', { value: 'x' }],
      ['value: []', { value: [] }],
      ['valueFrom: {}', { valueFrom: {} }],
      ['valueFrom.machineClass: "x"', { valueFrom: { machineClass: 'x' } }],
    ])(
      'a v1alpha1 Cluster whose providerSpec has %s (no reference made) comes back with no stash',
      (_, providerSpec) => {
        const v1: JsonObject = {
          apiVersion: V1ALPHA1,
          kind: 'Cluster',
          metadata: { name: 'c', namespace: 'ns' },
          spec: { clusterNetwork: { services: { cidrBlocks: [] }, pods: { cidrBlocks: [] } }, providerSpec },
        };
        const v2 = convertObject(structuredClone(v1), V1ALPHA2, { plugins: [awsConversionPlugin] });
        if (E.isLeft(v2)) throw new Error(JSON.stringify(v2.left));
        expect((v2.right.object.spec as JsonObject).infrastructureRef).toBeUndefined();
        const value = (providerSpec as JsonObject).value;
        if (value !== undefined && value !== null)
          expect(v2.right.reports[0]!.warnings).toContain(
            `spec.providerSpec.value is ${Array.isArray(value) ? 'a list' : 'a string'}, not an object: spec.infrastructureRef left unset`,
          );
        const back = convertObject(v2.right.object, V1ALPHA1);
        if (E.isLeft(back)) throw new Error(JSON.stringify(back.left));
        expect(back.right.object).toStrictEqual(v1);
      },
    );
  });

  it('a corrupt annotation is an error naming it', () => {
    const v2 = up();
    ((v2.metadata as JsonObject).annotations as JsonObject)[CONVERSION_DATA_ANNOTATION] = '{not json';
    expect(convertObject(v2, V1ALPHA1)).toEqual(
      E.left({
        objectKind: 'Machine',
        name: 'm',
        code: 'stash-malformed',
        path: `metadata.annotations[${JSON.stringify(CONVERSION_DATA_ANNOTATION)}]`,
        message: 'is not JSON',
      }),
    );
  });

  it('a stash for the wrong direction is refused', () => {
    const v2 = up();
    const v1 = structuredClone(machine) as JsonObject;
    (v1.metadata as JsonObject).annotations = (v2.metadata as JsonObject).annotations!;
    const result = convertObject(v1, V1ALPHA2, { plugins: [awsConversionPlugin] });
    expect(E.isLeft(result) && result.left.message).toBe(
      'the conversion-data annotation restores cluster.k8s.io/v1alpha1, but this object converts to cluster.x-k8s.io/v1alpha2',
    );
  });
});
