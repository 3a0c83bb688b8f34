import fc from 'fast-check';
import * as E from 'fp-ts/lib/Either.js';
import { describe, expect, it } from 'vitest';
import {
  documentLabel,
  formatManifestError,
  type ManifestDocument,
  readManifest,
  writeManifest,
} from '../../src/manifest/index.js';
import { MAX_REPARSES } from '../../src/manifest/read.js';

function documents(text: string): ManifestDocument[] {
  const result = readManifest(text);
  if (E.isLeft(result)) throw new Error(`unexpected errors: ${JSON.stringify(result.left)}`);
  return result.right;
}

describe('readManifest', () => {
  it('reads multi-document YAML with 0-based indexes and 1-based start lines', () => {
    const text = [
      '# leading comment',
      'apiVersion: cluster.x-k8s.io/v1alpha2',
      'kind: Machine',
      'metadata: {name: m-1, namespace: default}',
      '---',
      '---',
      '# only a comment',
      '---',
      'kind: Secret',
      'metadata:',
      '  name: s',
      '',
    ].join('\n');
    const docs = documents(text);
    expect(docs.map((d) => [d.index, d.line])).toEqual([
      [0, 2],
      [1, 9],
    ]);
    expect(docs[0]?.value).toEqual({
      apiVersion: 'cluster.x-k8s.io/v1alpha2',
      kind: 'Machine',
      metadata: { name: 'm-1', namespace: 'default' },
    });
  });

  it('reads a JSON text as one document, arrays included', () => {
    expect(documents('{"kind": "Machine", "spec": {"replicas": 3}}')).toEqual([
      { index: 0, line: 1, value: { kind: 'Machine', spec: { replicas: 3 } } },
    ]);
    expect(documents('\n\n[{"a": 1}, {"b": 2}]\n')).toEqual([
      { index: 0, line: 3, value: [{ a: 1 }, { b: 2 }] },
    ]);
  });

  it('reads any JSON text as the value JSON.parse gives', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.constantFrom(undefined, 2, '\t'), (value, indent) => {
        const text = JSON.stringify(value, null, indent);
        const docs = documents(text);
        // `null` is an empty document, skipped like `---` with nothing after it.
        expect(docs.map((d) => d.value)).toEqual(value === null ? [] : [JSON.parse(text)]);
      }),
      { numRuns: 2000 },
    );
  }, 60_000); // ~5 s alone; a loaded machine passed the 5 s default

  it('follows kubectl (YAML 1.1 via go-yaml): on/yes are booleans, dates stay strings', () => {
    const [doc] = documents('a: on\nb: yes\nc: 2019-09-06\nd: "on"\ne: 190:20:30\n');
    expect(doc?.value).toEqual({ a: true, b: true, c: '2019-09-06', d: 'on', e: '190:20:30' });
  });

  it('takes a lone CR and NEL as line breaks, as go-yaml does (YAML 1.1), except in a JSON text', () => {
    // each read back by sigs.k8s.io/yaml v1.6.0: {"metadata":{"name":"a"}}, "x y", "l1\nl2\n"
    expect(documents('kind: Secret\rmetadata:\r  name: a\r').map((d) => d.value)).toEqual([
      { kind: 'Secret', metadata: { name: 'a' } },
    ]);
    const quoted = documents('a: "x\r  y"\nb: \'x\u0085 y\'\nc: |\n  l1\u0085  l2\n')[0]!.value;
    expect(quoted).toEqual({ a: 'x y', b: 'x y', c: 'l1\nl2\n' });
    // go-yaml also folds a continuation line that is not indented (gy: {"a":"x y"}), and so
    // does this reader now (it refused it; before that it read "x\ry", which kubectl would not store)
    expect(documents('a: "x\ry"\n')[0]!.value).toEqual({ a: 'x y' });
    // line numbers count them too
    const bad = readManifest('a: 1\rb: 2\u0085c: [\n');
    expect(E.isLeft(bad) && bad.left[0]!.line).toBe(4);
    // kubectl decodes a text that starts with { as JSON, where NEL is a character like any other
    expect(documents('{"a": "x\u0085y"}')[0]!.value).toEqual({ a: 'x\u0085y' });
  });

  it('refuses a lone surrogate escape, in a value or a key, YAML or JSON, naming its path', () => {
    for (const [text, path] of [
      ['a: 1\nb: [x, "x\\ud800"]\n', 'b[1]'],
      ['{"a": 1,\n "b": {"c": "\\udc00y"}}', 'b.c'],
      ['a: 1\n"x\\ud800": 1\n', '["x\\ud800"]'],
    ]) {
      const result = readManifest(text!);
      expect(E.isLeft(result) && result.left).toEqual([
        expect.objectContaining({
          code: 'not-json',
          line: 2,
          message: expect.stringContaining(`${path}: contains an unpaired UTF-16 surrogate`),
        }),
      ]);
    }
    // a pair is one character, escaped in JSON or written as it is (go-yaml refuses an escaped
    // pair: see the test of escapes below)
    expect(documents('{"a": "\\ud83d\\ude00"}')[0]!.value).toEqual({ a: '\u{1F600}' });
    expect(documents('b: \u{1F600}\n')[0]!.value).toEqual({ b: '\u{1F600}' });
  });

  it('reads a merge key as kubectl does, and refuses the merge keys on which readers differ', () => {
    // as sigs.k8s.io/yaml v1.6.0 reads them: earlier maps in a list win, later keys win
    expect(documents('a: &a {x: 1}\nb: &b {x: 2, y0: 3}\nc:\n  <<: [*a, *b]\n  y0: 4\n')[0]!.value).toEqual({
      a: { x: 1 },
      b: { x: 2, y0: 3 },
      c: { x: 1, y0: 4 },
    });
    // a quoted "<<" is a plain key
    expect(documents('a: {"<<": 3}\n')[0]!.value).toEqual({ a: { '<<': 3 } });
    // go-yaml reads c.x as 1 in the first (the merge overrides x: 5) and 2 in the second (the
    // later merge wins); YAML, and the parser here, say 5 and 1
    for (const text of [
      'a: &a {x: 1}\nc:\n  x: 5\n  <<: *a\n',
      'a: &a {x: 1}\nb: &b {x: 2}\nc:\n  <<: *a\n  <<: *b\n',
    ]) {
      const result = readManifest(text);
      expect(E.isLeft(result) && result.left).toEqual([
        expect.objectContaining({
          code: 'duplicate-key',
          message: expect.stringMatching(/^a merge key \(<<\) must be the first key of its mapping/),
        }),
      ]);
    }
    const quotedTwice = readManifest('a: {"<<": 1, "<<": 2}\n');
    expect(E.isLeft(quotedTwice) && quotedTwice.left[0]!.message).toBe('duplicate key "<<"');
  });

  it('names number keys as kubectl does, and refuses the keys it cannot read', () => {
    // each as sigs.k8s.io/yaml v1.6.0 names it: a float key is Go's FormatFloat(key, 'g', -1, 32)
    const text = [
      'a:',
      '  1.0e-7: a',
      '  1e7: b',
      '  3.14159265358979: c',
      '  -0.0: d',
      '  123456789.5: e',
      '  1.0: f',
      '  0x10: g',
      '  100000.0: h',
      '  16777217.0: i',
      '  true: j',
      '',
    ].join('\n');
    expect(documents(text)[0]!.value).toEqual({
      a: {
        '1e-07': 'a',
        '1e+07': 'b',
        '3.1415927': 'c',
        '-0': 'd',
        '1.2345679e+08': 'e',
        '1': 'f',
        '16': 'g',
        '100000': 'h',
        '1.6777216e+07': 'i',
        true: 'j',
      },
    });
    // two keys kubectl names alike (it keeps one of them, which is left to chance)
    const alike = readManifest('a:\n  0.3: x\n  0.30000000000000004: y\n');
    expect(E.isLeft(alike) && alike.left[0]!.message).toBe('duplicate key "0.3"');
    // a null or empty key: kubectl refuses it ("unsupported map key"); it used to become ""
    for (const key of ['~', 'null', '']) {
      const result = readManifest(`a:\n  ${key}: x\n`);
      expect(E.isLeft(result) && result.left[0]).toMatchObject({ code: 'not-json', line: 2 });
    }
  });

  it('refuses the control characters kubectl refuses raw, with their place; escaped they are text', () => {
    // sigs.k8s.io/yaml v1.6.0: "control characters are not allowed", in a string or a comment
    for (const [text, index, line, column, name] of [
      ['a: "x\u001by"\n', 0, 1, 6, 'U+001B'],
      ['a: 1\n---\n# c\u007f\nb: 2\n', 1, 3, 4, 'U+007F'],
      ['a: \u0080\n', 0, 1, 4, 'U+0080'],
      ['a: "\uffff"\n', 0, 1, 5, 'U+FFFF'],
      ['{"a": "x\u0001"}', 0, 1, 9, 'U+0001'],
    ] as const) {
      const result = readManifest(text);
      expect(E.isLeft(result) && result.left).toEqual([
        {
          code: 'yaml-syntax',
          index,
          line,
          column,
          message: expect.stringContaining(`${name} is a control character`),
        },
      ]);
    }
    // LS and PS break a plain scalar to go-yaml (`a: <LS>` is null to kubectl) but not a quoted one
    for (const text of ['a: \u2028\n', 'a: "x\u2029"\n']) {
      const result = readManifest(text);
      expect(E.isLeft(result) && result.left[0]!.message).toMatch(/^U\+202[89] is a line break to kubectl/);
    }
    expect(documents('{"a": "\u2028"}')[0]!.value).toEqual({ a: '\u2028' });
    // kubectl reads a JSON text with encoding/json, where DEL and C1 may stand raw in a string
    expect(documents('{"a": "x\u007f\u0080"}')[0]!.value).toEqual({ a: 'x\u007f\u0080' });
    expect(documents('a: "\\e\\x7f\\t"\n')[0]!.value).toEqual({ a: '\u001b\u007f\t' });
  });

  it('refuses a document after `...` without `---`, which kubectl skips; with `---` it is read', () => {
    const skipped = readManifest('a: 1\n...\nb: 2\n');
    expect(E.isLeft(skipped) && skipped.left).toEqual([
      {
        code: 'yaml-syntax',
        index: 1,
        line: 3,
        column: 1,
        message: expect.stringContaining('kubectl skips'),
      },
    ]);
    expect(documents('---\na: 1\n...\n---\nb: 2\n...\n# end\n').map((d) => d.value)).toEqual([
      { a: 1 },
      { b: 2 },
    ]);
  });

  // kubectl: apimachinery's YAMLReader splits at lines starting with `---`, then go-yaml v2
  // (sigs.k8s.io/yaml v1.6.0) reads each part; the refusals below are what `gy` printed for them.
  const refusal = (text: string) => {
    const result = readManifest(text);
    if (E.isRight(result)) throw new Error(`read ${JSON.stringify(text)}, which kubectl refuses`);
    return result.left.map(({ index, line, column, message }) => ({ index, line, column, message }));
  };

  it('refuses \\/ (YAML 1.2, not go-yaml) and \\u surrogate escapes in double quotes, with their place', () => {
    // go-yaml: "found unknown escape character"
    expect(refusal('a: 1\n---\nb:\n  c: "x\\/y"\n')).toEqual([
      { index: 1, line: 4, column: 8, message: expect.stringMatching(/^b\.c: \\\/ is no escape to kubectl/) },
    ]);
    expect(refusal('"x\\/y": 1\n')[0]!.column).toBe(3);
    expect(refusal('a: [x, "\\/"]\n')[0]!.message).toMatch(/^a\[1\]: /);
    // go-yaml: "found invalid Unicode character escape code", even for a valid pair
    expect(refusal('a: "\\ud83d\\ude00"\n')[0]).toMatchObject({
      column: 5,
      message: expect.stringMatching(/^a: \\ud83d escapes a UTF-16 surrogate/),
    });
    // what kubectl reads: an escaped backslash before /, \/ in single quotes or a comment, a
    // JSON text (encoding/json takes \/ and surrogate pairs), one \U escape
    expect(documents('a: "x\\\\/y"\nb: \'x\\/y\' # "\\/"\n')[0]!.value).toEqual({ a: 'x\\/y', b: 'x\\/y' });
    expect(documents('{"a": "x\\/y\\ud83d\\ude00"}')[0]!.value).toEqual({ a: 'x/y😀' });
    expect(documents('a: "\\U0001F600"\n')[0]!.value).toEqual({ a: '😀' });
  });

  it("reads \\' in double quotes as ', as go-yaml (YAML 1.1) does; YAML 1.2 has no such escape", () => {
    // gy: {"a":"'"}, {"a":"''x\\''"}, {"k'":"v'"}; the reader refused them ("Invalid escape sequence \'")
    expect(documents('a: "\\\'"\n')[0]!.value).toEqual({ a: "'" });
    expect(documents("a: \"\\'\\'x\\\\'\\'\"\n")[0]!.value).toEqual({ a: "''x\\''" });
    expect(documents('"k\\\'": "v\\\'"\n')[0]!.value).toEqual({ "k'": "v'" });
    // an escaped backslash, then a quote: \' as text (gy: {"a":"\\'"})
    expect(documents('a: "\\\\\'"\n')[0]!.value).toEqual({ a: "\\'" });
    // the escapes go-yaml refuses stay refused, with their place in the text as written
    expect(refusal('a: ["\\\'", "\\/"]\n')).toEqual([
      { index: 0, line: 1, column: 12, message: expect.stringMatching(/^a\[1\]: \\\/ is no escape/) },
    ]);
    expect(refusal('a: "\\\'\\ud83d\\ude00"\n')[0]!.message).toMatch(/escapes a UTF-16 surrogate/);
    // in single quotes \ is no escape: 'x\' ends there (gy refuses the rest)
    expect(refusal("a: '\\'\n%y'\n")[0]!.line).toBe(2);
  });

  it('reads a quoted scalar whose continuation lines are less indented than it, as go-yaml does', () => {
    // go-yaml reads a quoted scalar to its closing quote whatever the indentation; the reader
    // refused these ('Missing closing "quote'), `%` at a line's start included (gy for each)
    expect(documents('a: "x\n%y"\n')[0]!.value).toEqual({ a: 'x %y' });
    expect(documents('a: "x\ny"\nb: 1\n---\nc: "p\n q\n%r\n\n s"\n').map((d) => d.value)).toEqual([
      { a: 'x y', b: 1 },
      { c: 'p q %r\ns' },
    ]);
    expect(documents('- "x\n%y"\n- \'u\n\tv\'\n- ["x\n%y", {k: "m\nn"}]\n')[0]!.value).toEqual([
      'x %y',
      'u v',
      ['x %y', { k: 'm n' }],
    ]);
    expect(documents('a:\n  b: "x\n%y"\n  c: "\\\'"\n  d: "e\nf"\n  g: "h\ni"\n')[0]!.value).toEqual({
      a: { b: 'x %y', c: "'", d: 'e f', g: 'h i' },
    });
    expect(documents('a: "x\r\ny\r\n%z"\r\n')[0]!.value).toEqual({ a: 'x y %z' });
    expect(documents('a: "x\n  \t\ny"\n')[0]!.value).toEqual({ a: 'x\ny' });
    expect(documents('a: "x\\\ny"\n')[0]!.value).toEqual({ a: 'xy' });
    // one such scalar in each of many documents
    const many = Array.from({ length: 50 }, (_, i) => `n${i}: "x\n%${i}"\n`).join('---\n');
    expect(documents(many).map((d) => d.value)).toEqual(
      Array.from({ length: 50 }, (_, i) => ({ [`n${i}`]: `x %${i}` })),
    );
    // errors after one keep their place in the text as written
    expect(refusal('a: "x\ny"\nb: "\\/"\n')).toEqual([
      { index: 0, line: 3, column: 5, message: expect.stringMatching(/^b: \\\/ is no escape/) },
    ]);
    // what go-yaml refuses stays refused: no closing quote, a document marker inside, a
    // multi-line key, a directive outside quotes
    expect(refusal('a: "x\n%y\n')[0]!.line).toBe(3);
    expect(refusal('a: "x\n---\ny"\n').length).toBeGreaterThan(0);
    expect(refusal('a: "x\n...\ny"\n').length).toBeGreaterThan(0);
    expect(refusal('a: "x\n%y": 1\n').length).toBeGreaterThan(0);
    expect(refusal('a: "x\n%y"\n%YAML 1.1\n---\nb: 1\n').length).toBeGreaterThan(0);
  });

  it('names the limit when it stops padding continuation lines, not a quote that is there', () => {
    // Each parse pads one such scalar per document; the next parse finds the next.
    const scalars = (n: number) => Array.from({ length: n }, (_, i) => `k${i}: "x\n%${i}"\n`).join('');
    expect(documents(scalars(MAX_REPARSES))[0]!.value).toEqual(
      Object.fromEntries(Array.from({ length: MAX_REPARSES }, (_, i) => [`k${i}`, `x %${i}`])),
    );
    const [past] = refusal(scalars(MAX_REPARSES + 1));
    expect(past!.message).toBe(
      `Missing closing "quote (capi-kit reads at most ${MAX_REPARSES} quoted scalars continued on less-indented lines in one document; indent its continuation lines at least as far as its opening quote)`,
    );
    // A scalar far to the right with many short lines would grow the text past twice its size.
    const wide = `${'k'.repeat(900)}: "x\n${'y\n'.repeat(100)}"\n`;
    expect(refusal(wide)[0]!.message).toMatch(
      /would more than double the manifest; indent its continuation lines/,
    );
    // a quote that is missing is only that
    expect(refusal('a: "x\n%y\n')[0]!.message).toBe('Missing closing "quote');
  });

  it('refuses every directive: kubectl hands it to go-yaml apart from its document, which go-yaml refuses', () => {
    // gy on the part before `---`: "did not find expected <document start>" (%YAML 1.1, %TAG),
    // "found incompatible YAML document" (%YAML 1.2), "found unknown directive name" (%FOO)
    for (const directive of ['%YAML 1.1', '%YAML 1.2', '%TAG !e! tag:example.com,2000:', '%FOO bar']) {
      expect(refusal(`${directive}\n---\na: 1\n`)).toEqual([
        { index: 0, line: 1, column: 1, message: expect.stringMatching(/^kubectl reads no directive/) },
      ]);
    }
    expect(refusal('a: 1\n...\n# c\n%YAML 1.1\n---\nb: 2\n')).toEqual([
      { index: 1, line: 4, column: 1, message: expect.stringMatching(/^kubectl reads no directive/) },
    ]);
    // a % that is no directive
    expect(documents('a: "%x"\n# %YAML 1.1\n---\nb: "%"\n').map((d) => d.value)).toEqual([
      { a: '%x' },
      { b: '%' },
    ]);
  });

  it('refuses content on a `---` line, which kubectl refuses ("invalid Yaml document separator")', () => {
    for (const line of ['--- a: 1', '--- {a: 1}', '--- |', '--- !!map', '--- &x', '---a: 1', '----']) {
      const errors = refusal(`x: 1\n${line}\n  y\n`);
      expect(errors).toEqual([
        {
          index: 1,
          line: 2,
          column: line.startsWith('--- ') ? 5 : 4,
          message: expect.stringContaining('"invalid Yaml document separator"'),
        },
      ]);
    }
    // a separator to kubectl, text to YAML
    expect(refusal('a: 1\n---#c\nb: 2\n')).toEqual([
      {
        index: 1,
        line: 2,
        column: 4,
        message: expect.stringMatching(/^kubectl takes this line for a document separator/),
      },
    ]);
    // a lone CR breaks the line for go-yaml, not for kubectl's splitter: it would read `a: 1` only
    expect(refusal('a: 1\r---\rb: 2\r')).toEqual([
      { index: 0, line: 2, column: 1, message: expect.stringContaining('only at LF line breaks') },
    ]);
    expect(refusal('a: 1\u0085---\u0085b: 2\n')[0]!.line).toBe(2);
  });

  it('places an error found before parsing in the document kubectl finds it in, after a lone CR too', () => {
    // kubectl splits only at `---` after an LF: to it (gy) `a: 1<CR>---<LF>b: …` is one
    // document, whose error is in document 1; the reader counted the `---` after the CR and said 2
    const control = (text: string) => refusal(text).map(({ index, line }) => ({ index, line }));
    expect(control('a: 1\r---\nb: "\u0001"\n')).toEqual([{ index: 0, line: 3 }]);
    expect(control('a: 1\r---\nb: 1\n---\nc: "\u0001"\n')).toEqual([{ index: 1, line: 5 }]);
    expect(control('a: 1\u0085---\nb: 1\n---\nc: "\u0001"\n')).toEqual([{ index: 1, line: 5 }]);
    expect(control('a: 1\n---\nb: 1\r---\nc: 1\n---\nd: "\u0001"\n')).toEqual([{ index: 2, line: 7 }]);
    // and not counting the empty documents the reader skips (gy: document 1 both times)
    expect(control('a: 1\n---\n---\nb: "\u0001"\n')).toEqual([{ index: 1, line: 4 }]);
    expect(control('# c\n---\na: 1\n---\n~\n--- # x\n\n---\r\nb: "\u0001"\n')).toEqual([
      { index: 1, line: 9 },
    ]);
    // as the parsed documents are numbered
    expect(control('a: 1\r\n---\r\nb: "\u0001"\n')).toEqual([{ index: 1, line: 3 }]);
    expect(control('a: 1\n---\n--- a: 1\n')).toEqual([{ index: 1, line: 3 }]);
    // what kubectl reads as separators: `---`, trailing space, a comment, CRLF
    expect(
      documents('--- \na: 1\n--- # two\nb: 2\n---\t# three\r\nc: 3\r\n---\t\r\nd: 4\n---').map(
        (d) => d.value,
      ),
    ).toEqual([{ a: 1 }, { b: 2 }, { c: 3 }, { d: 4 }]);
    // not at a line start: no separator to either reader
    expect(documents('a: "x\n  --- y"\nb: |\n  --- z\n')[0]!.value).toEqual({ a: 'x --- y', b: '--- z\n' });
  });

  it('reports every syntax error with document, line and column', () => {
    const text = ['a: 1', '---', 'b: [1', '---', 'c: {x: 1, x: 2}', ''].join('\n');
    const result = readManifest(text);
    expect(E.isLeft(result)).toBe(true);
    if (E.isRight(result)) return;
    expect(result.left.map((e) => [e.index, e.line])).toEqual([
      [1, 4],
      [2, 5],
    ]);
    const duplicate = result.left[1]!;
    expect(duplicate.column).toBe(11);
    expect(duplicate.message).toBe('duplicate key "x"');
    expect(formatManifestError(duplicate)).toBe('document 3, line 5, column 11: duplicate key "x"');
  });

  it('returns no documents for an empty text', () => {
    expect(documents('')).toEqual([]);
    expect(documents('# nothing\n---\n')).toEqual([]);
  });
});

