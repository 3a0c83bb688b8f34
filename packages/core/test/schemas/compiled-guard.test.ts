import fc from 'fast-check';
import type * as t from 'io-ts';
import { describe, expect, it } from 'vitest';
import { arrayOf, guardSource, mapOf, nullable, string, struct } from '../../src/api/schema/index.js';
import { compiledGuard, decodeWith, defaultRegistry, strict } from '../../src/index.js';
import { codecArbitrary } from './support/codec-arbitrary.js';
import { type Case, cases } from './support/mutations.js';

// The compiled guards (src/api/schema/compile.ts) against io-ts: for every registered kind,
// lenient and strict, the compiled verdict equals the codec's own `is` and whether io-ts's
// `validate` succeeds, on 10,000 cases per kind generated from the codec tree itself (valid
// values and single mutations of them), so kinds added later are covered without a new
// arbitrary. The CRD-fidelity test checks the same on its corpus of hand-written objects.

const RUNS = Number(process.env.FIDELITY_RUNS ?? 10_000);

/**
 * Checks the compiled guards of `codec` and of its strict twin against io-ts and returns the
 * lenient verdict. For JSON values io-ts's `is` and `validate` agree and so must the guard;
 * for values JSON cannot carry (`exotic`: holes, inherited fields) only `is` is the reference,
 * since it is what decodeWith consulted before the compiled guard replaced it.
 */
function agree(codec: t.Mixed, value: unknown, label: string, exotic = false): boolean {
  const verdicts: boolean[] = [];
  for (const c of [codec, strict(codec)]) {
    const compiled = compiledGuard(c)(value);
    const describe = () => `${label} ${c === codec ? 'lenient' : 'strict'}: ${JSON.stringify(value)}`;
    expect(compiled, describe()).toBe(c.is(value));
    if (!exotic) expect(compiled, describe()).toBe(c.validate(value, [])._tag === 'Right');
    verdicts.push(compiled);
  }
  return verdicts[0]!;
}

describe.each(
  defaultRegistry.kinds().map(([apiVersion, kind]) => [`${apiVersion} ${kind}`, apiVersion, kind]),
)('compiled guard: %s', (label, apiVersion, kind) => {
  const codec = defaultRegistry.lookup(apiVersion, kind)!;

  it(`agrees with io-ts on ${RUNS} cases generated from the codec`, { timeout: 600_000 }, () => {
    const tally = { accepted: 0, rejected: 0 };
    fc.assert(
      fc.property(cases(codecArbitrary(codec) as fc.Arbitrary<Record<string, unknown>>), (c: Case) => {
        const accepted = agree(codec, c.value, label);
        if (accepted) tally.accepted++;
        else tally.rejected++;
        if (c.kind === 'none')
          expect(accepted, `generated value is invalid: ${JSON.stringify(c.value)}`).toBe(true);
      }),
      { numRuns: RUNS },
    );
    expect(tally.accepted).toBeGreaterThan(RUNS / 10);
    expect(tally.rejected).toBeGreaterThan(RUNS / 10);
  });
});

describe('compiled guard edge cases', () => {
  const Leaf = struct(
    'Leaf',
    { name: nullable(mapOf(arrayOf(struct('Item', { n: mapOf(nullable(struct('E', {}, {}))) }, {})))) },
    {},
  );

  it('matches io-ts on values JSON cannot carry (holes, inherited fields, undefined, -0)', () => {
    const inherited = Object.create({ inheritedBad: 1 }) as Record<string, unknown>;
    inherited.own = [];
    const sparse: unknown[] = [];
    sparse[2] = { n: {} };
    const values: unknown[] = [
      { name: null },
      { name: inherited },
      { name: { a: sparse } },
      { name: { a: [undefined] } },
      { name: { a: [{ n: { x: undefined } }] } },
      { name: { a: [{ n: { x: null, y: { extra: 1 } } }] } },
      { name: { a: [{ n: [] }] } },
      { name: [] },
      { name: undefined },
      Object.create(null),
      [],
      null,
      -0,
    ];
    for (const value of values) {
      agree(Leaf, value, 'edge', true);
      // decodeWith answers as before: accepted when `is` accepts, else whatever validate says.
      const before = Leaf.is(value) || Leaf.validate(value, [])._tag === 'Right';
      expect(decodeWith(Leaf, value)._tag === 'Right').toBe(before);
    }
  });

  it('ignores inherited entries of a map of scalars, as io-ts does', () => {
    const Labels = struct('Labels', { labels: mapOf(string) }, {});
    const inherited = Object.create({ bad: 1 }) as Record<string, unknown>;
    inherited.good = 'x';
    const ownBad = Object.create({ good: 'y' }) as Record<string, unknown>;
    ownBad.bad = 1;
    for (const labels of [inherited, ownBad, { a: 'b' }, { a: 1 }, {}])
      agree(Labels, { labels }, 'labels', true);
  });

  it('writes keys that are not identifiers as string literals', () => {
    const Odd = struct(
      'Odd',
      { 'a"b\\c': struct('X', {}, {}) },
      { '__proto__ x': mapOf(struct('Y', {}, {})) },
    );
    expect(guardSource(Odd)).toContain(JSON.stringify('a"b\\c'));
    for (const value of [{ 'a"b\\c': {} }, { 'a"b\\c': 1 }, { 'a"b\\c': {}, '__proto__ x': { k: {} } }, {}]) {
      agree(Odd, value, 'odd keys');
    }
  });
});
