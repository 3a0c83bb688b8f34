import { convertManifest, V1ALPHA2 } from '@capi-kit/conversion';
import { readManifest, writeManifest } from '@capi-kit/core/manifest';
import { awsConversionPlugin } from '@capi-kit/providers-aws';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { ExitCode } from '../src/exit-codes.js';
import { printable } from '../src/text.js';
import { manifestYaml, yamlQuoted, yamlText } from '../src/yaml-text.js';
import { runMain } from './helpers/capture-io.js';
import { RAW_IN_YAML } from './helpers/raw-in-yaml.js';

// YAML output (get -o yaml through manifestYaml, migrate -o yaml through yamlText) escapes what
// text and JSON output escape: no raw control (tab and LF aside), bidi, invisible or wide-space
// character, the values read back unchanged.
function expectNoRaw(text: string): void {
  expect(text).not.toMatch(RAW_IN_YAML);
  // and, by text.ts's own set, nothing printable() would escape (but tab and LF)
  const kept = text.replace(/[\t\n]/g, ' ');
  expect(printable(kept)).toBe(kept);
}

/** Whether a string of `value` (a key or a value) holds an unpaired surrogate. */
function hasLoneSurrogate(value: unknown): boolean {
  if (typeof value === 'string') return /\p{Cs}/u.test(value);
  if (value === null || typeof value !== 'object') return false;
  return Object.entries(value).some(([k, v]) => hasLoneSurrogate(k) || hasLoneSurrogate(v));
}

/** What the CLI's manifest reader (go-yaml's reading) makes of `text`: one document's value. */
function readBack(text: string): unknown {
  const read = readManifest(text);
  if (read._tag === 'Left') throw new Error(JSON.stringify(read.left));
  expect(read.right).toHaveLength(1);
  return read.right[0]?.value;
}

// Each writer, and what the command wrote before (raw characters and all).
const writers = [
  [
    'manifestYaml (get -o yaml)',
    (v: unknown) => manifestYaml([v]),
    (v: unknown) => writeManifest([v], 'yaml'),
  ],
  ['yamlText (migrate -o yaml)', yamlText, (v: unknown) => stringify(v)],
] as const;

const long = (c: string, at: number) => `${'x'.repeat(at)}${c}${'y'.repeat(40)}`;
const longWords = (c: string, at: number) => `${'word '.repeat(at)}a${c}b ${'more words '.repeat(8)}`;

const cases: [string, Record<string, unknown>][] = [
  ['bidi in a value', { note: 'a\u202eb\u2066c\u2069d', list: ['\u202e', 'plain', '\u200f'] }],
  ['bidi in a map key', { 'ke\u202ey': 'v', nested: { '\u2067': ['x'], 'k\u200b': { 'é\u202e': 1 } } }],
  [
    'bidi in a multi-line string',
    {
      message:
        'first line\u202e\nsecond line, long enough for a block or a fold\n\ttabbed\n  spaced \u200b\n',
      key: { 'multi\u202e\nline key': 'v' },
      blanks: '\n\n\u2066\n\n',
    },
  ],
  [
    'a long string (> 80 characters) with bidi where folding would happen',
    Object.fromEntries(
      [60, 70, 74, 75, 76, 77, 78, 79, 80, 85, 120].flatMap((at) => [
        [`unbroken${at}`, long('\u202e', at)],
        [`words${at}`, longWords('\u202e', Math.floor(at / 5))],
        [`tag${at}`, long('\u{e0041}', at)],
        [`nbsp${at}`, `${'ab '.repeat(at / 3)}\u00a0 \u00a0${'cd '.repeat(20)}`],
      ]),
    ),
  ],
  ['a lone surrogate', { high: 'a\ud800b', low: '\udc41', end: 'x\udbff' }],
  ['U+2028 and U+2029', { ls: 'a\u2028b', ps: 'a\u2029b', both: '\u2028\u2029' }],
  [
    'C1 U+009B, DEL and C0',
    { csi: 'a\u009b31mb', del: '\u007f', esc: '\u001b[2J', nul: 'a\u0000b', nel: 'a\u0085b' },
  ],
  [
    'NBSP and other wide spaces',
    { nbsp: 'a\u00a0b', edges: '\u00a0a\u00a0', wide: 'a\u3000b\u2000c\u205fd' },
  ],
  ['an astral tag character U+E0041', { tag: 'a\u{e0041}b', tags: '\u{e0001}\u{e0041}\u{e007f}' }],
  ['backslashes and quotes next to them', { bs: '\\\u202e', q: '"\u202e"', both: '\'\\"\u2066\\\\' }],
  [
    'a line holding one space, between line feeds (the yaml package writes it \\\\ double-quoted)',
    { m: `\u202e\n \nb${'w '.repeat(30)}`, k: { [`a\n \n\u2066${'w '.repeat(30)}`]: 'v' } },
  ],
  [
    'a key longer than 1024 characters',
    { [`${'k'.repeat(1100)}\u202e`]: 'v', [`\u202e${'k'.repeat(1020)}`]: ['v'] },
  ],
  ['strings holding the token prefix', { capikit0z0n: 'capikit0z\u202e', 'capikit1z1n\u2066': 'x' }],
  [
    // (found in one scan, and short whatever the data holds: a prefix lengthened until
    // absent rescanned the text per character, and made a regex too large to compile)
    'strings holding the token prefixes the writer would try',
    {
      run: Array.from({ length: 2_000 }, (_, k) => `capikit${k}z`).join(' '),
      b: 'x\u202e',
      c: 'capikit0z0n\u2066',
      long: `capikitescaped${'q'.repeat(400_000)}\u202e`,
    },
  ],
];

