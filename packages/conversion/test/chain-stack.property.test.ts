import fc from 'fast-check';
import * as E from 'fp-ts/lib/Either.js';
import { describe, expect, it } from 'vitest';
import { awsConversionPlugin } from '../../providers-aws/src/conversion/index.js';
import { vsphereConversionPlugin } from '../../providers-vsphere/src/conversion/index.js';
import { type ChainOptions, convertAlongChain } from '../src/chain/convert.js';
import { joinStack, splitPending, splitStack } from '../src/chain/stack.js';
import { CHAIN_VERSIONS, type ChainKind, type ChainVersion, kindExistsIn } from '../src/chain/versions.js';
import type { Json, JsonObject } from '../src/path.js';
import { CONVERSION_DATA_ANNOTATION, putStash } from '../src/stash.js';
import { v1alpha1, v1alpha2 } from './support/arbitraries.js';
import { crdObject } from './support/crd-objects.js';
import { referenceConvertAlongChain } from './support/reference-chain.js';

// Between the hops of one conversion, the chain keeps the stash stack as text and reads only
// the top stash per hop (chain/stack.ts, issue #16). This holds that pipeline to the one it
// replaced (every hop parsed the whole stack and serialised it again; kept in
// support/reference-chain.ts): the same object byte for byte, the same generated objects and
// report, or the same refusal, on walks of up to four conversions between random versions,
// each starting from what the last one gave. Then the stacks the fast path hands back to the
// slow one: too deep, too large, too many stashes.

const RUNS = 2_000;
const machineClass = { apiVersion: 'awsprovider/v1alpha1', kind: 'AWSMachineProviderSpec' };
const options: ChainOptions = {
  plugins: [awsConversionPlugin, vsphereConversionPlugin],
  resolveMachineClass: (ref) =>
    E.right({ providerSpec: machineClass, source: `MachineClass ${String(ref.name)}` }),
  referenceApiVersion: (group, kind) => (kind.length % 2 === 0 ? `${group}/v1beta1` : undefined),
};
const plain = (value: unknown): JsonObject => JSON.parse(JSON.stringify(value));

/** One conversion, new pipeline and reference side by side; the new result, when there is one. */
function step(object: JsonObject, kind: ChainKind, to: ChainVersion): JsonObject | undefined {
  const from = object.apiVersion as ChainVersion;
  const actual = convertAlongChain(structuredClone(object), kind, from, to, options);
  const expected = referenceConvertAlongChain(structuredClone(object), kind, from, to, options);
  if (E.isLeft(expected)) {
    expect(actual).toStrictEqual(expected);
    return undefined;
  }
  expect(E.isRight(actual)).toBe(true);
  if (E.isLeft(actual)) return undefined;
  // Byte for byte: key order and the annotation's text included.
  expect(JSON.stringify(actual.right.object)).toBe(JSON.stringify(expected.right.object));
  expect(actual.right.generated).toStrictEqual(expected.right.generated);
  expect(actual.right.report).toStrictEqual(expected.right.report);
  return actual.right.object;
}

function walk(kind: ChainKind, start: JsonObject, targets: readonly ChainVersion[]): void {
  let object: JsonObject | undefined = start;
  for (const to of targets) {
    if (object === undefined || !kindExistsIn(kind, to) || object.apiVersion === to) continue;
    object = step(object, kind, to);
  }
}

const targets = fc.array(fc.constantFrom(...CHAIN_VERSIONS), { minLength: 1, maxLength: 4 });

const starts: readonly [ChainKind, string, fc.Arbitrary<JsonObject>][] = [
  ...(['Cluster', 'Machine', 'MachineSet', 'MachineDeployment'] as const).flatMap(
    (kind): [ChainKind, string, fc.Arbitrary<JsonObject>][] => [
      [kind, 'v1alpha1', v1alpha1[kind].map(plain)],
      [kind, 'v1alpha2', v1alpha2[kind].map(plain)],
    ],
  ),
  ['MachineHealthCheck', 'v1alpha3', crdObject('v1alpha3', 'MachineHealthCheck') as fc.Arbitrary<JsonObject>],
];

