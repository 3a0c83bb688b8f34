import fc from 'fast-check';
import { isLeft, isRight } from 'fp-ts/lib/Either.js';
import { describe, expect, it } from 'vitest';
import {
  isInvisibleCodePoint,
  MESSAGE_TEXT_LIMIT,
  quoteInput,
  textCharFaultAt,
  tokenCharFaultAt,
} from '../src/characters.js';
import {
  createProviderIDIndex,
  formatProviderID,
  parseProviderID,
  providerIDRegistry,
  sameInstance,
} from '../src/index.js';

// What a message may never hold: a C0 or C1 control, DEL, or a character characters.ts
// refuses (non-ASCII white space, format and invisible characters, unpaired surrogates).
const unsafeAt = (text: string) => {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x20 || (c >= 0x7f && c <= 0x9f)) return i;
  }
  return textCharFaultAt(text);
};

// Hostile characters, one of each kind refused (a lone surrogate of each half, a tag
// character outside the BMP), and ones that stay allowed.
const HOSTILE = [
  '\u0000',
  '\n',
  '\r',
  '\u001b',
  '\u007f',
  '\u0085',
  '\u009b',
  '\u00a0',
  '\u00ad',
  '\u061c',
  '\u180e',
  '\u200b',
  '\u200d',
  '\u200e',
  '\u2028',
  '\u2029',
  '\u202e',
  '\u2066',
  '\u2069',
  '\u3000',
  '\u3164',
  '\ufe0f',
  '\ufeff',
  '\u{e0001}',
  '\u{e0041}',
  '\ud800',
  '\udfff',
];
const ALLOWED = ['é', 'ü\u0301', '名', '😀', '\u00a1', '\u00ae', 'Ω', 'ß'];

const hostileString = fc
  .array(
    fc.oneof(
      fc.constantFrom(...HOSTILE),
      fc.constantFrom(...ALLOWED),
      fc.constantFrom('/', ':', '//', '://', '.', '..', '"', '\\', ' ', 'aws', 'gce', 'foo', 'i-0123abcd'),
      fc.string({ unit: 'binary', maxLength: 4 }),
    ),
    { maxLength: 16 },
  )
  .map((parts) => parts.join(''));

describe('the refused characters', () => {
  it('are exactly Cf, Default_Ignorable_Code_Point, Zs, Zl and Zp from U+00A0 up', () => {
    const engine = /[\p{Cf}\p{Default_Ignorable_Code_Point}\p{Zs}\p{Zl}\p{Zp}]/u;
    const differ: string[] = [];
    for (let cp = 0xa0; cp <= 0x10ffff; cp++) {
      if (cp >= 0xd800 && cp <= 0xdfff) continue;
      if (isInvisibleCodePoint(cp) !== engine.test(String.fromCodePoint(cp))) differ.push(cp.toString(16));
    }
    expect(differ).toEqual([]);
    for (let cp = 0; cp < 0xa0; cp++) expect(isInvisibleCodePoint(cp)).toBe(false);
  });

  it('are refused in fields and by the generic rule; visible non-ASCII text is not', () => {
    for (const c of HOSTILE) {
      expect(tokenCharFaultAt(`ab${c}cd`), JSON.stringify(c)).toBe(2);
      expect(textCharFaultAt(`a/ ${c}cd`), JSON.stringify(c)).toBe(3);
    }
    for (const c of ALLOWED) {
      expect(tokenCharFaultAt(`ab${c}cd`), c).toBe(-1);
      expect(textCharFaultAt(`a/ ${c}cd`), c).toBe(-1);
    }
    // A surrogate pair is one character; each half alone is refused wherever it is.
    expect(tokenCharFaultAt('\ud83d\ude00')).toBe(-1);
    expect(tokenCharFaultAt('\ude00\ud83d')).toBe(0);
    expect(tokenCharFaultAt('a\ud83d')).toBe(1);
  });
});

describe('quoteInput', () => {
  it('is a JSON string literal of the text, with nothing unsafe in it', () => {
    fc.assert(
      fc.property(hostileString, (s) => {
        fc.pre(s.length <= MESSAGE_TEXT_LIMIT);
        const quoted = quoteInput(s);
        expect(JSON.parse(quoted)).toBe(s);
        expect(unsafeAt(quoted)).toBe(-1);
      }),
      { numRuns: 2000 },
    );
  });

  it('writes controls, format characters and lone surrogates as escapes', () => {
    expect(quoteInput('a\u202eb\n"\\\u{e0001}\ud800é')).toBe('"a\\u202eb\\n\\"\\\\\\udb40\\udc01\\ud800é"');
    expect(quoteInput('aws:///us-east-1a/i-0123')).toBe('"aws:///us-east-1a/i-0123"');
  });

  it('cuts long text around the offset it is given, saying how long the text is', () => {
    const long = `${'a'.repeat(500_000)}\u202e${'b'.repeat(500_000)}`;
    const start = quoteInput(long);
    expect(start).toBe(`"${'a'.repeat(MESSAGE_TEXT_LIMIT)}"… (1000001 characters)`);
    const around = quoteInput(long, 500_000);
    expect(around).toContain('a\\u202eb');
    expect(around.startsWith('…"') && around.endsWith('"… (1000001 characters)')).toBe(true);
    // never half a surrogate pair at a cut
    const emoji = '😀'.repeat(300);
    expect(unsafeAt(quoteInput(emoji))).toBe(-1);
    expect(unsafeAt(quoteInput(`x${emoji}`, 101))).toBe(-1);
  });
});

