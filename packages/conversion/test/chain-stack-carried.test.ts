import * as E from 'fp-ts/lib/Either.js';
import { describe, expect, it } from 'vitest';
import { convertTo } from '../src/chain/convert.js';
import { V1ALPHA3, V1ALPHA4, V1BETA1, V1BETA2 } from '../src/chain/versions.js';
import {
  CONVERSION_DATA_ANNOTATION,
  convertObject,
  type Json,
  type JsonObject,
  V1ALPHA1,
  V1ALPHA2,
} from '../src/index.js';

// A stack carries, past each hop, the stashes that are not the hop's (chain/stack.ts). Each
// hop checks the stash it applies; the others were checked only for being objects with a
// `restores` string and a `patch` list, and the stack joined at the end only for its size.
// So a stash restoring no version of the chain (never applied by anything), or one with a
// malformed patch, a deep value or an unknown `created` marker, rode through every
// conversion and came back in its result, to be refused, if ever, by whatever hop reached it
// later. Each stash carried on is now read as a stash and must restore a version of the
// chain; one that is not is refused (`stash-malformed`, or `stash-too-deep`), naming its place.

const STASH_PATH = `metadata.annotations["${CONVERSION_DATA_ANNOTATION}"]`;

const on = (object: JsonObject, stack: JsonObject): JsonObject => ({
  ...object,
  metadata: {
    ...(object.metadata as JsonObject),
    annotations: { [CONVERSION_DATA_ANNOTATION]: JSON.stringify(stack) },
  },
});

const v1alpha4Machine: JsonObject = {
  apiVersion: V1ALPHA4,
  kind: 'Machine',
  metadata: { name: 'm', namespace: 'ns' },
  spec: { clusterName: 'c' },
};

/** A stash the v1alpha4 → v1alpha3 hop would apply, harmless. */
const forV1alpha3 = { restores: V1ALPHA3, patch: [{ p: ['spec', 'failureDomain'], v: 'a' }] };
/** A stash no hop of v1alpha4 → v1beta2 applies: carried. */
const carried = { restores: V1ALPHA3, patch: [{ p: ['spec', 'x'], v: 'y' }] };

function deep(levels: number): Json {
  let value: Json = 'leaf';
  for (let i = 0; i < levels; i++) value = { d: value };
  return value;
}

describe('every stash a stack carries past a hop is a stash of the chain', () => {
  it.each([
    [
      'restoring no version of the chain, on top',
      { restores: 'example.com/v1', patch: [] },
      /^has a stash restoring "example.com\/v1", no version of the chain \(stash 1 of the stack\)$/,
    ],
    [
      'restoring no version of the chain, under a carried one',
      { ...carried, below: { restores: 'cluster.x-k8s.io/v9', patch: [] } },
      /^has a stash restoring "cluster.x-k8s.io\/v9", no version of the chain \(stash 2 of the stack\)$/,
    ],
    [
      'with a patch entry without a path',
      { ...carried, below: { restores: V1ALPHA2, patch: [{ v: 1 }] } },
      /^has a stash that has a patch entry without a path \(stash 2 of the stack\)$/,
    ],
    [
      'listing a field twice',
      {
        ...carried,
        below: {
          restores: V1ALPHA2,
          patch: [
            { p: ['spec', 'a'], v: 1 },
            { p: ['spec', 'a'], v: 2 },
          ],
        },
      },
      /^has a stash that lists spec\.a twice \(stash 2 of the stack\)$/,
    ],
    [
      'with an unknown created marker',
      { ...carried, below: { restores: V1ALPHA2, patch: [], created: 'everything' } },
      /^has a stash that has an unknown "created" marker \(stash 2 of the stack\)$/,
    ],
    [
      'with a malformed generated list',
      { ...carried, below: { restores: V1ALPHA2, patch: [], generated: {} } },
      /^has a stash that has a malformed "generated" list \(stash 2 of the stack\)$/,
    ],
  ])('refuses one %s (v1alpha4 → v1beta2)', (_what, stack, message) => {
    expect(convertTo(on(v1alpha4Machine, stack), V1BETA2)).toMatchObject({
      _tag: 'Left',
      left: { code: 'stash-malformed', path: STASH_PATH, message: expect.stringMatching(message) },
    });
  });

  it('refuses one under the stash the hop applies (v1alpha4 → v1alpha3)', () => {
    const stack = { ...forV1alpha3, below: { restores: 'example.com/v1', patch: [] } };
    expect(convertTo(on(v1alpha4Machine, stack), V1ALPHA3)).toMatchObject({
      _tag: 'Left',
      left: { code: 'stash-malformed', message: expect.stringContaining('(stash 2 of the stack)') },
    });
  });

  it('refuses one nesting deeper than a stash may, under the stash the hop applies', () => {
    const stack = {
      ...forV1alpha3,
      below: { restores: V1ALPHA2, patch: [{ p: ['spec', 'x'], v: deep(99) }] },
    };
    expect(convertTo(on(v1alpha4Machine, stack), V1ALPHA3)).toMatchObject({
      _tag: 'Left',
      left: { code: 'stash-too-deep', message: expect.stringContaining('(stash 2 of the stack)') },
    });
  });

  it('refuses one carried by convertObject (v1alpha2 → v1alpha1)', () => {
    const v1alpha2Machine: JsonObject = {
      apiVersion: V1ALPHA2,
      kind: 'Machine',
      metadata: { name: 'm', namespace: 'ns' },
      spec: {},
    };
    const stack = { restores: V1ALPHA1, patch: [], below: { restores: 'example.com/v1', patch: [] } };
    const result = convertObject(on(v1alpha2Machine, stack), V1ALPHA1);
    expect(E.isLeft(result) && result.left).toMatchObject({
      code: 'stash-malformed',
      message: expect.stringContaining('(stash 2 of the stack)'),
    });
  });

  it('carries a well-formed stack, unchanged, through every hop and back', () => {
    const stack = { ...carried, below: { restores: V1ALPHA2, patch: [{ p: ['spec', 'z'], v: 1 }] } };
    const object = on(v1alpha4Machine, stack);
    const up = convertTo(structuredClone(object), V1BETA2);
    if (E.isLeft(up)) throw new Error(JSON.stringify(up.left));
    const down = convertTo(up.right.object, V1BETA1);
    if (E.isLeft(down)) throw new Error(JSON.stringify(down.left));
    const back = convertTo(down.right.object, V1ALPHA4);
    if (E.isLeft(back)) throw new Error(JSON.stringify(back.left));
    expect(back.right.object).toStrictEqual(object);
  });
});