describe('the stack kept as text between hops gives what parsing it at every hop gave', () => {
  for (const [kind, version, arbitrary] of starts) {
    it(`${kind} from ${version}, walks of 1-4 conversions`, () => {
      fc.assert(
        fc.property(arbitrary, targets, (start, to) => walk(kind, start, to)),
        { numRuns: RUNS },
      );
    }, 600_000);
  }
});

/** A v1alpha1 AWS Machine whose providerSpec carries `extra` (stashed whole going up). */
function machineWith(extra: Json): JsonObject {
  return {
    apiVersion: 'cluster.k8s.io/v1alpha1',
    kind: 'Machine',
    metadata: { name: 'm', namespace: 'ns' },
    spec: {
      versions: { kubelet: 'v1.16.3' },
      providerSpec: {
        value: { apiVersion: 'awsprovider/v1alpha1', kind: 'AWSMachineProviderSpec', extra },
      },
    },
  };
}

function nested(levels: number): Json {
  let value: Json = 'leaf';
  for (let i = 0; i < levels; i++) value = { deeper: value };
  return value;
}

describe('stacks the fast path leaves to the full split give the same result or refusal', () => {
  const up: readonly ChainVersion[] = ['cluster.x-k8s.io/v1beta2', 'cluster.k8s.io/v1alpha1'];
  it('more than 100 brackets in the joined stack (the depth check may trip)', () => {
    for (const levels of [40, 80, 92, 96, 97, 98, 99, 120]) walk('Machine', machineWith(nested(levels)), up);
  });
  it('a joined stack too large to count its bytes by its length', () => {
    for (const size of [40_000, 90_000, 130_000]) walk('Machine', machineWith('x'.repeat(size)), up);
  });
  it('more stashes than a stack may hold', () => {
    for (const foreign of [12, 13, 14, 15, 16]) {
      let stack: JsonObject | undefined;
      for (let i = 0; i < foreign; i++) {
        stack = {
          restores: 'cluster.k8s.io/v1alpha1',
          patch: [],
          ...(stack === undefined ? {} : { below: stack }),
        };
      }
      const start = plain({
        apiVersion: 'cluster.x-k8s.io/v1alpha2',
        kind: 'Cluster',
        metadata: { name: 'c', annotations: { [CONVERSION_DATA_ANNOTATION]: JSON.stringify(stack) } },
        spec: {},
      });
      walk('Cluster', start, ['cluster.x-k8s.io/v1beta2', 'cluster.x-k8s.io/v1alpha2']);
    }
  });
});

