import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { GO_YAML_NUMBER } from '../../src/manifest/go-yaml-number.js';
import { readManifest, writeManifest } from '../../src/manifest/index.js';

// What kubectl's reader makes of plain scalars that look like numbers, recorded from
// go-yaml itself (fixtures/go-yaml-scalars.json). `0X1F`, `-0o17` and `1_0e1_0` were strings
// here and numbers to kubectl; `e7` and `.` were refused here (NaN) and strings to kubectl.
const { scalars } = JSON.parse(
  readFileSync(new URL('./fixtures/go-yaml-scalars.json', import.meta.url), 'utf8'),
) as { scalars: Record<string, { value?: unknown; error?: string }> };

function read(scalar: string) {
  const result = readManifest(`v: ${scalar}\n`);
  return result._tag === 'Left'
    ? { error: result.left.map((e) => e.message).join('; ') }
    : { value: (result.right[0]!.value as { v: unknown }).v };
}

describe('plain scalars read as go-yaml v2 reads them', () => {
  const cases = Object.entries(scalars);
  it(`${cases.length} recorded scalars`, () => {
    for (const [scalar, go] of cases) {
      const ours = read(scalar);
      if (go.error !== undefined) {
        expect(ours, scalar).toHaveProperty('error');
      } else if ('error' in ours) {
        // The refusals go-yaml does not share: integers a JSON number would round, and a
        // float beyond the double range (`1e400`: a string to go-yaml in YAML, an error to
        // kubectl's JSON decoder in JSON).
        expect(ours.error, scalar).toMatch(/2\^53|NaN or infinity/);
      } else {
        // (compared as JSON, what both sides send: the recording has no sign of zero)
        expect(JSON.stringify(ours.value), scalar).toBe(JSON.stringify(go.value));
      }
    }
  });

  it('writes every recorded string so that it reads back as that string', () => {
    for (const [scalar, go] of cases) {
      if (typeof go.value !== 'string') continue;
      const text = writeManifest([{ v: scalar }], 'yaml');
      expect(read(text.slice('v: '.length).trimEnd()), text).toStrictEqual({ value: scalar });
    }
  });
});

describe('scalars with an explicit tag read as go-yaml v2 reads them', () => {
  // (`!!int 111` was read as binary, 1; `!!int 12` refused as NaN; `!!bool abc` became "abc")
  const { scalars: tagged } = JSON.parse(
    readFileSync(new URL('./fixtures/go-yaml-explicit-tags.json', import.meta.url), 'utf8'),
  ) as { scalars: Record<string, { value?: unknown; error?: string }> };
  const cases = Object.entries(tagged);
  it(`${cases.length} recorded scalars`, () => {
    for (const [scalar, go] of cases) {
      const ours = read(scalar);
      if (go.error !== undefined) expect(ours, scalar).toHaveProperty('error');
      else if ('error' in ours) expect(ours.error, scalar).toMatch(/2\^53|NaN or infinity/);
      else expect(JSON.stringify(ours.value), scalar).toBe(JSON.stringify(go.value));
    }
  });
});

describe('near-misses of a number are strings, read in linear time', () => {
  // (`1e` and 4,000 underscores took 9 s: the number pattern tried every split of a run)
  const run = '_'.repeat(100_000);
  it.each([
    `1e${run}z`,
    `0x${run}z`,
    `1${run}z`,
    `-${run}z`,
    `1e${run}+${run}z`,
    `${'1_'.repeat(50_000)}e${'_1'.repeat(50_000)}z`,
  ])('%#', (scalar) => {
    expect(read(scalar)).toStrictEqual({ value: scalar });
    expect(
      read(
        writeManifest([{ v: scalar }], 'yaml')
          .slice('v: '.length)
          .trimEnd(),
      ),
    ).toStrictEqual({
      value: scalar,
    });
  });
});

describe('a number of millions of digits after the point', () => {
  // Go's float syntax for a scalar that starts with `.`: `_` only between two digits. This
  // was the pattern; V8 threw RangeError on its repeated group for `.` and 9 M digits.
  const DOT_FIRST_GRAMMAR = /^\.[0-9](?:_?[0-9])*(?:[eE][-+]?[0-9](?:_?[0-9])*)?$/;

  it('is matched exactly as the grammar says', () => {
    const text = fc.string({ unit: fc.constantFrom('.', '1', '_', 'e', '-', 'x'), maxLength: 10 });
    fc.assert(
      fc.property(text, (value) => {
        fc.pre(value.startsWith('.'));
        expect(GO_YAML_NUMBER.test(value)).toBe(DOT_FIRST_GRAMMAR.test(value));
      }),
      { numRuns: 20_000 },
    );
  });

  it('reads as the float go-yaml makes of it, plain or tagged, and a string of it is written quoted', () => {
    // (it was refused as "nests too deeply", the reader's message for any stack overflow)
    const digits = `.${'1'.repeat(9_000_000)}`;
    expect(read(digits)).toStrictEqual({ value: 0.1111111111111111 });
    expect(read(`!!float ${digits}`)).toStrictEqual({ value: 0.1111111111111111 });
    expect(read(`.${'1_'.repeat(4_000_000)}1`)).toStrictEqual({ value: 0.1111111111111111 });
    expect(writeManifest([{ v: digits }], 'yaml')).toMatch(/^v: "\.111/);
  });
});
