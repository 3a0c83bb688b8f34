import fc from 'fast-check';
import * as E from 'fp-ts/lib/Either.js';
import { describe, expect, it } from 'vitest';
import { convertHop, type HopOptions } from '../src/chain/hop.js';
import type { ChainVersion } from '../src/chain/versions.js';
import { TABLE_HOPS } from '../src/index.js';
import type { JsonObject } from '../src/path.js';
import { v1alpha2 } from './support/arbitraries.js';
import { crdObject } from './support/crd-objects.js';
import { containers, deepFreeze } from './support/frozen.js';
import { referenceConvertHop } from './support/reference-hop.js';

// Each hop of the chain builds its result copy-on-write, so its conversion back shares what
// no row touched and the diff skips it (issue #16). This proves the hop byte-identical to
// the algorithm it replaced (a full copy, the conversion back and a whole-object diff; kept
// in support/reference-hop.ts) for every hop, kind and direction: on generated objects, and
// on objects that carry the hop's stash (the result of the opposite conversion, sometimes
// edited since). Same object, same report, same refusal; the input is never written (it is
// frozen) and the result shares no object with it. A reference lookup is given, so going
// down to v1beta1 the table's finish step writes references into the result.

const RUNS = 2_000;
const options: HopOptions = {
  referenceApiVersion: (group, kind) => (kind.length % 2 === 0 ? `${group}/v1beta1` : undefined),
};
const plain = (value: unknown): JsonObject => JSON.parse(JSON.stringify(value));

function objects(version: ChainVersion, kind: string): fc.Arbitrary<JsonObject> {
  if (version === 'cluster.x-k8s.io/v1alpha2') return v1alpha2[kind as keyof typeof v1alpha2].map(plain);
  return crdObject(version.slice('cluster.x-k8s.io/'.length), kind) as fc.Arbitrary<JsonObject>;
}

/** Edits a converted object the way a user or controller might before it converts back. */
const edit = fc.constantFrom<(o: JsonObject) => void>(
  () => {},
  (o) => {
    const meta = o.metadata as Record<string, unknown> | undefined;
    if (meta !== undefined) meta.labels = { edited: 'yes' };
  },
  (o) => {
    delete o.status;
  },
  (o) => {
    const spec = o.spec as Record<string, unknown> | undefined;
    if (spec !== undefined) spec.paused = true;
  },
);

describe('each hop, copy-on-write, is byte-identical to a full copy and a whole-object diff', () => {
  for (const hop of TABLE_HOPS) {
    for (const [kind, table] of Object.entries(hop.tables)) {
      for (const direction of ['up', 'down'] as const) {
        const from = direction === 'up' ? hop.lower : hop.upper;
        const opposite = direction === 'up' ? 'down' : 'up';
        /** Converts with both; expects the same bytes; returns the result's object. */
        const same = (input: JsonObject, d: typeof direction): JsonObject | undefined => {
          const expected = JSON.stringify(
            referenceConvertHop(structuredClone(input), hop, table!, d, options),
          );
          const frozen = deepFreeze(structuredClone(input));
          const result = convertHop(frozen, hop, table!, d, options);
          expect(JSON.stringify(result)).toBe(expected);
          if (E.isLeft(result)) return undefined;
          const shared = containers(frozen);
          for (const c of containers(result.right.object)) expect(shared.has(c)).toBe(false);
          return result.right.object;
        };
        it(`${kind}: ${from}, ${direction}; and back with the stash`, () => {
          fc.assert(
            fc.property(objects(from, kind), edit, (input, change) => {
              const there = same(input, direction);
              if (there === undefined) return;
              change(there);
              same(there, opposite);
            }),
            { numRuns: RUNS },
          );
        }, 300_000);
      }
    }
  }
});
