import fc from 'fast-check';
import * as E from 'fp-ts/lib/Either.js';
import { describe, expect, it } from 'vitest';
import { compiledGuard, decodeWith, defaultRegistry, strict } from '../../../src/index.js';
import { type KindOracle, type RefinementRule, refinementsCovering } from './crd-oracle.js';
import { type Case, cases, type MutationKind, mutationKinds } from './mutations.js';

// The CRD-fidelity check shared by the test files of every version (see crd-fidelity.test.ts).

export const RUNS = Number(process.env.FIDELITY_RUNS ?? 10_000);
interface Tally {
  readonly verdicts: Record<MutationKind, { accepted: number; rejected: number }>;
  readonly divergences: Map<RefinementRule, number>;
}

function newTally(): Tally {
  const verdicts = Object.fromEntries(
    mutationKinds.map((k) => [k, { accepted: 0, rejected: 0 }]),
  ) as Tally['verdicts'];
  return { verdicts, divergences: new Map() };
}

function checkCase(oracle: KindOracle, c: Case, tally: Tally): void {
  const codec = defaultRegistry.lookup(oracle.apiVersion, oracle.kind)!;
  const lenient = decodeWith(codec, c.value);
  const strictResult = decodeWith(codec, c.value, { strict: true });
  const verdicts = {
    codec: E.isRight(lenient),
    codecStrict: E.isRight(strictResult),
    reference: oracle.reference(c.value),
    referenceClosed: oracle.referenceClosed(c.value),
    crd: oracle.crd(c.value),
    crdClosed: oracle.crdClosed(c.value),
  };
  const describe = () =>
    JSON.stringify({
      mutation: c.kind,
      path: c.path,
      verdicts,
      errors: E.isLeft(lenient) ? lenient.left : [],
      value: c.value,
    });
  expect(verdicts.codec, describe()).toBe(verdicts.reference);
  expect(verdicts.codecStrict, describe()).toBe(verdicts.referenceClosed);
  expect(codec.is(c.value), describe()).toBe(verdicts.codec);
  expect(strict(codec).is(c.value), describe()).toBe(verdicts.codecStrict);
  expect(compiledGuard(codec)(c.value), describe()).toBe(verdicts.codec);
  expect(compiledGuard(strict(codec))(c.value), describe()).toBe(verdicts.codecStrict);
  if (verdicts.crd !== verdicts.reference) {
    const rules = refinementsCovering(oracle, c.path).filter((r) => r.rule !== 'strict-unknown');
    expect(rules.length, `undocumented lenient disagreement with the CRD: ${describe()}`).toBeGreaterThan(0);
    const rule = rules[0]!.rule;
    tally.divergences.set(rule, (tally.divergences.get(rule) ?? 0) + 1);
  }
  if (verdicts.crdClosed !== verdicts.referenceClosed) {
    const rules = refinementsCovering(oracle, c.path);
    expect(rules.length, `undocumented strict disagreement with the CRD: ${describe()}`).toBeGreaterThan(0);
    if (verdicts.crd === verdicts.reference) {
      const rule = rules[0]!.rule;
      tally.divergences.set(rule, (tally.divergences.get(rule) ?? 0) + 1);
    }
  }
  if (c.kind === 'none') {
    expect(
      verdicts.crd && verdicts.reference && verdicts.codec,
      `a generated object is invalid: ${describe()}`,
    ).toBe(true);
  }
  if (E.isRight(lenient)) expect(lenient.right).toBe(c.value);
  const bucket = tally.verdicts[c.kind];
  if (verdicts.codec) bucket.accepted += 1;
  else bucket.rejected += 1;
}

/**
 * One test per oracle: its codec against the CRD on RUNS cases generated from
 * `arbitraries[version/kind]`.
 */
export function describeFidelity(
  oracles: readonly KindOracle[],
  arbitraries: Readonly<Record<string, fc.Arbitrary<Record<string, unknown>>>>,
): void {
  describe.each(oracles.map((o) => [`${o.version} ${o.kind}`, o] as const))(
    'CRD fidelity: %s',
    (_label, oracle) => {
      // Generous: ~1 min per 10,000 cases on a loaded machine; no assertion is about time.
      it(`agrees with the CRD schema on ${RUNS} generated cases`, { timeout: 1_800_000 }, () => {
        const arbitrary = arbitraries[`${oracle.version}/${oracle.kind}`];
        expect(arbitrary, 'an arbitrary for every CRD kind').toBeDefined();
        const tally = newTally();
        fc.assert(
          fc.property(cases(arbitrary!), (c) => checkCase(oracle, c, tally)),
          { numRuns: RUNS },
        );
        // The generated cases reach both verdicts for every kind of mutation that can fail.
        for (const kind of ['delete', 'wrong-type', 'extra-field'] as const) {
          expect(tally.verdicts[kind].accepted + tally.verdicts[kind].rejected, kind).toBeGreaterThan(
            RUNS / 20,
          );
        }
        expect(tally.verdicts.none.rejected).toBe(0);
        expect(tally.verdicts['wrong-type'].rejected).toBeGreaterThan(0);
        console.info(
          `${oracle.version} ${oracle.kind}: ${JSON.stringify(tally.verdicts)} divergences ${JSON.stringify(Object.fromEntries(tally.divergences))}`,
        );
      });
    },
  );
}
