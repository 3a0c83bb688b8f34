import { decode } from '@capi-kit/core';
import fc from 'fast-check';
import * as E from 'fp-ts/lib/Either.js';
import { describe, expect, it } from 'vitest';
// The real provider plug-ins, by path: the provider packages depend on this one, so a
// package dependency back would be a cycle. They turn the generated providerSpecs into
// the references v1alpha2 requires.
import { awsConversionPlugin } from '../../providers-aws/src/conversion/index.js';
import { vsphereConversionPlugin } from '../../providers-vsphere/src/conversion/index.js';
import { type ConvertOptions, convertObject, V1ALPHA1, V1ALPHA2 } from '../src/index.js';
import { listOf, v1alpha1, v1alpha2 } from './support/arbitraries.js';
import { secretStore } from './support/secret-store.js';

// Every MachineClass name resolves to one small AWS class, as a manifest holding it would.
const machineClass = {
  apiVersion: 'awsprovider/v1alpha1',
  kind: 'AWSMachineProviderSpec',
  instanceType: 'm5.large',
};
const secrets = secretStore();
const options: ConvertOptions = {
  plugins: [awsConversionPlugin, vsphereConversionPlugin],
  secretData: secrets.secretData,
  resolveMachineClass: (ref) =>
    E.right({ providerSpec: machineClass, source: `MachineClass ${String(ref.name)} providerSpec` }),
};
const RUNS = 10_000;
const kinds = ['Cluster', 'Machine', 'MachineSet', 'MachineDeployment'] as const;

/** As a parser hands them over: plain objects (fast-check builds null-prototype records). */
const plain = (value: unknown): Record<string, unknown> => JSON.parse(JSON.stringify(value));

/**
 * What a stash may carry back (stash-rules.ts): no bootstrap data, no reference into another
 * namespace. Objects holding those lose them on the way through v1alpha1, with a warning
 * (stash-security.test.ts); the lossless property holds for everything else.
 */
function withinStashRules(object: Record<string, unknown>): Record<string, unknown> {
  const namespace = (object.metadata as { namespace?: string } | undefined)?.namespace;
  const visit = (value: unknown): void => {
    if (typeof value !== 'object' || value === null) return;
    if (Array.isArray(value)) {
      for (const item of value) visit(item);
      return;
    }
    const record = value as Record<string, unknown>;
    for (const [key, child] of Object.entries(record)) {
      if (key === 'bootstrap' && typeof child === 'object' && child !== null) {
        delete (child as Record<string, unknown>).data;
      }
      if (key.endsWith('Ref') && typeof child === 'object' && child !== null) {
        const ref = child as Record<string, unknown>;
        if (ref.namespace !== undefined && ref.namespace !== namespace) delete ref.namespace;
      }
      visit(child);
    }
  };
  visit(object.spec);
  if (Array.isArray(object.items)) for (const item of object.items) withinStashRules(item);
  return object;
}

function decodeError(value: unknown): unknown {
  const decoded = decode(value);
  return E.isLeft(decoded) ? decoded.left : undefined;
}

function convert(value: unknown, to: typeof V1ALPHA1 | typeof V1ALPHA2): Record<string, unknown> {
  const result = convertObject(value, to, options);
  if (E.isLeft(result)) throw new Error(`conversion to ${to} failed: ${JSON.stringify(result.left)}`);
  secrets.keep(result.right.generated);
  return result.right.object;
}

describe('lossless round trip, 10,000 objects per kind and direction; every result decodes', () => {
  for (const kind of kinds) {
    it(`${kind}: v1alpha1 → v1alpha2 → v1alpha1 gives back the input`, () => {
      fc.assert(
        fc.property(v1alpha1[kind].map(plain), (original) => {
          const input = structuredClone(original);
          const up = convert(input, V1ALPHA2);
          expect(up.apiVersion).toBe(V1ALPHA2);
          // Every converted object decodes with the v1alpha2 codecs (lenient: the generators
          // add fields neither version defines, which pass through).
          expect(decodeError(up)).toBeUndefined();
          expect(convert(up, V1ALPHA1)).toStrictEqual(original);
          expect(input).toStrictEqual(original); // the input is never mutated
        }),
        { numRuns: RUNS },
      );
    }, 300_000);

    it(`${kind}: v1alpha2 → v1alpha1 → v1alpha2 gives back the input`, () => {
      fc.assert(
        fc.property(v1alpha2[kind].map(plain).map(withinStashRules), (original) => {
          const input = structuredClone(original);
          const down = convert(input, V1ALPHA1);
          expect(down.apiVersion).toBe(V1ALPHA1);
          expect(decodeError(down)).toBeUndefined();
          expect(convert(down, V1ALPHA2)).toStrictEqual(original);
          expect(input).toStrictEqual(original);
        }),
        { numRuns: RUNS },
      );
    }, 300_000);
  }
});

