import fc from 'fast-check';
import * as E from 'fp-ts/lib/Either.js';
import { describe, expect, it } from 'vitest';
// The real provider plug-ins, by path (see roundtrip.property.test.ts).
import { awsConversionPlugin } from '../../providers-aws/src/conversion/index.js';
import { vsphereConversionPlugin } from '../../providers-vsphere/src/conversion/index.js';
import { type ConvertOptions, convertKind } from '../src/convert.js';
import type { JsonObject } from '../src/path.js';
import type { ConvertibleKind, Direction } from '../src/versions.js';
import { v1alpha1, v1alpha2 } from './support/arbitraries.js';
import { containers, deepFreeze } from './support/frozen.js';
import { referenceConvertKind } from './support/reference-convert.js';

// The conversion builds its result copy-on-write and diffs only what the rows touched
// (issue #16). This proves it byte-identical to the algorithm it replaced (a full copy, the
// conversion back and a whole-object diff; kept in support/reference-convert.ts) on 10,000
// generated objects per kind and direction, plus 10,000 more per kind and direction that
// carry a stash (the result of the opposite conversion, sometimes edited since): same
// object, same generated objects, same report, same refusal; the input is never written
// (it is frozen) and the result shares no object with it.

const options: ConvertOptions = {
  plugins: [awsConversionPlugin, vsphereConversionPlugin],
  resolveMachineClass: (ref) =>
    E.right({
      providerSpec: {
        apiVersion: 'awsprovider/v1alpha1',
        kind: 'AWSMachineProviderSpec',
        instanceType: 'm5.large',
      },
      source: `MachineClass ${String(ref.name)} providerSpec`,
    }),
};
const RUNS = 10_000;
const kinds = ['Cluster', 'Machine', 'MachineSet', 'MachineDeployment'] as const;

const plain = (value: unknown): JsonObject => JSON.parse(JSON.stringify(value));

/** Converts with both algorithms and expects the same bytes; returns the fast result's object. */
function same(input: JsonObject, kind: ConvertibleKind, direction: Direction): JsonObject | undefined {
  const expected = JSON.stringify(referenceConvertKind(structuredClone(input), kind, direction, options));
  const frozen = deepFreeze(structuredClone(input));
  const result = convertKind(frozen, kind, direction, options);
  expect(JSON.stringify(result)).toBe(expected);
  if (E.isLeft(result)) return undefined;
  const shared = containers(frozen);
  for (const c of containers(result.right.object)) expect(shared.has(c)).toBe(false);
  return result.right.object;
}

/** Edits a converted object the way a user or controller might before it converts back. */
const edit = fc.constantFrom<(o: JsonObject) => void>(
  () => {},
  (o) => {
    const meta = o.metadata as Record<string, unknown> | undefined;
    if (meta !== undefined) meta.labels = { edited: 'yes' };
  },
  (o) => {
    const spec = o.spec as Record<string, unknown> | undefined;
    if (spec !== undefined) spec.version = 'v1.99.0';
    const template = spec?.template as { spec?: Record<string, unknown> } | undefined;
    if (template?.spec !== undefined) template.spec.version = 'v1.99.0';
  },
  (o) => {
    delete o.status;
    const spec = o.spec as Record<string, unknown> | undefined;
    if (spec !== undefined) spec.providerSpec = { value: { edited: true } };
  },
);

describe('the copy-on-write conversion is byte-identical to the full-copy-and-diff one', () => {
  for (const kind of kinds) {
    it(`${kind}: v1alpha1 → v1alpha2, then back with its stash`, () => {
      fc.assert(
        fc.property(v1alpha1[kind].map(plain), edit, (original, change) => {
          const up = same(original, kind, 'up');
          if (up === undefined) return;
          const edited = structuredClone(up);
          change(edited);
          same(edited, kind, 'down');
        }),
        { numRuns: RUNS },
      );
    }, 600_000);

    it(`${kind}: v1alpha2 → v1alpha1, then back with its stash`, () => {
      fc.assert(
        fc.property(v1alpha2[kind].map(plain), edit, (original, change) => {
          const down = same(original, kind, 'down');
          if (down === undefined) return;
          const edited = structuredClone(down);
          change(edited);
          same(edited, kind, 'up');
        }),
        { numRuns: RUNS },
      );
    }, 600_000);
  }
});