describe('YAML output escapes bidi, invisible and control characters', () => {
  describe.each(writers)('%s', (_name, write) => {
    it.each(cases)('%s: no raw character, the same values read back', (_case, data) => {
      const text = write(data);
      expectNoRaw(text);
      expect(parse(text)).toEqual(data);
      // The CLI's own reader (as kubectl reads) refuses unpaired surrogates, which no
      // Unicode text holds; everything else it reads back unchanged.
      if (!hasLoneSurrogate(data)) expect(readBack(text)).toEqual(data);
    });

    it('writes such strings double-quoted with \\u and \\U escapes, and nothing else changes', () => {
      const text = write({
        a: 'x\u202ey',
        'k\u2066': 'plain',
        t: 'a\u{e0041}',
        v: 'é 日本 😀',
        c1: 'a\u009b',
      });
      expect(text).toContain('a: "x\\u202ey"\n');
      expect(text).toContain('"k\\u2066": plain\n');
      expect(text).toContain('t: "a\\U000e0041"\n');
      expect(text).toContain('v: é 日本 😀\n');
      expect(text).toContain('c1: "a\\u009b"\n');
    });
  });

  it('strings without such characters are written as before', () => {
    const data = {
      apiVersion: 'v1',
      name: 'é 日本 😀 naïve café 🚀',
      long: 'é '.repeat(60),
      unbroken: `${'x'.repeat(100)}😀${'y'.repeat(20)}`,
      multi: 'line one\n\tline two\n',
      quoted: ['on', '0755', '<<', '2019-01-01', "it's", ' lead', '"'],
      tab: 'a\tb',
      map: { ключ: 'значение', '': null, n: 1.5 },
    };
    expect(manifestYaml([data])).toBe(writeManifest([data], 'yaml'));
    expect(manifestYaml([data, data])).toBe(writeManifest([data, data], 'yaml'));
    expect(yamlText(data)).toBe(stringify(data));
    expect(manifestYaml([data])).toContain('name: é 日本 😀 naïve café 🚀\n');
  });

  it('yamlQuoted: a JSON literal with \\u and \\U escapes, visible non-ASCII kept', () => {
    expect(yamlQuoted('a\u202e\u{e0041}"\\\n\u001b\ud800é😀')).toBe(
      '"a\\u202e\\U000e0041\\"\\\\\\n\\u001b\\ud800é😀"',
    );
  });

  // Strings from an alphabet of YAML's indicators, white space and visible non-ASCII, with
  // or without such characters; long enough to fold at 80 columns.
  const ordinary = [
    'a',
    'b',
    ' ',
    '  ',
    '\n',
    '\t',
    '\\',
    '"',
    "'",
    ':',
    '#',
    '- ',
    '---',
    '%',
    'é',
    '日',
    '😀',
  ];
  const escaped = [
    ...['\u202e', '\u2066', '\u200b', '\ufeff', '\u00ad', '\u00a0', '\u3000', '\u2028', '\u2029'],
    ...['\u0085', '\u009b', '\u007f', '\u001b', '\u0000', '\r', '\ud800', '\udc41', '\u{e0041}'],
  ];
  const textOf = (alphabet: string[]) =>
    fc
      .array(fc.constantFrom(...alphabet), { maxLength: 60 })
      .chain((parts) =>
        fc.constantFrom(parts.join(''), `${parts.join('')}${'w '.repeat(40)}${parts.join('')}`),
      );
  const documentOf = (text: fc.Arbitrary<string>) => {
    const value = fc.letrec<{ node: unknown }>((tie) => ({
      node: fc.oneof(
        { depthSize: 'small' },
        text,
        fc.array(tie('node'), { maxLength: 3 }),
        fc.dictionary(text, tie('node'), { maxKeys: 3 }),
      ),
    })).node;
    return fc.dictionary(text, value, { minKeys: 1, maxKeys: 4 });
  };
  // Each string holds such a character (written double-quoted), or is one the `yaml`
  // package writes faithfully (it writes some of white space and line feeds only, such as
  // '  \n', as blocks that read back otherwise, with or without this change).
  const withEscaped = fc
    .tuple(textOf([...ordinary, ...escaped]), fc.constantFrom(...escaped), fc.nat())
    .map(([text, c, at]) => {
      const i = at % (text.length + 1);
      return `${text.slice(0, i)}${c}${text.slice(i)}`;
    });
  const faithful = fc.constantFrom(
    'plain',
    'é 日本 😀',
    'a: b',
    'multi\nline\n',
    '- x',
    '#c',
    "it's",
    '"q"',
    '',
  );

  it.each(writers)('%s: any mix of such characters reads back unchanged, none raw', (_name, write) => {
    fc.assert(
      fc.property(documentOf(fc.oneof(withEscaped, faithful)), (data) => {
        const text = write(data);
        expectNoRaw(text);
        expect(parse(text)).toEqual(data);
        if (!hasLoneSurrogate(data)) expect(readBack(text)).toEqual(data);
      }),
      { numRuns: 300 },
    );
  });

  it.each(writers)('%s: without such characters, the same text as before', (_name, write, before) => {
    fc.assert(
      fc.property(documentOf(textOf(ordinary)), (data) => {
        expect(write(data)).toBe(before(data));
      }),
      { numRuns: 300 },
    );
  });
});

