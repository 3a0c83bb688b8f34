import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type Fraction, isRfc3339 } from '../../src/api/schema/timestamp.js';

// The timestamp scan against the regular expressions it replaced, on generated strings:
// valid timestamps, one or two single-character edits of them, and arbitrary text.

const date = '\\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\\d|3[01])';
const clock = '([01]\\d|2[0-3]):[0-5]\\d:([0-5]\\d|60)';
const zone = '([Zz]|[+-]([01]\\d|2[0-3]):[0-5]\\d)';
const patterns: Record<Fraction, RegExp> = {
  optional: new RegExp(`^${date}[Tt]${clock}(\\.\\d+)?${zone}$`),
  micro: new RegExp(`^${date}[Tt]${clock}\\.\\d{6}${zone}$`),
};

const alphabet = fc.constantFrom(...'0123456789-:.+TtZz xé\n'.split(''));
const edit = (s: string) =>
  fc
    .tuple(fc.nat({ max: s.length }), fc.constantFrom('replace', 'insert', 'delete'), alphabet)
    .map(([i, op, ch]) => {
      if (op === 'insert') return s.slice(0, i) + ch + s.slice(i);
      if (op === 'delete') return s.slice(0, i) + s.slice(i + 1);
      return s.slice(0, i) + ch + s.slice(i + 1);
    });
const valid = fc.oneof(fc.stringMatching(patterns.optional), fc.stringMatching(patterns.micro));
const candidates = fc.oneof(
  valid,
  valid.chain(edit),
  valid.chain(edit).chain(edit),
  fc.string({ maxLength: 40 }),
);

describe.each(Object.keys(patterns) as Fraction[])('isRfc3339(_, %s)', (fraction) => {
  const pattern = patterns[fraction];

  it('accepts exactly what the regular expression accepts', () => {
    let accepted = 0;
    fc.assert(
      fc.property(candidates, (s) => {
        const expected = pattern.test(s);
        expect(isRfc3339(s, fraction), JSON.stringify(s)).toBe(expected);
        if (expected) accepted++;
      }),
      { numRuns: 20_000 },
    );
    expect(accepted).toBeGreaterThan(1000);
  });

  it('agrees on the boundary values', () => {
    for (const s of [
      '2019-09-06T10:00:00Z',
      '2019-09-06T10:00:60Z',
      '2019-09-06T10:00:61Z',
      '2019-09-06T24:00:00Z',
      '2019-09-06T23:59:59.123456+23:59',
      '2019-09-06T23:59:59.123456-24:00',
      '2019-00-06T10:00:00Z',
      '2019-12-31t10:00:00z',
      '2019-13-01T10:00:00Z',
      '2019-09-00T10:00:00Z',
      '2019-09-32T10:00:00Z',
      '2019-09-06T10:00:00.Z',
      '2019-09-06T10:00:00.000000Z',
      '2019-09-06T10:00:00.00000Z',
      '2019-09-06T10:00:00.0000000Z',
      '2019-09-06T10:00:00Z\n',
      '2019-09-06T10:00:00+02:00x',
      '２019-09-06T10:00:00Z',
    ]) {
      expect(isRfc3339(s, fraction), s).toBe(pattern.test(s));
    }
  });
});