// The claim itself, on stacks no walk of hops reaches easily: for the object a hop made (its
// own stash on top, or none) and what the split before it buried, `splitPending` answers what
// `splitStack(joinStack(…))` answers. Stacks of 0-17 stashes, values nested up to 101 deep
// (the depth check's edge), stashes past the annotation size limit, `created` markers.
describe('splitPending is splitStack of the joined object', () => {
  // Three chain versions and one that is none: a hop may look under stashes for the way back
  // the other way (`layerFor`), which only chain versions are.
  const VERSIONS = [
    'cluster.x-k8s.io/v1alpha3',
    'cluster.x-k8s.io/v1alpha4',
    'cluster.x-k8s.io/v1beta1',
    'v/a',
  ] as const;
  // Mostly small values, so that long stacks stay under the limits and reach MAX_STACK.
  const stashValue = fc.oneof(
    { weight: 12, arbitrary: fc.constant<Json>('plain') },
    { weight: 1, arbitrary: fc.integer({ min: 90, max: 101 }).map((levels) => nested(levels)) },
    { weight: 1, arbitrary: fc.constantFrom(10_000, 100_000, 140_000).map((size) => 'x'.repeat(size)) },
  );
  const stash = fc.record({
    restores: fc.constantFrom(...VERSIONS),
    value: stashValue,
    created: fc.constantFrom(undefined, 'metadata', 'annotations'),
  });
  const stackText = (stashes: readonly { restores: string; value: unknown; created?: string }[]) => {
    let stack: Record<string, unknown> | undefined;
    for (const s of stashes) {
      stack = {
        restores: s.restores,
        patch: [{ p: ['spec', 'x'], v: s.value }],
        ...(s.created === undefined ? {} : { created: s.created }),
        ...(stack === undefined ? {} : { below: stack }),
      };
    }
    return JSON.stringify(stack);
  };
  const metadata = fc.constantFrom<JsonObject | undefined>(
    undefined,
    { name: 'o' },
    { name: 'o', annotations: {} },
    { name: 'o', annotations: { keep: 'me' } },
  );
  it('same object, same buried stack, same refusal', () => {
    fc.assert(
      fc.property(
        fc
          .oneof(fc.integer({ min: 1, max: 4 }), fc.integer({ min: 14, max: 17 }))
          .chain((length) => fc.array(stash, { minLength: length, maxLength: length })),
        fc.constantFrom(...VERSIONS),
        metadata,
        fc.option(stash, { nil: undefined }),
        fc.constantFrom(...VERSIONS),
        fc.option(metadata, { nil: undefined }),
        fc.constantFrom(...CHAIN_VERSIONS),
        fc.constantFrom(...CHAIN_VERSIONS),
        (stashes, firstTarget, meta, own, target, madeMeta, firstFrom, from) => {
          const before: JsonObject = { kind: 'K', ...(meta === undefined ? {} : { metadata: meta }) };
          const withStack = withAnnotationText(before, stackText(stashes));
          const first = splitStack(withStack, firstFrom, firstTarget);
          if (E.isLeft(first)) return;
          const made: JsonObject = structuredClone(first.right.object);
          // A hop may change what metadata and annotations its result has (moves, pruning).
          if (madeMeta !== undefined) made.metadata = structuredClone(madeMeta);
          if (madeMeta === undefined && meta === undefined) delete made.metadata;
          if (own !== undefined) {
            delete (made.metadata as JsonObject | undefined)?.annotations;
            putStash(made, {
              restores: own.restores,
              entries: [{ path: ['spec', 'y'], value: own.value }],
            });
          }
          const pending = first.right.buried;
          const actual = splitPending(made, pending, from, target);
          const expected = splitStack(joinStack(made, pending), from, target);
          if (E.isLeft(expected)) {
            expect(actual).toStrictEqual(expected);
            return;
          }
          expect(E.isRight(actual)).toBe(true);
          if (E.isLeft(actual)) return;
          expect(JSON.stringify(actual.right.object)).toBe(JSON.stringify(expected.right.object));
          const [a, b] = [actual.right.buried, expected.right.buried];
          expect([a.text, a.depth, a.brackets]).toStrictEqual([b.text, b.depth, b.brackets]);
          // What it knows about the stack's top, it knows right; and each stash's version.
          if (a.restores !== undefined) {
            const top = JSON.parse(a.text!) as JsonObject;
            expect([a.restores, a.created]).toStrictEqual([top.restores, top.created]);
          }
          const layers: unknown[] = [];
          for (
            let s = a.text === undefined ? undefined : (JSON.parse(a.text) as JsonObject);
            s !== undefined;
          ) {
            layers.push(s.restores);
            s = s.below as JsonObject | undefined;
          }
          expect(a.layers).toStrictEqual(layers);
        },
      ),
      { numRuns: 3_000 },
    );
  }, 600_000);
});

function withAnnotationText(object: JsonObject, text: string): JsonObject {
  const metadata = (object.metadata ?? {}) as JsonObject;
  return {
    ...object,
    metadata: {
      ...metadata,
      annotations: { ...((metadata.annotations as JsonObject) ?? {}), [CONVERSION_DATA_ANNOTATION]: text },
    },
  };
}