describe('capi-kit convert -o yaml escapes bidi, invisible and control characters', () => {
  // A v1alpha1 Machine whose label, annotation, providerSpec values and keys hold such
  // characters (written as YAML escapes, so the input file itself is plain ASCII), next to
  // a quoted and a bare placeholder. Going up, they reach the Machine's labels, the stash
  // annotation's JSON text and the AWSMachine the plug-in makes.
  const manifest = `apiVersion: cluster.k8s.io/v1alpha1
kind: Machine
metadata:
  name: web-0
  namespace: shop
  labels: {cluster.k8s.io/cluster-name: shop, team: "a\\u202eb"}
  annotations: {"note\\u2066": "x\\u200by", owner: "\${OWNER}"}
spec:
  versions: {kubelet: v1.14.4}
  providerSpec:
    value:
      apiVersion: awsprovider/v1alpha1
      kind: AWSMachineProviderSpec
      instanceType: t3.large
      keyName: "ops\\u202e"
      rootDeviceSize: \${ROOT_SIZE}
      additionalTags: {"env\\u00a0": "prod\\U000e0041", plain: "\${TAG}"}
`;

  it('writes no such character raw, and the values read back as the conversion made them', async () => {
    const { code, stdout, stderr } = await runMain(['convert', '-f', '-'], manifest);
    expect(stderr).toBe('');
    expect(code).toBe(ExitCode.ok);
    expectNoRaw(stdout);
    expect(stdout).toContain('team: "a\\u202eb"\n');
    // The unescaped writer's output, as the library writes it: the same documents, read back.
    const plain = convertManifest(manifest, { to: V1ALPHA2, plugins: [awsConversionPlugin] });
    if (plain._tag === 'Left') throw new Error(JSON.stringify(plain.left));
    expect(plain.right.text).toMatch(RAW_IN_YAML);
    const read = readManifest(stdout);
    if (read._tag === 'Left') throw new Error(JSON.stringify(read.left));
    expect(read.right.map((d) => d.value)).toEqual(plain.right.documents);
    // The placeholder the input quoted is quoted again; the bare one stays bare.
    const placeholder = (name: string) => `\${${name}}`;
    expect(stdout).toContain(`owner: "${placeholder('OWNER')}"\n`);
    expect(stdout).toContain(`rootDeviceSize: ${placeholder('ROOT_SIZE')}\n`);
    expect(stdout).toContain(`plain: "${placeholder('TAG')}"\n`);
  });

  it('writes a manifest without such characters byte for byte as the library does', async () => {
    const clean = manifest.replace(/\\u202e|\\u2066|\\u200b|\\u00a0|\\U000e0041/g, '');
    const { code, stdout } = await runMain(['convert', '-f', '-'], clean);
    expect(code).toBe(ExitCode.ok);
    const plain = convertManifest(clean, { to: V1ALPHA2, plugins: [awsConversionPlugin] });
    if (plain._tag === 'Left') throw new Error(JSON.stringify(plain.left));
    expect(stdout).toBe(plain.right.text);
  });
});
