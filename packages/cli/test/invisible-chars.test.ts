import { parseProviderID } from '@capi-kit/providerid';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { jsonText, printable, printableLines, safeJSON, shortened } from '../src/text.js';
import { runMain } from './helpers/capture-io.js';

// Besides controls, text output escapes what hides or reorders text on a terminal: bidi
// controls (U+202E is the "Trojan Source" trick), other format and default-ignorable
// characters, white space other than U+0020, U+2028/U+2029 and unpaired surrogates.
const RAW_INVISIBLE =
  /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u200b\u2060\ufeff\u180e\u00ad\u00a0\u2000-\u200a\u3000\u1680\u205f\u202f\u2028\u2029]|\p{Cs}|\u{e0041}/u;

describe('printable: bidi, invisible and wide-space characters', () => {
  it.each([
    ['\u202e', '\\u{202E}'],
    ['\u2066', '\\u{2066}'],
    ['\u061c', '\\u{061C}'],
    ['\u200b', '\\u{200B}'],
    ['\ufeff', '\\u{FEFF}'],
    ['\u00ad', '\\u{00AD}'],
    ['\u00a0', '\\u{00A0}'],
    ['\u3000', '\\u{3000}'],
    ['\u2028', '\\u{2028}'],
    ['\u2029', '\\u{2029}'],
    ['\ud800', '\\u{D800}'],
    ['\udc41', '\\u{DC41}'],
    ['\u{e0041}', '\\u{E0041}'],
  ])('%j is written as %s', (c, escaped) => {
    expect(printable(`a${c}b`)).toBe(`a${escaped}b`);
    expect(printable(`a${c}b`)).not.toMatch(RAW_INVISIBLE);
  });

  it('keeps the \\xNN form of controls, visible non-ASCII text and U+0020', () => {
    expect(printable('a\u001b[31m\u007f\u009b\u202eb')).toBe('a\\x1b[31m\\x7f\\x9b\\u{202E}b');
    for (const s of ['é', '日本', '😀', 'a b', 'naïve café 🚀', '']) expect(printable(s)).toBe(s);
    // The low half of a pair is not alone: the pair is kept.
    expect(printable('x\ud83d\ude00y')).toBe('x😀y');
  });

  it('printableLines escapes U+2028 and U+2029 and keeps \\n', () => {
    expect(printableLines('a\u2028b\nc\u2029d')).toBe('a\\u{2028}b\nc\\u{2029}d');
  });

  it('escapes exactly the non-ASCII characters no providerID may hold', () => {
    // The generic grammar refuses controls and @capi-kit/providerid's invisible table.
    const differ: string[] = [];
    for (let cp = 0xa0; cp <= 0x10ffff; cp += cp < 0x20000 || (cp >= 0xe0000 && cp < 0xe1100) ? 1 : 0x3f) {
      if (cp >= 0xd800 && cp <= 0xdfff) continue;
      const c = String.fromCodePoint(cp);
      const refused = parseProviderID(`x://a${c}`, { cloud: 'generic' })._tag === 'Left';
      if (refused !== (printable(c) !== c)) differ.push(cp.toString(16));
    }
    expect(differ).toEqual([]);
  });
});

describe('JSON output escapes the same characters as \\uXXXX', () => {
  const raw = 'a\u202e\u2066\u200b\ufeff\u00a0\u2028\u009b\u007f\ud800\u{e0041}é😀"\\\u001b';

  it('jsonText: the value is unchanged, no raw bidi, invisible or C1 character', () => {
    const text = jsonText({ name: raw, [raw]: [raw] }, 2);
    expect(text).toContain(
      '"a\\u202e\\u2066\\u200b\\ufeff\\u00a0\\u2028\\u009b\\u007f\\ud800\\udb40\\udc41é😀\\"\\\\\\u001b"',
    );
    expect(text).not.toMatch(RAW_INVISIBLE);
    expect(text).not.toMatch(/[\u007f-\u009f]/);
    expect(JSON.parse(text)).toEqual({ name: raw, [raw]: [raw] });
    expect(jsonText({ a: 'plain' })).toBe('{"a":"plain"}');
    // After an escaped backslash such a character is content as any other: values kept.
    const json = JSON.stringify(['\\\u202e', '\\\\\u2028']);
    expect(safeJSON(json)).toBe('["\\\\\\u202e","\\\\\\\\\\u2028"]');
    expect(JSON.parse(safeJSON(json))).toEqual(['\\\u202e', '\\\\\u2028']);
  });
});

