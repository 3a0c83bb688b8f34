import fc from 'fast-check';
import * as E from 'fp-ts/lib/Either.js';
import { describe, expect, it } from 'vitest';
import { errorCountText, readManifest, writeManifest } from '../../src/manifest/index.js';
import {
  aliasExpansionBudget,
  MAX_ALIAS_EXPANSION,
  MAX_DOCUMENT_DEPTH,
  MAX_REPORTED_ERRORS,
} from '../../src/manifest/read.js';
import { isBase60 } from '../../src/manifest/write.js';

// Issue #12: untrusted manifests never crash the reader and are never silently changed.

function errors(text: string) {
  const result = readManifest(text);
  if (E.isRight(result)) throw new Error(`read: ${JSON.stringify(result.right).slice(0, 200)}`);
  return result.left;
}

function values(text: string) {
  const result = readManifest(text);
  if (E.isLeft(result)) throw new Error(JSON.stringify(result.left));
  return result.right.map((d) => d.value);
}

describe('readManifest on hostile input', () => {
  it('reads a harmless manifest with 101 aliases (the yaml default limit of 100 threw)', () => {
    const lines = ['data:', '  a: &a hello', ...Array.from({ length: 101 }, (_, i) => `  k${i}: *a`)];
    const [value] = values(lines.join('\n'));
    expect(Object.keys((value as { data: object }).data)).toHaveLength(102);
  });

  it('refuses an alias bomb (each anchor aliasing the previous ten times) at the alias past the limit', () => {
    // 10^10 nodes expanded; sizes are kept per anchor, so this is refused in one linear walk.
    const lines = ['a: &a [x, x, x, x, x, x, x, x, x, x]'];
    for (let i = 1; i < 10; i++) {
      const name = String.fromCharCode(97 + i);
      const prev = String.fromCharCode(96 + i);
      lines.push(`${name}: &${name} [${Array(10).fill(`*${prev}`).join(', ')}]`);
    }
    const started = performance.now();
    expect(errors(lines.join('\n'))).toEqual([
      {
        code: 'too-many-aliases',
        index: 0,
        // a to e hold 234,565 nodes and characters, e alone 211,111: f's fourth *e passes 1,000,000
        line: 6,
        column: 20,
        message: `aliases expand to more than ${MAX_ALIAS_EXPANSION} nodes and characters (a YAML alias bomb?)`,
      },
    ]);
    expect(performance.now() - started).toBeLessThan(1000);
  });

  // The yaml package's maxAliasCount counts alias uses, not what they expand to: these passed
  // it and expanded to 120 MB (a list of 10,000 aliased 3,000 times) or 5 GB (a 1 MB string
  // aliased 5,000 times: 'Invalid string length', exit 70, when written out).
  it.each([
    ['a list of 10,000 strings', `[${Array(10_000).fill('x').join(', ')}]`, 3000],
    ['a map of 10,000 keys', `{${Array.from({ length: 10_000 }, (_, i) => `k${i}: v`).join(', ')}}`, 3000],
    ['a 1 MB string', 'x'.repeat(1_000_000), 5000],
  ])(
    'refuses one large anchor (%s) aliased thousands of times, at the alias past the limit',
    (_, anchored, n) => {
      const text = `a: &a ${anchored}\nb: [${Array(n).fill('*a').join(', ')}]\n`;
      const budget = aliasExpansionBudget(text.length);
      const [error, ...rest] = errors(text);
      expect(rest).toEqual([]);
      expect(error).toEqual({
        code: 'too-many-aliases',
        index: 0,
        line: 2,
        column: expect.any(Number),
        message: `aliases expand to more than ${budget} nodes and characters (a YAML alias bomb?)`,
      });
      // at an alias, neither the first nor the last: the first whose expansion passes the limit
      const line = text.split('\n')[1]!;
      expect(line.slice(error!.column - 1, error!.column + 1)).toBe('*a');
      expect(error!.column).toBeGreaterThan(5);
      expect(error!.column).toBeLessThan(line.length - 3);
    },
  );

  it.each([
    ['<<: *a', 1],
    ['<<: [*a, *b]', 2],
  ])('refuses merge keys (%s) that expand a large map into thousands of maps', (merge, anchors) => {
    // Each merge copies the map (2,000 keys) again, and toJS converts the merged map anew each
    // time: this read (2,000,000 keys, or 4,000,000) before, now refused at the merge past the limit.
    const map = (p: string) => `{${Array.from({ length: 2000 }, (_, i) => `${p}${i}: v`).join(', ')}}`;
    const lines = ['a: &a ' + map('a'), 'b: &b ' + map('b'), 'c:'];
    for (let i = 0; i < 1000; i++) lines.push(`  - {${merge}, k: ${i}}`);
    const [error, ...rest] = errors(lines.join('\n'));
    expect(rest).toEqual([]);
    expect(error).toMatchObject({
      code: 'too-many-aliases',
      index: 0,
      message: expect.stringContaining('nodes and characters (a YAML alias bomb?)'),
    });
    // at a merged alias, after some 80 merges of one map (of 12,000 nodes and characters) or 40 of two
    expect(lines[error!.line - 1]![error!.column - 1]).toBe('*');
    expect(error!.line).toBeGreaterThan(3 + 40 / anchors);
    expect(error!.line).toBeLessThan(3 + 200 / anchors);
  });

  it('reads a manifest with a few anchors, aliases and merge keys to the value they name', () => {
    const text = [
      'apiVersion: v1',
      'kind: ConfigMap',
      'metadata:',
      '  name: shared',
      '  labels: &labels {app: web, tier: front}',
      'data: &defaults',
      '  region: eu-west-1',
      '  zones: &zones [a, b]',
      'extra:',
      '  <<: [*defaults, {owner: ops}]',
      '  region: us-east-1',
      '  labels: *labels',
      'copies: [*zones, *zones]',
      '',
    ].join('\n');
    const labels = { app: 'web', tier: 'front' };
    expect(values(text)).toEqual([
      {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: 'shared', labels },
        data: { region: 'eu-west-1', zones: ['a', 'b'] },
        extra: { region: 'us-east-1', zones: ['a', 'b'], owner: 'ops', labels },
        copies: [
          ['a', 'b'],
          ['a', 'b'],
        ],
      },
    ]);
  });

  it('reads 100,000 aliases of ten small anchors in linear time', () => {
    // The yaml package finds an alias's anchor by scanning every anchor and alias before it:
    // 50,000 aliases took 17 to 27 s, 100,000 four times that. This fails by its timeout if
    // that comes back.
    const lines = Array.from({ length: 10 }, (_, i) => `a${i}: &a${i} v${i}`);
    lines.push(`b: [${Array.from({ length: 100_000 }, (_, i) => `*a${i % 10}`).join(', ')}]`);
    const [value] = values(lines.join('\n')) as [{ b: string[] }];
    expect(value.b).toHaveLength(100_000);
    expect(value.b[99_999]).toBe('v9');
  }, 20_000);

  it.each([
    ['a: &a [1, *a]', 11],
    ['a: &a {b: *a}', 11],
    ['a: &a {<<: *a, b: 1}', 12],
    ['a: &a [1, &b [*a]]', 15],
  ])(
    'refuses an alias inside the node it names (%s), which read as a cyclic value (or overflowed the stack)',
    (text, column) => {
      expect(errors(text)).toEqual([
        {
          code: 'too-many-aliases',
          index: 0,
          line: 1,
          column,
          message: 'alias *a is inside the node it names and would expand without end',
        },
      ]);
    },
  );

  it('reports an alias without an anchor before it as such, not as an alias bomb', () => {
    expect(errors('a: *b\nc: &b 1\n')).toEqual([
      {
        code: 'yaml-syntax',
        index: 0,
        line: 1,
        column: 4,
        message: 'unresolved alias *b (the anchor must be set before the alias)',
      },
    ]);
  });

  it('reports one mistake once: errors at one place are one error', () => {
    // (a list item under a mapping gave three errors at each item, all at its column 1)
    const found = errors('a: b\n- c\n- d\ne: f\n');
    expect(found.map((e) => [e.line, e.column, e.message])).toEqual([
      [2, 1, 'Implicit keys need to be on a single line'],
      [3, 1, 'Implicit keys need to be on a single line'],
    ]);
    // past the cap, the places left out are counted once each
    const many = errors(`q: ${Array(150).fill('"a"').join(' ')}\n${'- x\n'.repeat(3)}`);
    expect(many).toHaveLength(101);
    expect(many[100]!.omitted).toEqual({ syntaxErrors: 149 + 3 - 100, documents: 0 });
  });

  it('reports the first of 200,000 syntax errors on one line each at its own column, then how many more, in linear time', () => {
    // With the yaml package's prettyErrors every error copied the whole line (quadratic: 20,000
    // took 0.9 s, 200,000 over a minute); this fails by vitest's timeout if that comes back.
    const n = 200_000;
    const found = errors(`q: ${Array(n).fill('"a"').join(' ')}\n`);
    expect(MAX_REPORTED_ERRORS).toBe(100);
    expect(found).toHaveLength(101);
    expect(found.every((e, i) => e.line === 1 && e.column === 8 + 4 * i)).toBe(true);
    expect(found[100]).toEqual({
      code: 'yaml-syntax',
      index: 0,
      line: 1,
      column: 408,
      message: `only the first 100 errors are shown; from here on: ${n - 1 - 100} more syntax errors`,
      omitted: { syntaxErrors: n - 1 - 100, documents: 0 },
    });
    // a summary counts the errors shown and what the note counts, not the note itself
    expect(errorCountText(found)).toBe(`100 error(s) shown, then ${n - 1 - 100} more syntax errors`);
    expect(found[0]).toEqual({
      code: 'yaml-syntax',
      index: 0,
      line: 1,
      column: 8,
      message: 'Unexpected double-quoted-scalar at node end',
    });
  });

  it('stops at 100 errors across documents, counting the syntax errors and documents it leaves out', () => {
    const bad = (i: number) => `a${i}: [1\n`; // one syntax error each
    const dup = 'b: 1\nb: 2\n'; // a duplicate key: found only when a document is checked
    const text = [...Array.from({ length: 150 }, (_, i) => bad(i)), dup, dup, bad(150)].join('---\n');
    const found = errors(text);
    expect(found).toHaveLength(101);
    expect(found.slice(0, 100).map((e) => e.index)).toEqual(Array.from({ length: 100 }, (_, i) => i));
    expect(found[100]).toEqual({
      code: 'yaml-syntax',
      index: 100,
      line: 202,
      column: 1,
      message:
        'only the first 100 errors are shown; from here on: 51 more syntax errors, and 2 more documents not checked',
      omitted: { syntaxErrors: 51, documents: 2 },
    });
    expect(errorCountText(found)).toBe(
      '100 error(s) shown, then 51 more syntax errors, and 2 more documents not checked',
    );
    // exactly 100: no note
    const hundred = errors(Array.from({ length: 100 }, (_, i) => bad(i)).join('---\n'));
    expect(hundred).toHaveLength(100);
    expect(hundred.some((e) => e.omitted !== undefined)).toBe(false);
    expect(errorCountText(hundred)).toBe('100 error(s)');
  });

  it('refuses deep JSON nesting (past the parser’s own stack) with one clear error', () => {
    const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
    expect(errors(deep)).toEqual([
      expect.objectContaining({ message: expect.stringContaining('nests too deeply') }),
    ]);
  });

  it('refuses nesting past MAX_DOCUMENT_DEPTH that the parser still reads, in flow and block style', () => {
    const flow = `${'['.repeat(MAX_DOCUMENT_DEPTH + 10)}${']'.repeat(MAX_DOCUMENT_DEPTH + 10)}`;
    expect(errors(flow)[0]!.message).toContain(`nests deeper than ${MAX_DOCUMENT_DEPTH} levels`);
    const block = Array.from({ length: MAX_DOCUMENT_DEPTH + 10 }, (_, i) => `${' '.repeat(i)}k:`).join('\n');
    expect(errors(`${block} x`)[0]!.message).toContain('nests deeper');
  });

  it('refuses nesting past MAX_DOCUMENT_DEPTH built with aliases, at the alias that passes it', () => {
    // Each anchor nests the one before 200 levels deeper: no node of the text is deeper than
    // 201, but the value was read 15,800 levels deep (JSON.stringify overflowed its stack on it).
    const level = 200;
    const lines = ['b0: &b0 x'];
    for (let i = 1; i < 80; i++)
      lines.push(`b${i}: &b${i} ${'['.repeat(level)}*b${i - 1}${']'.repeat(level)}`);
    expect(errors(lines.join('\n'))).toEqual([
      {
        code: 'too-deep',
        index: 0,
        line: 3, // b2's alias of b1: 200 + 200 levels
        column: 9 + level,
        message: `alias *b1 nests its value deeper than ${MAX_DOCUMENT_DEPTH} levels`,
      },
    ]);
    // a merge key counts too, and a value just within the limit is read
    const merged = `a: &a ${'['.repeat(level)}x${']'.repeat(level)}\nb:\n  c:\n    <<: {k: *a}\n`;
    expect(values(merged)).toHaveLength(1);
    const past = `a: &a ${'['.repeat(level)}x${']'.repeat(level)}\nb: ${'['.repeat(60)}{<<: {k: *a}}${']'.repeat(60)}\n`;
    expect(errors(past)).toEqual([expect.objectContaining({ code: 'too-deep', line: 2 })]);
  });

  it('puts a control character in a name, label or annotation at its own line, not the document’s first', () => {
    const text = [
      'apiVersion: v1',
      'kind: List',
      'items:',
      '- kind: ConfigMap',
      '  metadata:',
      '    name: ok',
      '    labels: {app: web, tier: "a\\eb"}',
      '',
    ].join('\n');
    expect(errors(text)).toEqual([
      {
        code: 'unsafe-text',
        index: 0,
        line: 7,
        column: 30,
        path: 'items[0].metadata.labels.tier',
        message: 'items[0].metadata.labels.tier: contains the control character U+001B',
      },
    ]);
    // an alias is where the field is; a key a merge key brings has no place of its own: the document's start
    const aliased = 'x: &x "a\\eb"\nmetadata:\n  name: *x\n';
    expect(errors(aliased)).toEqual([expect.objectContaining({ line: 3, column: 9, path: 'metadata.name' })]);
    const merged = 'x: &x {name: "a\\eb"}\nmetadata:\n  <<: *x\n';
    expect(errors(merged)).toEqual([expect.objectContaining({ line: 1, column: 1, path: 'metadata.name' })]);
  });

  it('refuses duplicate keys, also when they differ only in YAML type (1 and "1")', () => {
    expect(errors('a: 1\nb: 2\na: 3\n')).toEqual([
      expect.objectContaining({ line: 3, message: 'duplicate key "a"' }),
    ]);
    expect(errors('1: x\n"1": y\n')[0]!.message).toBe('duplicate key "1"');
  });

  it('keeps YAML merge keys working (kubectl merges them too)', () => {
    expect(values('base: &b {x: 1}\nd:\n  <<: *b\n  z: 2\n')).toEqual([
      { base: { x: 1 }, d: { x: 1, z: 2 } },
    ]);
  });

  it.each([
    ['!!binary', 'a: !!binary aGVsbG8=\n', 1],
    ['!!set', 'x: 1\na: !!set {x, y}\n', 2],
    ['!!omap', 'a: !!omap [b: 1]\n', 1],
    ['a custom tag', 'a:\n  b: !vault secret\n', 2],
  ])('refuses %s with its line', (_, text, line) => {
    expect(errors(text)).toEqual([
      expect.objectContaining({ line, message: expect.stringContaining('is not allowed') }),
    ]);
  });

  it.each([
    ['replicas: 9007199254740993', 'rounded to 9007199254740992'],
    ['generation: 12345678901234567890', 'beyond 2^53'],
    ['{"replicas": 9007199254740993}', 'beyond 2^53'],
    ['x: 0x20000000000001', 'beyond 2^53'],
  ])('refuses an integer a float would round (%s)', (text, message) => {
    expect(errors(text)[0]!.message).toContain(message);
  });

  it('keeps integers a float holds exactly (2^53 - 1, 2^53) and big floats', () => {
    expect(values('a: 9007199254740991\nb: 1.5e300\nc: 9007199254740992\n')).toEqual([
      { a: 9007199254740991, b: 1.5e300, c: 2 ** 53 },
    ]);
  });

  it.each(['a: .nan', 'a: .inf', 'a: -.Inf', '{"a": 1e400}'])('refuses NaN and infinity (%s)', (text) => {
    expect(errors(text)[0]!.message).toContain('NaN or infinity');
  });

  it.each([
    ['name: "a\\0b"', 'metadata.name', 'U+0000'],
    ['name: "web\\e[2J"', 'metadata.name', 'U+001B'],
    ['labels: {app: "a\\nb"}', 'metadata.labels.app', 'U+000A'],
    ['labels: {"a\\x07": b}', 'metadata.labels["a\\u0007"]', 'U+0007'],
    ['annotations: {note: "\\e]0;owned\\a"}', 'metadata.annotations.note', 'U+001B'],
    ['name: "\\ud800"', 'metadata.name', 'unpaired UTF-16 surrogate'],
  ])('refuses control characters in names, labels and annotations (%s)', (meta, path, what) => {
    const [error] = errors(`apiVersion: v1\nkind: ConfigMap\nmetadata: {${meta}}\n`);
    expect(error!.message).toBe(`${path}: ${error!.message.slice(path.length + 2)}`);
    expect(error!.message).toContain(what);
  });

  it('allows line breaks and tabs in annotation values, and checks List items and templates', () => {
    expect(values('metadata: {annotations: {a: "x\\ny\\tz"}}')).toHaveLength(1);
    expect(errors('kind: List\nitems: [{metadata: {name: "a\\eb"}}]\n')[0]!.message).toMatch(
      /^items\[0\]\.metadata\.name:/,
    );
    expect(errors('spec: {template: {metadata: {labels: {a: "\\0"}}}}')[0]!.message).toMatch(
      /^spec\.template\.metadata\.labels\.a:/,
    );
  });
});