describe('documentLabel', () => {
  it.each([
    [
      { kind: 'Machine', metadata: { name: 'm-1', namespace: 'default' } },
      'document 3 (Machine default/m-1, line 20)',
    ],
    [{ kind: 'Cluster', metadata: { name: 'c' } }, 'document 3 (Cluster c, line 20)'],
    [{ kind: 'Machine', metadata: { generateName: 'pool-' } }, 'document 3 (Machine pool-, line 20)'],
    [{ kind: 'Machine' }, 'document 3 (Machine, line 20)'],
    [{ metadata: { name: 'x' } }, 'document 3 (x, line 20)'],
    ['a string', 'document 3 (line 20)'],
    [{}, 'document 3 (line 20)'],
  ])('labels %j', (value, label) => {
    expect(documentLabel({ index: 2, line: 20, value })).toBe(label);
  });
});

describe('writeManifest', () => {
  const a = {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: 'a' },
    data: { flag: 'on', mode: '0755' },
  };
  const b = { kind: 'Secret', metadata: { name: 'b' } };

  it('writes YAML documents separated by --- that read back to the same values', () => {
    const text = writeManifest([a, b], 'yaml');
    expect(text.split('\n').filter((line) => line === '---')).toHaveLength(1);
    expect(text).toContain('flag: "on"');
    expect(documents(text).map((d) => d.value)).toEqual([a, b]);
  });

  it('writes one JSON document as itself and several as a v1 List', () => {
    expect(JSON.parse(writeManifest([a], 'json'))).toEqual(a);
    expect(JSON.parse(writeManifest([a, b], 'json'))).toEqual({
      apiVersion: 'v1',
      kind: 'List',
      items: [a, b],
    });
    expect(JSON.parse(writeManifest([], 'json'))).toEqual({ apiVersion: 'v1', kind: 'List', items: [] });
    expect(writeManifest([a], 'json').endsWith('}\n')).toBe(true);
  });

  // 1000 runs take about 5 s (vitest's default limit) on a busy machine.
  it('round-trips any JSON objects through YAML', { timeout: 60_000 }, () => {
    const object = fc
      .dictionary(fc.string(), fc.jsonValue(), { minKeys: 1 })
      .map((v) => JSON.parse(JSON.stringify(v)));
    fc.assert(
      fc.property(fc.array(object, { maxLength: 4 }), (values) => {
        expect(documents(writeManifest(values, 'yaml')).map((d) => d.value)).toEqual(values);
      }),
      { numRuns: 1000 },
    );
  });

  it('keeps long strings on one line', () => {
    const long = { data: { script: 'x'.repeat(300) } };
    expect(writeManifest([long], 'yaml').split('\n')).toHaveLength(3);
  });
});