describe('the generic grammar', () => {
  const generic = (input: string) => parseProviderID(input, { cloud: 'generic' });

  it('refuses C0 controls, DEL, C1 controls and invisible characters, naming scheme or path', () => {
    expect(generic('foo://a\nb')).toMatchObject({
      left: {
        code: 'invalid-field',
        field: 'path',
        message: 'the path contains a control character: U+000A at offset 7 of "foo://a\\nb"',
      },
    });
    expect(generic('\u001b[31mfoo://a')).toMatchObject({ left: { code: 'invalid-field', field: 'scheme' } });
    for (const input of [
      'foo://a\u007f',
      'foo://a\u009b',
      'foo://a\u202eb',
      'foo://\u00a0',
      'foo://a\u200b',
    ]) {
      expect(isLeft(generic(input)), JSON.stringify(input)).toBe(true);
    }
    expect(generic('foo://a\u202eb')).toMatchObject({
      left: {
        message: 'the path contains a bidi control character: U+202E at offset 7 of "foo://a\\u202eb"',
      },
    });
  });

  it('keeps what Cluster API accepts otherwise: spaces, visible Unicode, "." and ".." segments', () => {
    for (const input of ['foo://a b', 'foo://名前/é', 'foo://x/..', 'foo://../.', 'foo://a/../b']) {
      expect(isRight(generic(input)), input).toBe(true);
    }
    expect(isRight(generic('foo://x/..')) && generic('foo://x/..')).toMatchObject({
      right: { fields: { id: '..' } },
    });
    // Segments are compared as written, never resolved: a/../b is not b.
    expect(sameInstance('foo://a/../b', 'foo://b', { cloud: 'generic' }).match).toBe(false);
    expect(sameInstance('foo://a/../b', 'foo:///a/../b', { cloud: 'generic' }).match).toBe(true);
  });

  it('says, for an unknown scheme with such a character, that the generic grammar refuses it too', () => {
    const r = parseProviderID('foo://a\u001b[2Jb');
    expect(isLeft(r) && r.left.code).toBe('unknown-scheme');
    expect(isLeft(r) && r.left.message).toContain('does not fit the generic grammar either');
    expect(isLeft(r) && unsafeAt(r.left.message)).toBe(-1);
  });
});

describe('messages never echo raw input', () => {
  const clouds = [undefined, ...providerIDRegistry.clouds()];

  it('parse errors, for every cloud, are escaped and of bounded length', () => {
    fc.assert(
      fc.property(hostileString, fc.constantFrom(...clouds), (s, cloud) => {
        const r = parseProviderID(s, cloud === undefined ? {} : { cloud });
        if (isRight(r)) return;
        expect(unsafeAt(r.left.message)).toBe(-1);
        expect(r.left.message.length).toBeLessThan(3000);
      }),
      { numRuns: 3000 },
    );
  });

  it('names the field and the offending character in the cloud grammars', () => {
    const r = parseProviderID('aws:///us-east-1a/i-0123\u202e456789abcdef');
    expect(isLeft(r) && r.left).toMatchObject({
      code: 'invalid-field',
      field: 'instanceId',
      message:
        'the instanceId contains a bidi control character: U+202E at offset 6 of "i-0123\\u202e456789abcdef"',
    });
    const kubevirt = parseProviderID('kubevirt://vm\u200b1');
    expect(isLeft(kubevirt) && kubevirt.left.message).toBe(
      'vmName must be a VM name of letters, digits, "-" and "_" (got "vm\\u200b1", with U+200B at offset 2)',
    );
  });

  it('cuts 1 MiB inputs in messages', () => {
    const huge = `gce://p/${'z'.repeat(1 << 20)}\u0085/vm`;
    const r = parseProviderID(huge);
    expect(isLeft(r) && r.left.message.length).toBeLessThan(600);
    expect(isLeft(r) && r.left.message).toContain('\\u0085');
    const unknown = parseProviderID(`${'a'.repeat(1 << 20)}://x`);
    expect(isLeft(unknown) && unknown.left.message.length).toBeLessThan(600);
  });

  it('format errors quote the ID the fields would make', () => {
    const r = formatProviderID('gce', { project: 'p\u202e', zone: 'z', instanceName: 'vm' });
    expect(isLeft(r) && r.left.message).toContain('"gce://p\\u202e/z/vm"');
    expect(isLeft(r) && unsafeAt(r.left.message)).toBe(-1);
  });

  it('sameInstance reasons, for any pair', () => {
    fc.assert(
      fc.property(hostileString, hostileString, (a, b) => {
        const { reason } = sameInstance(a, b);
        expect(unsafeAt(reason)).toBe(-1);
        expect(reason.length).toBeLessThan(6000);
      }),
      { numRuns: 3000 },
    );
    // an invalid ID next to a valid one of the same shape
    const r = sameInstance('docker:////c\u001b[2J', 'docker:///c\u001b[2J');
    expect(unsafeAt(r.reason)).toBe(-1);
    expect(r.reason).toContain('\\u001b[2J');
  });

  it('ProviderIDIndex reasons', () => {
    // Loose AWS identities: the instance by its last token, the zone as qualifier.
    const index = createProviderIDIndex([
      { providerID: 'aws:///z1/x\u202e', item: 'm1' },
      { providerID: 'aws:///z2/x\u202e', item: 'm2' },
      { providerID: 'foo://a/\u001b[2J', item: 'm3' },
    ]);
    const report = index.match([
      { providerID: 'aws:////x\u202e', item: 'n1' },
      { providerID: 'foo:///a/\u001b[2J', item: 'n2' },
      { providerID: 'foo://a//\u001b[2J', item: 'n3' },
    ]);
    expect(report.ambiguous.map((g) => g.reason)).toEqual([
      'node providerID "aws:////x\\u202e" denotes 2 machines',
      'several nodes denote the machine with providerID "foo://a/\\u001b[2J"',
    ]);
  });
});
