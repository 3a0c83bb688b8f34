import { describe, expect, it } from 'vitest';
import { runMain } from './helpers/capture-io.js';

// Text output quotes the IDs it was given as JSON string literals; JSON.stringify escapes C0
// but leaves DEL and C1 (U+009B is CSI) raw, so the quoted form writes them as \u escapes
// too, as the parse errors' messages quote an ID.
// biome-ignore lint/suspicious/noControlCharactersInRegex: these are what must not appear
const RAW_CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/;

const hostile = 'nosuch://a\u009b31m\u007f\u001b[2J';
const escaped = '"nosuch://a\\u009b31m\\u007f\\u001b[2J"';

describe('providerid text output escapes control characters of the IDs it quotes', () => {
  it('parse: an invalid ID', async () => {
    const r = await runMain(['providerid', 'parse', hostile]);
    expect(r.code).toBe(1);
    expect(r.stdout).not.toMatch(RAW_CONTROL);
    expect(r.stdout).toContain(`invalid  ${escaped}\n`);
  });

  it('match: both IDs, from arguments and from stdin', async () => {
    const args = await runMain(['providerid', 'match', hostile, 'aws:///z/i-0123\u009b']);
    expect(args.code).toBe(0);
    expect(args.stdout).not.toMatch(RAW_CONTROL);
    expect(args.stdout).toContain(`  ${escaped}  "aws:///z/i-0123\\u009b"\n`);

    const stdin = await runMain(['providerid', 'match'], `${hostile}\taws:///z/i-0123\u007f\n`);
    expect(stdin.code).toBe(0);
    expect(stdin.stdout).not.toMatch(RAW_CONTROL);
    expect(stdin.stdout).toContain(`  ${escaped}  "aws:///z/i-0123\\u007f"\n`);
  });

  it('escapes bidi controls, format characters and non-ASCII white space too', async () => {
    // U+202E would reverse the rest of the line; U+200B, U+FEFF, U+00A0 hide; the tag
    // character U+E0041 is invisible and outside the BMP.
    const spoof = 'aws:///z/i-0123\u202e\u200b\ufeff\u00a0\u{e0041}';
    const shown = '"aws:///z/i-0123\\u202e\\u200b\\ufeff\\u00a0\\udb40\\udc41"';
    const parse = await runMain(['providerid', 'parse', spoof]);
    expect(parse.code).toBe(1);
    expect(parse.stdout).toContain(`invalid  aws  ${shown}\n`);
    expect(parse.stdout).not.toMatch(/[\u202e\u200b\ufeff\u00a0]|\u{e0041}/u);
    const match = await runMain(['providerid', 'match', spoof, 'nosuch://a\u2066b']);
    expect(match.stdout).toContain(`  ${shown}  "nosuch://a\\u2066b"\n`);
    expect(match.stdout).not.toMatch(/[\u202e\u200b\ufeff\u00a0\u2066]|\u{e0041}/u);
  });

  it('--json keeps the input as it is (JSON-escaped)', async () => {
    const r = await runMain(['providerid', 'parse', hostile, '--json']);
    expect(JSON.parse(r.stdout).input).toBe(hostile);
  });
});
