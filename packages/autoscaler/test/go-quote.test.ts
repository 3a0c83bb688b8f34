import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { goQuote, goQuoteInt } from '../src/errors.js';

// [string, Go's %q of it, whether some rune of it is unassigned in Go's Unicode 15.0]
const fixture: { cases: [string, string, boolean][] } = JSON.parse(
  readFileSync(new URL('./fixtures/go-quote.json', import.meta.url), 'utf8'),
);

describe("goQuote is Go's %q of a string", () => {
  it('matches Go on every recorded string of assigned code points', () => {
    const assigned = fixture.cases.filter(([, , unassigned]) => !unassigned);
    expect(assigned.length).toBeGreaterThan(1800);
    const differing = assigned.filter(([s, quoted]) => goQuote(s) !== quoted);
    expect(differing).toEqual([]);
  });

  it('matches Go on code points Go leaves unassigned, except those a later Unicode assigned', () => {
    // Node's tables are newer (Unicode 17): a letter added since 15.0 is printed, where Go
    // escapes it. Printable either way; never a control character.
    const unassigned = fixture.cases.filter(([, , u]) => u);
    const differing = unassigned.filter(([s, quoted]) => goQuote(s) !== quoted);
    for (const [s] of differing) expect(goQuote(s)).toBe(`"${s}"`);
    expect(differing.length).toBeLessThan(unassigned.length / 5);
  });

  it('escapes what would drive a terminal', () => {
    expect(goQuote('evil\n\u001b[2J\u009b31m\u007f')).toBe('"evil\\n\\x1b[2J\\u009b31m\\x7f"');
  });
});

describe("goQuoteInt is Go's %q of an int", () => {
  it.each([
    [-1, "'\ufffd'"],
    [0, "'\\x00'"],
    [34, `'"'`],
    [92, "'\\\\'"],
    [0xa0, "'\\u00a0'"],
    [0xad, "'\\u00ad'"],
    [0xd800, "'\ufffd'"],
    [0x110000, "'\ufffd'"],
    [0x2028, "'\\u2028'"],
    [0x1f600, "'\u{1f600}'"],
    [0xe0001, "'\\U000e0001'"],
  ])('%i → %s', (n, quoted) => expect(goQuoteInt(n)).toBe(quoted));
});