/**
 * `metadata.annotations` (and, now and then, `labels`) as null, as YAML's `annotations:` with
 * nothing after it reads, and as the API server accepts (Go reads a null map as empty). The
 * converted object decodes with its null maps, as in the property above.
 */
const withNullMaps = ([object, labelsToo]: [Record<string, unknown>, boolean]) => {
  const metadata = object.metadata as Record<string, unknown>;
  metadata.annotations = null;
  if (labelsToo) metadata.labels = null;
  return object;
};

describe('annotations: null (and labels: null) come back null, in place (2,000 objects per kind and direction)', () => {
  for (const kind of kinds) {
    it.each([
      [V1ALPHA1, V1ALPHA2, v1alpha1[kind].map(plain)],
      [V1ALPHA2, V1ALPHA1, v1alpha2[kind].map(plain).map(withinStashRules)],
    ] as const)(
      `${kind}: %s → %s → back`,
      (_, to, arbitrary) => {
        fc.assert(
          fc.property(fc.tuple(arbitrary, fc.boolean()).map(withNullMaps), (original) => {
            const converted = convert(structuredClone(original), to);
            expect(decodeError(converted)).toBeUndefined();
            const back = convert(converted, original.apiVersion as typeof to);
            expect(back).toStrictEqual(original);
            expect(Object.keys(back.metadata as object)).toEqual(Object.keys(original.metadata as object));
          }),
          { numRuns: 2_000 },
        );
      },
      300_000,
    );
  }
});

/**
 * A List as the API server serves it: no two items of one namespace and name. Two such
 * Clusters would both make their credentials Secret (`e-vsphere-credentials`), so the way
 * back would read one Secret for both; a manifest holding them is refused as
 * `duplicate-output` (manifest.ts), and this test's Secret store would keep only the later.
 * A repeated name gets its item's position appended.
 */
function withDistinctNames(list: Record<string, unknown>): Record<string, unknown> {
  const seen = new Set<string>();
  for (const [i, item] of (list.items as Record<string, unknown>[]).entries()) {
    const metadata = item.metadata as { name?: unknown; namespace?: unknown } | undefined;
    if (typeof metadata?.name !== 'string') continue;
    const key = `${String(metadata.namespace ?? '')}/${metadata.name}`;
    if (seen.has(key)) metadata.name = `${metadata.name}-${i}`;
    seen.add(`${String(metadata.namespace ?? '')}/${metadata.name}`);
  }
  return list;
}

describe('Lists convert item by item, losslessly (1,000 Lists of up to 4 items per kind and direction)', () => {
  for (const kind of kinds) {
    it(`${kind}List both ways`, () => {
      fc.assert(
        fc.property(
          listOf(V1ALPHA1, kind, v1alpha1[kind]).map(plain).map(withDistinctNames),
          listOf(V1ALPHA2, kind, v1alpha2[kind]).map(plain).map(withinStashRules).map(withDistinctNames),
          (v1, v2) => {
            const up = convert(v1, V1ALPHA2);
            expect(up.kind).toBe(`${kind}List`);
            expect(convert(up, V1ALPHA1)).toStrictEqual(v1);
            expect(convert(convert(v2, V1ALPHA1), V1ALPHA2)).toStrictEqual(v2);
          },
        ),
        { numRuns: 1_000 },
      );
    }, 300_000);
  }

  it('a List with items: null keeps it null, both ways (it came back as [])', () => {
    for (const kind of kinds) {
      for (const [from, to] of [
        [V1ALPHA1, V1ALPHA2],
        [V1ALPHA2, V1ALPHA1],
      ] as const) {
        const list = { apiVersion: from, kind: `${kind}List`, metadata: {}, items: null };
        expect(convert(list, to)).toStrictEqual({ ...list, apiVersion: to });
      }
    }
  });
});