describe('writeManifest quotes strings another YAML reader would take for something else', () => {
  it.each([
    '0o17',
    '0x1F',
    '1e3',
    'yes',
    'on',
    '~',
    'null',
    'NO',
    '1:20',
    '2019-01-01',
    '2001-12-14t21:59:43.10-05:00',
    '=',
    '<<',
    // go-yaml v2 (kubectl) reads these as numbers: Go's ParseInt(s, 0, 64) after dropping `_`
    '0X1F',
    '0B101',
    '0O17',
    '-0o17',
    '+0o17',
    '-0X1F',
    '+0B1',
    '0X_1',
    '-0O1_7',
    '-1_0.5e1_0',
    '09',
    '.5',
  ])('%s is written quoted and reads back as the same string', (text) => {
    const out = writeManifest([{ key: text }], 'yaml');
    expect(out).toMatch(/^key: ["']/);
    expect(values(out)).toEqual([{ key: text }]);
  });

  /** `text` is written as one double-quoted line matching `written`, and reads back unchanged. */
  const expectDoubleQuoted = (text: string, written: RegExp) => {
    const out = writeManifest([{ key: text }], 'yaml');
    expect(out).toMatch(written);
    expect(values(out)).toEqual([{ key: text }]);
  };

  it.each(['x\u2028y', '\u2029', 'a\u0085b', 'line\nand\u2028'])(
    '%j, with a character go-yaml reads as a line break, is written escaped in double quotes',
    (text) => expectDoubleQuoted(text, /^key: "[^\u0085\u2028\u2029]*"\n$/),
  );

  // go-yaml (kubectl) refuses DEL, the C1 controls and U+FFFE/U+FFFF raw anywhere in a file
  // ("control characters are not allowed"), quoted or not; checked with sigs.k8s.io/yaml v1.6.0.
  const refusedRaw = [0x7f, ...Array.from({ length: 0x20 }, (_, i) => 0x80 + i), 0xfffe, 0xffff].map((code) =>
    String.fromCharCode(code),
  );
  it.each(refusedRaw.flatMap((c) => [c, `a${c}b`, `line\n${c}`]))(
    '%j, with a character go-yaml refuses raw, is written escaped in double quotes',
    (text) => expectDoubleQuoted(text, /^key: "[^\n\u007f-\u009f\ufffe\uffff]*"\n$/),
  );

  // A block scalar whose first line starts with a tab is refused by go-yaml ("found a tab
  // character where an indentation space is expected"); a later tab-led line is fine.
  it.each(['\ta\nb\n', '\n\ta', '  \n\tx\ny', '\t\t\n'])(
    '%j, whose first line starts with a tab, is written double-quoted, not as a block',
    (text) => expectDoubleQuoted(text, /^key: ".*"\n$/),
  );

  it('any string whose first non-blank line starts with a tab is written double-quoted, and reads back', () => {
    const TAB_LED = /^(?: *\n)*\t/;
    const text = fc.string({ unit: fc.constantFrom(' ', '\n', '\t', 'a'), minLength: 1, maxLength: 12 });
    fc.assert(
      fc.property(text, (value) => {
        fc.pre(value.includes('\n') && value.trim() !== '');
        const out = writeManifest([{ key: value }], 'yaml');
        // (other strings may be double-quoted too, for trailing blanks; the block example follows)
        if (TAB_LED.test(value)) expect(out).toMatch(/^key: "/);
        expect(values(out)).toEqual([{ key: value }]);
      }),
      { numRuns: 300 },
    );
  });

  it('millions of blank lines before the first text line are scanned, not backtracked over', () => {
    // The check was a regular expression whose repeated group threw RangeError (V8's stack)
    // on some 4 M lines, which convert reported as an internal error with a stack trace.
    const blank = ' \n'.repeat(4_000_000);
    expect(writeManifest([{ key: `${blank}\tx` }], 'yaml')).toMatch(/^key: "/);
    expect(writeManifest([{ key: `${blank}x` }], 'yaml')).toMatch(/^key: \|/);
  });

  it('finds base-60 numbers exactly as YAML 1.1 spells them, and writes them quoted', () => {
    const BASE_60 = /^[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\.[0-9_]*)?$/;
    const text = fc.string({
      unit: fc.constantFrom('0', '5', '6', '9', '_', ':', '.', '-', '+', 'x'),
      maxLength: 10,
    });
    fc.assert(
      fc.property(text, (value) => {
        expect(isBase60(value)).toBe(BASE_60.test(value));
        if (BASE_60.test(value)) expect(writeManifest([{ key: value }], 'yaml')).toMatch(/^key: "/);
      }),
      { numRuns: 20_000 },
    );
  });

  it('a base-60 number of millions of places is scanned, not backtracked over', () => {
    // The check was a regular expression whose repeated group threw RangeError (V8's stack)
    // on `1` and some 8 M `:1`, and convert exited 70 writing it as YAML.
    const places = ':1'.repeat(8_600_000);
    expect(writeManifest([{ key: `1${places}` }], 'yaml')).toMatch(/^key: "1:1:1/);
    expect(writeManifest([{ key: `1${places}x` }], 'yaml')).toMatch(/^key: 1:1:1/);
  });

  it('a multi-line string with a later tab-led line stays a block scalar', () => {
    const out = writeManifest([{ key: 'all:\n\tmake\n' }], 'yaml');
    expect(out).toBe('key: |\n  all:\n  \tmake\n');
    expect(values(out)).toEqual([{ key: 'all:\n\tmake\n' }]);
  });

  it('-o json and -o yaml agree on what they hold', () => {
    const value = { a: ['0o17', '1:20', 9007199254740991, 1.5, true, null], b: { '2019-01-01': 'x' } };
    expect(values(writeManifest([value], 'yaml'))).toEqual(values(writeManifest([value], 'json')));
  });
});