describe('providerid output of an ID with U+202E', () => {
  const spoof = 'aws:///us-east-1a/i-0123\u202eabc\u009b';

  it('text: the quoted ID is a JSON literal, escaped as the message quotes it', async () => {
    const r = await runMain(['providerid', 'parse', spoof]);
    expect(r.code).toBe(1);
    expect(r.stdout).not.toMatch(RAW_INVISIBLE);
    expect(r.stdout).toContain('invalid  aws  "aws:///us-east-1a/i-0123\\u202eabc\\u009b"\n');
    expect(r.stdout).toContain(' of "i-0123\\u202eabc\\u009b"');
    // Valid IDs are shown through printable().
    const valid = await runMain(['providerid', 'match', 'aws:///z/i-0123', 'aws:///z/i-0123']);
    expect(valid.stdout).not.toMatch(RAW_INVISIBLE);
  });

  it('--json: \\u202e, and JSON.parse gives the raw ID back', async () => {
    for (const args of [
      ['providerid', 'parse', spoof, '--json'],
      ['providerid', 'match', spoof, 'aws:///z/i-0123', '--json'],
    ]) {
      const r = await runMain(args);
      expect(r.stdout).not.toMatch(RAW_INVISIBLE);
      expect(r.stdout).toContain('i-0123\\u202eabc');
      const value = JSON.parse(r.stdout) as { input?: string; nodeProviderID?: string };
      expect(value.input ?? value.nodeProviderID).toBe(spoof);
    }
  });

  it('match from stdin: a malformed line in --json output', async () => {
    const r = await runMain(['providerid', 'match', '--json'], `a\u202e\u2028b\n`);
    expect(r.stdout).not.toMatch(RAW_INVISIBLE);
    expect(JSON.parse(r.stdout).input).toBe('a\u202e\u2028b');
  });
});

describe('convert JSON output of objects with bidi and invisible characters', () => {
  it('convert -o json: the converted manifest with \\u escapes, the same values', async () => {
    const machine = [
      'apiVersion: cluster.k8s.io/v1alpha1',
      'kind: Machine',
      'metadata:',
      '  name: m',
      '  labels: {note: "a\\u202Eb\\u2066c\\u2028d"}',
      '',
    ].join('\n');
    const r = await runMain(['convert', '-f', '-', '-o', 'json'], machine);
    expect(r.code).toBe(0);
    expect(r.stdout).not.toMatch(RAW_INVISIBLE);
    expect(r.stdout).toContain('"a\\u202eb\\u2066c\\u2028d"');
    expect(JSON.parse(r.stdout).metadata.labels.note).toBe('a\u202eb\u2066c\u2028d');
  });
});

describe('shortened: a long usage text by its first and last code points', () => {
  // The definition, on an array of code points (a lone surrogate is one).
  function reference(text: string): string {
    const points = Array.from(text);
    if (points.length <= 900) return text;
    const left = points.length - 800;
    return `${points.slice(0, 600).join('')}… (${left} characters left out) …${points.slice(-200).join('')}`;
  }

  it('agrees with the definition, and never cuts a surrogate pair', () => {
    const unit = fc.constantFrom('a', 'é', '😀', '\ud800', '\udc00', '\n');
    fc.assert(
      fc.property(fc.array(unit, { minLength: 850, maxLength: 1400 }), (units) => {
        const text = units.join('');
        expect(shortened(text)).toBe(reference(text));
      }),
      { numRuns: 2000 },
    );
  });
});
