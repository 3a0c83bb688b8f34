import * as E from 'fp-ts/lib/Either.js';
import {
  type Alias,
  type Document,
  isAlias,
  isCollection,
  isMap,
  isNode,
  isPair,
  isScalar,
  isSeq,
  LineCounter,
  type Node,
  parseAllDocuments,
  type Tags,
  visit,
} from 'yaml';
import { appendJsonPath } from '../objects/json-path.js';
import {
  type ManifestDocument,
  type ManifestError,
  type ManifestErrorCode,
  omittedText,
} from './document.js';
import { goYamlExplicitTags } from './explicit-tags.js';
import { goYamlFloatKey, goYamlNumberTag } from './go-yaml-number.js';
import { metadataTextProblem } from './metadata-text.js';
import { goYamlLineBreaks, isJsonText, refusedCharacter, separatorProblem } from './raw-text.js';

/**
 * Kubernetes reads manifests with go-yaml v2 (via sigs.k8s.io/yaml), which follows YAML 1.1:
 * `on`/`yes`/`off`/`no` are booleans and `0755` is octal. go-yaml keeps timestamps and
 * base-60 numbers as strings when the target is untyped, so those resolvers are left out.
 */
export function kubernetesYamlTags(tags: Tags): Tags {
  const kept = tags.filter(
    (tag) => typeof tag === 'string' || (tag.tag !== 'tag:yaml.org,2002:timestamp' && tag.format !== 'TIME'),
  );
  // Numbers are go-yaml's (go-yaml-number.ts), not YAML 1.1's: its patterns also take `e7`,
  // `.` or `._5` (NaN, or 0.5, where kubectl reads a string). Their tags stay, without a
  // pattern, to write numbers; `.inf` and `.nan` keep theirs, so that such a value is
  // refused, as go-yaml's JSON step refuses it.
  const numbers = kept.map((tag) =>
    typeof tag !== 'string' && isNumberTag(tag.tag) && !tag.test?.test('.inf') && !tag.test?.test('.nan')
      ? { ...tag, test: undefined }
      : tag,
  );
  return [goYamlNumberTag, ...goYamlExplicitTags, ...numbers];
}

const isNumberTag = (tag: string) => tag === 'tag:yaml.org,2002:int' || tag === 'tag:yaml.org,2002:float';

/**
 * `uniqueKeys: false`: the `yaml` package compares every key of a mapping with every other
 * (an 80,000-key mapping took 44 s); duplicates are found here instead, with one Set per mapping.
 */
export const yamlParseOptions = {
  version: '1.1',
  customTags: kubernetesYamlTags,
  uniqueKeys: false,
} as const;

/**
 * How far aliases may expand a manifest: its size with every alias (and merge key) replaced
 * by what it names, counted as nodes plus the characters of their strings, may not pass
 * `aliasExpansionBudget(text.length)`. Nodes and characters share one budget because either
 * is what readers pay for: a 10,000-node list aliased 3,000 times, or a 1 MB string aliased
 * 5,000 times, is small to parse but hundreds of MB (or more than a JS string holds) to write
 * out. A manifest without aliases counts at most about twice its length (a node and its text
 * take a character or more of input each); a real one expands aliases little, so 10 times
 * its length, and at least this, is generous, while an alias bomb passes it at once.
 */
export const MAX_ALIAS_EXPANSION = 1_000_000;

/** The budget of `MAX_ALIAS_EXPANSION`: nodes plus characters a manifest of `length` may expand to. */
export const aliasExpansionBudget = (length: number) => Math.max(MAX_ALIAS_EXPANSION, 10 * length);

/**
 * How many errors `readManifest` reports of one manifest. Past them it only counts the syntax
 * errors (the parser finds them anyway) and the documents it leaves unchecked, and ends with
 * one error saying so: a broken file can hold hundreds of thousands, and the first are what to fix.
 */
export const MAX_REPORTED_ERRORS = 100;

/** Deepest nesting a document may have. Real objects stay under 30; the walks over them recurse. */
export const MAX_DOCUMENT_DEPTH = 256;

/**
 * Explicit tags a manifest may carry: JSON's types. go-yaml turns `!!binary` into bytes,
 * `!!set`/`!!omap` into maps or lists, and keeps unknown tags' text: none of that survives a
 * trip through JSON unchanged, so such documents are refused instead of changed silently.
 */
const JSON_TAGS: ReadonlySet<string> = new Set(
  ['str', 'int', 'float', 'bool', 'null', 'map', 'seq', 'merge'].map((t) => `tag:yaml.org,2002:${t}`),
);

/** A UTF-16 surrogate without its pair: only an escape (`"\ud800"`) can put one in a string. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/**
 * The JSON path (as errors print it) of the node whose ancestors `visit` passes: a key for
 * each Pair, an index for each sequence. Only made for a message, so the index lookups may scan.
 */
function jsonPathOf(ancestors: readonly unknown[], node?: unknown): string {
  let out = '';
  for (let i = 0; i < ancestors.length; i++) {
    const step = ancestors[i];
    if (isPair(step)) out = appendJsonPath(out, keyText(step.key) ?? '?');
    else if (isSeq(step)) out = appendJsonPath(out, step.items.indexOf((ancestors[i + 1] ?? node) as never));
  }
  return out;
}

/** Integer literals (decimal, octal, hex, YAML 1.1 underscores): those a float would round. */
const INTEGER_SOURCE = /^[-+]?_*(?:0_*[xob][0-9a-f_]+|[0-9][0-9_]*)$/i;

/**
 * Whether an integer literal (decimal, 0x hex, 0o or YAML 1.1 leading-zero octal, `_`
 * separators) would be written back as a different number than it names.
 */
function roundsInteger(source: string | undefined, value: number): boolean {
  if (source === undefined || !INTEGER_SOURCE.test(source)) return false;
  const negative = source.startsWith('-');
  let digits = source.replace(/^[-+]/, '').replace(/_/g, '').toLowerCase();
  if (/^0[0-7]+$/.test(digits)) digits = `0o${digits.slice(1)}`;
  const exact = BigInt(digits);
  // Writers print the shortest text that reads back as the same float: a change is visible
  // exactly when that text is not the integer the input named.
  return (negative ? -exact : exact).toString() !== String(value);
}

/** The first line of a `yaml` error message, without the position the error already carries. */
function shortMessage(message: string): string {
  const first = message.split('\n', 1)[0] ?? message;
  return first.replace(/ at line \d+, column \d+:?$/, '').trim();
}

/**
 * An escape in a double-quoted scalar that go-yaml refuses and the `yaml` package reads:
 * `\/` (YAML 1.2 has it, YAML 1.1 not: "found unknown escape character"), and a `\u` escape
 * of a UTF-16 surrogate, which go-yaml refuses even in a pair ("found invalid Unicode
 * character escape code"). Only looked for in a YAML text that has one (`ESCAPE_REFUSED`):
 * encoding/json, which reads a JSON text, takes both.
 */
const ESCAPE_REFUSED = /\\(?:\/|u[dD][89a-fA-F])/;

/** Where in `source` (a double-quoted scalar's text) the first escape go-yaml refuses starts, and why. */
function refusedEscape(source: string): { at: number; message: string } | undefined {
  for (let i = source.indexOf('\\'); i !== -1; i = source.indexOf('\\', i + 2)) {
    const next = source[i + 1];
    if (next === '/')
      return {
        at: i,
        message:
          '\\/ is no escape to kubectl (go-yaml reads YAML 1.1: "found unknown escape character"); write / alone',
      };
    if (next === 'u' && /^[dD][89a-fA-F]/.test(source.slice(i + 2, i + 4)))
      return {
        at: i,
        message: `${source.slice(i, i + 6)} escapes a UTF-16 surrogate, which kubectl refuses even in a pair (go-yaml: "found invalid Unicode character escape code"); write the character as one \\U escape (\\U0001F600) or as itself`,
      };
  }
  return undefined;
}

/** A document with no content: nothing, only comments, or a lone `null`/`~`. */
function isEmpty(doc: Document.Parsed): boolean {
  const contents = doc.contents;
  if (contents === null) return true;
  return isScalar(contents) && contents.value === null && contents.tag === undefined;
}

type Problem = { offset: number; code: ManifestErrorCode; message: string };

/**
 * The name kubectl gives a key (sigs.k8s.io/yaml turns every key into a string): a string as
 * it is, a boolean `true`/`false`, an integer in decimal, a float as `goYamlFloatKey` writes
 * it. Undefined for a key it cannot read (null, a list, a map).
 */
function keyText(key: unknown): string | undefined {
  if (!isScalar(key) || key.value === null || key.value === undefined) return undefined;
  const value = key.value;
  if (typeof value !== 'number') return String(value);
  // go-yaml's integers: what Go's ParseInt or ParseUint takes (64 bits); any other number is a float
  const integer = INTEGER_SOURCE.test(key.source ?? '') && value >= -(2 ** 63) && value < 2 ** 64;
  return integer ? String(value) : goYamlFloatKey(value);
}

/**
 * What JSON cannot carry unchanged, found in one pass over the parsed nodes: duplicate keys
 * (compared as the strings they become), non-scalar keys, tags other than JSON's, integers
 * beyond 2^53, NaN and infinities, nesting deeper than MAX_DOCUMENT_DEPTH, and in the
 * double-quoted scalars of `escapes` (the text, given only when it may hold one) the escapes
 * go-yaml refuses.
 */
function nodeProblems(doc: Document.Parsed, escapes: string | undefined): Problem | undefined {
  let problem: Problem | undefined;
  const fail = (node: Node | undefined, code: ManifestErrorCode, message: string) => {
    problem = { offset: node?.range?.[0] ?? 0, code, message };
    return visit.BREAK;
  };
  visit(doc, {
    Node(role, node, path) {
      // path holds the Document, then each collection and Pair above the node: count the
      // collections only, and only once the path is long enough to matter.
      if (path.length > MAX_DOCUMENT_DEPTH && path.filter(isCollection).length >= MAX_DOCUMENT_DEPTH) {
        return fail(node, 'too-deep', `nests deeper than ${MAX_DOCUMENT_DEPTH} levels`);
      }
      if (node.tag !== undefined && !JSON_TAGS.has(node.tag)) {
        return fail(
          node,
          'not-json',
          `tag ${node.tag.replace('tag:yaml.org,2002:', '!!')} is not allowed: a manifest holds only JSON values (strings, numbers, booleans, null, maps, lists)`,
        );
      }
      if (isScalar(node) && typeof node.value === 'string' && LONE_SURROGATE.test(node.value)) {
        return fail(
          node,
          'not-json',
          `${jsonPathOf(path, node)}: contains an unpaired UTF-16 surrogate (an escape such as \\ud800 without its pair): no Unicode text holds one, so kubectl refuses it (YAML) or stores U+FFFD instead (JSON)`,
        );
      }
      if (escapes !== undefined && isScalar(node) && node.type === 'QUOTE_DOUBLE' && node.range) {
        const refused = refusedEscape(escapes.slice(node.range[0], node.range[1]));
        if (refused !== undefined) {
          problem = {
            offset: node.range[0] + refused.at,
            code: 'yaml-syntax',
            message: `${jsonPathOf(path, node) || '(document)'}: ${refused.message}`,
          };
          return visit.BREAK;
        }
      }
      if (isScalar(node) && typeof node.value === 'number') {
        const value = node.value;
        if (!Number.isFinite(value)) {
          return fail(
            node,
            'not-json',
            `${node.source ?? String(value)} is not a number JSON can hold (NaN or infinity)`,
          );
        }
        if (!Number.isSafeInteger(value) && Number.isInteger(value) && roundsInteger(node.source, value)) {
          return fail(
            node,
            'not-json',
            `integer ${node.source} is beyond 2^53 and would be rounded to ${BigInt(value)}; quote it if it is meant as text`,
          );
        }
        // A number used as a key gets kubectl's name for it now, so that toJS writes that name
        // (its own would be JavaScript's: "1e-7" for go-yaml's "1e-07").
        if (role === 'key') node.value = keyText(node);
      }
      if (isMap(node)) {
        const seen = new Set<string>();
        for (const pair of node.items) {
          const key = keyText(pair.key);
          if (key === undefined) {
            return fail(
              (pair.key as Node | null) ?? node,
              'not-json',
              'mapping keys must be strings, numbers or booleans (kubectl reads no null or empty key, nor a list or map as a key)',
            );
          }
          // A merge key (plain `<<`; the parser makes its value a symbol). kubectl's reader
          // (go-yaml v2) merges in order, so a merge overrides keys written before it, and of two
          // merge keys the later wins; YAML (and this parser) let those keys win instead. Where
          // the two can differ the mapping is refused: one merge key, the mapping's first.
          if (isScalar(pair.key) && typeof pair.key.value === 'symbol') {
            if (pair === node.items[0]) continue;
            return fail(
              pair.key,
              'duplicate-key',
              'a merge key (<<) must be the first key of its mapping, and the only one: kubectl (go-yaml) lets a merge override keys written before it, other YAML readers do not (merge several maps with <<: [*a, *b])',
            );
          }
          if (seen.has(key))
            return fail(pair.key as Node, 'duplicate-key', `duplicate key ${JSON.stringify(key)}`);
          seen.add(key);
        }
      }
      return undefined;
    },
  });
  return problem;
}

/**
 * Walks a document as its value would be after aliases are expanded, adding to `expanded.size`
 * each node (1) and its string's characters, and for an alias the size of the node it names;
 * merge keys (`<<: *a`, `<<: [*a, *b]`) are aliases too, counted in full. Sizes are kept per
 * anchored node, so the walk is linear in the document however deep aliases nest. Refuses the
 * alias that takes the size past `budget`, an alias inside the node it names (which `toJS`
 * would turn into a cycle: JSON cannot hold one) and an alias with no anchor before it.
 * Refuses too the alias that nests the value past MAX_DOCUMENT_DEPTH, which `nodeProblems`
 * cannot see: anchors that each alias the one before inside 200 brackets build a value
 * thousands of levels deep from a text no deeper than 201. Each anchored node's height (the
 * collections its deepest node is under, itself included) is kept with its size. A merge
 * key's alias is counted one level deeper than its keys land: a bound, not the exact depth.
 *
 * Each alias is then made to resolve to its node at once: the `yaml` package's own lookup
 * scans every anchor and alias before it, quadratic in their number (20,000 aliases took
 * 4 s). An anchor is looked up as there: the last node with that name before the alias.
 * The walk's recursion is bounded by MAX_DOCUMENT_DEPTH (`nodeProblems` runs first).
 */
function aliasProblem(doc: Document.Parsed, expanded: { size: number }, budget: number): Problem | undefined {
  const anchors = new Map<string, Node>();
  const sizes = new Map<Node, number>();
  const heights = new Map<Node, number>();
  const open = new Set<Node>();
  const resolved: [Alias, Node][] = [];
  // the most collections any node walked so far (aliases expanded) is under
  let deepest = 0;
  // `above`: how many collections the node is under
  const walk = (node: unknown, above: number): Problem | undefined => {
    if (isPair(node)) return walk(node.key, above) ?? walk(node.value, above);
    if (isAlias(node)) {
      const offset = node.range?.[0] ?? 0;
      const target = anchors.get(node.source);
      if (target === undefined)
        return {
          offset,
          code: 'yaml-syntax',
          message: `unresolved alias *${node.source} (the anchor must be set before the alias)`,
        };
      if (open.has(target))
        return {
          offset,
          code: 'too-many-aliases',
          message: `alias *${node.source} is inside the node it names and would expand without end`,
        };
      resolved.push([node, target]);
      const depth = above + (heights.get(target) ?? 0);
      if (depth >= MAX_DOCUMENT_DEPTH)
        return {
          offset,
          code: 'too-deep',
          message: `alias *${node.source} nests its value deeper than ${MAX_DOCUMENT_DEPTH} levels`,
        };
      deepest = Math.max(deepest, depth);
      expanded.size += sizes.get(target) ?? 0;
      return expanded.size > budget
        ? {
            offset,
            code: 'too-many-aliases',
            message: `aliases expand to more than ${budget} nodes and characters (a YAML alias bomb?)`,
          }
        : undefined;
    }
    if (!isScalar(node) && !isCollection(node)) return undefined;
    const start = expanded.size;
    const deepestBefore = deepest;
    const anchor = node.anchor;
    if (anchor !== undefined) {
      anchors.set(anchor, node);
      open.add(node);
    }
    expanded.size += 1 + (isScalar(node) && typeof node.value === 'string' ? node.value.length : 0);
    deepest = above;
    if (isMap(node) || isSeq(node)) {
      for (const item of node.items) {
        const problem = walk(item, above + 1);
        if (problem !== undefined) return problem;
      }
    }
    if (anchor !== undefined) {
      open.delete(node);
      sizes.set(node, expanded.size - start);
      heights.set(node, deepest - above);
    }
    deepest = Math.max(deepestBefore, deepest);
    return undefined;
  };
  const problem = walk(doc.contents, 0);
  if (problem !== undefined) return problem;
  for (const [alias, target] of resolved) {
    const lookup = alias.resolve;
    // The target is converted before its aliases, except an anchor `toJS` skipped (a merge
    // key's inline map): the package's own lookup converts that one.
    const resolve: Alias['resolve'] = (within, ctx) =>
      ctx === undefined || ctx.anchors.has(target)
        ? (target as ReturnType<Alias['resolve']>)
        : lookup.call(alias, within, ctx);
    Object.defineProperty(alias, 'resolve', { value: resolve, configurable: true });
  }
  return undefined;
}

/**
 * Where flow brackets (`[`, `{`, outside quotes and comments) first nest past `limit`, found
 * before parsing: the parser's time and stack grow with the nesting, so JSON nested 100,000
 * deep is refused here in one linear pass. (Block nesting is bounded by the line count.)
 */
function flowNestingPast(text: string, limit: number): number | undefined {
  let depth = 0;
  let quote = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (quote !== 0) {
      if (c === 0x5c && quote === 0x22) i++;
      else if (c === quote) quote = 0;
    } else if (c === 0x22 || (c === 0x27 && depth > 0)) quote = c;
    else if (c === 0x23 && (i === 0 || text.charCodeAt(i - 1) <= 0x20)) {
      const end = text.indexOf('\n', i);
      if (end === -1) break;
      i = end;
    } else if (c === 0x5b || c === 0x7b) {
      depth++;
      if (depth > limit) return i;
    } else if ((c === 0x5d || c === 0x7d) && depth > 0) depth--;
  }
  return undefined;
}

/** A line that holds nothing of a document: blank, a comment, `...`, or the start of a part's lone null. */
const NOTHING_LINE = /^[ \t\r]*(?:(?:#|\.\.\.(?=[ \t\r]|$))[^\n]*)?$/;
const NULL_LINE = /^[ \t\r]*(?:~|null|Null|NULL)(?:[ \t\r]+(?:#[^\n]*)?)?$/;

/** Whether `part` (text between two `---` lines, lone CRs and NELs as LF) is a document `readManifest` skips as empty. */
function isEmptyPart(part: string): boolean {
  let nulls = 0;
  for (const line of part.split('\n')) {
    if (NOTHING_LINE.test(line)) continue;
    if (!NULL_LINE.test(line) || ++nulls > 1) return false;
  }
  return true;
}

/**
 * The index of the document that holds `offset`, as `readManifest` numbers documents: the
 * non-empty parts before it, where the raw `input` is split as kubectl splits it, at lines
 * that start with `---` after an LF (or at its start). A lone CR or NEL breaks lines to
 * go-yaml but not to kubectl's splitter: a `---` after one starts no document (it used to be
 * counted, as `text` has those breaks as LF, so an error after one was put in the next document).
 */
function documentIndexAt(input: string, text: string, offset: number): number {
  let index = 0;
  let start = input.startsWith('---') ? 3 : 0;
  for (let at = input.indexOf('\n---'); at !== -1 && at < offset; at = input.indexOf('\n---', at + 1)) {
    if (at + 1 > start && !isEmptyPart(text.slice(start, at + 1))) index += 1;
    start = at + 4;
    if (offset < start) break;
  }
  return index;
}

/** An error found in the text before it is parsed, at `offset`: its document found by `documentIndexAt`. */
function textError(
  input: string,
  text: string,
  offset: number,
  code: ManifestErrorCode,
  message: string,
): ManifestError {
  const before = text.slice(0, offset);
  return {
    code,
    index: documentIndexAt(input, text, offset),
    line: before.split('\n').length,
    column: offset - before.lastIndexOf('\n'),
    message,
  };
}

const SKIPPED_AFTER_END =
  'kubectl skips a document that follows `...` without a `---` line before it; start it with `---`';

const DIRECTIVE =
  'kubectl reads no directive (%YAML, %TAG): it splits a manifest at `---` lines and hands the directive to go-yaml as a document of its own, which it refuses ("did not find expected <document start>"; a %YAML other than 1.1 also "found incompatible YAML document"); remove the line';

/**
 * Where a directive (a line starting with `%`) stands in `text` between `from` and `to`: the
 * text the parser found before a document's `---`, which holds nothing but directives,
 * comments and blank lines.
 */
function directiveAt(text: string, from: number, to: number): number | undefined {
  if (from >= to) return undefined;
  if (text.charCodeAt(from) === 0x25 && (from === 0 || text.charCodeAt(from - 1) === 0x0a)) return from;
  const i = text.slice(from, to).indexOf('\n%');
  return i === -1 ? undefined : from + i + 1;
}

/**
 * `f()` with no stack traces captured. The parser makes each syntax error an Error, whose
 * stack nothing reads, and capturing them was most of the time of a file with many (800,000:
 * 14 s of parsing, 4 s without). `f` is synchronous, so nothing else sees the change.
 */
function withoutStackTraces<T>(f: () => T): T {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    return f();
  } finally {
    Error.stackTraceLimit = limit;
  }
}

/** The parser overflowing its stack on deep nesting: reported as the nesting, once. */
function isStackOverflow(message: string): boolean {
  return /call stack|stack overflow/i.test(message);
}

/**
 * A change to the text before the `yaml` package parses it, so that it reads what go-yaml
 * reads where the two differ in syntax alone: `replace` the text at `at` for `remove` characters.
 */
interface Edit {
  readonly at: number;
  readonly remove: number;
  readonly insert: string;
}

/** How many times a manifest is parsed again after edits (each parse makes the next one's edits). */
export const MAX_REPARSES = 8;

// Said after 'Missing closing "quote' where go-yaml would read on, so that the refusal names
// the limit and what to do, not a quote that is there.
const INDENT_THEM = 'indent its continuation lines at least as far as its opening quote';
const UNPADDED_PAST_REPARSES = `capi-kit reads at most ${MAX_REPARSES} quoted scalars continued on less-indented lines in one document; ${INDENT_THEM}`;
const UNPADDED_PAST_BUDGET = `padding the less-indented continuation lines of quoted scalars would more than double the manifest; ${INDENT_THEM}`;

/** Where the quoted scalar opening at `open` closes, found as go-yaml (and the `yaml` lexer) finds it; -1 if nowhere. */
function closingQuote(source: string, open: number): number {
  const quote = source[open];
  for (let i = open + 1; i < source.length; i++) {
    const c = source[i];
    if (quote === '"' && c === '\\') i++;
    else if (c === quote) {
      if (quote === "'" && source[i + 1] === "'") i++;
      else return i;
    }
  }
  return -1;
}

/** A line (at `start`) that kubectl's splitter or go-yaml takes for a document marker, even inside quotes. */
const isMarkerLine = (source: string, start: number) =>
  source.startsWith('---', start) || /^\.\.\.(?:[ \t\r\n]|$)/.test(source.slice(start, start + 4));

/**
 * Padding for the continuation lines of the quoted scalar opening at `open`, whose lines
 * the `yaml` package takes for the scalar's end where they are less indented than it wants
 * (`a: "x<LF>y"`, `- 'x<LF>%y'`; it then reports 'Missing closing "quote'). go-yaml reads a
 * quoted scalar to its closing quote whatever the indentation, folding each line break to a
 * space and dropping the leading white space of each line: padding every continuation line
 * to the opening quote's column (indentation enough for any context) leaves the value as it
 * is. Undefined where go-yaml does not read on either: no closing quote, or a line that is
 * a document marker (`---`, `...`); and where the padding would pass `budget`.
 */
function continuationPadding(source: string, open: number, budget: { left: number }): Edit[] | undefined {
  const close = closingQuote(source, open);
  if (close === -1) return undefined;
  const column = open - (source.lastIndexOf('\n', open - 1) + 1);
  const edits: Edit[] = [];
  for (let nl = source.indexOf('\n', open); nl !== -1 && nl < close; nl = source.indexOf('\n', nl + 1)) {
    const start = nl + 1;
    if (isMarkerLine(source, start)) return undefined;
    let spaces = 0;
    while (source[start + spaces] === ' ') spaces++;
    const next = source[start + spaces];
    if (next === '\n' || (next === '\r' && source[start + spaces + 1] === '\n')) continue;
    if (spaces >= column) continue;
    // (a scalar far to the right with many short lines would grow the text past bounds: refused)
    budget.left -= column - spaces;
    if (budget.left < 0) return undefined;
    edits.push({ at: start, remove: 0, insert: ' '.repeat(column - spaces) });
  }
  return edits;
}

/**
 * The edits that make the `yaml` package read `docs` (parsed from `source`) as go-yaml reads
 * them, in `source`'s offsets: taken from each document's errors in the text's order, up to
 * the first that is not one of these, because what follows an error may be misread:
 * - `\'` in double quotes, an escape of `'` to go-yaml (YAML 1.1), none to YAML 1.2: written
 *   `\x27`, which both read as `'`;
 * - a quoted scalar cut short by a continuation line less indented than the `yaml` package
 *   wants: padded (`continuationPadding`). What follows it in its document may be misread,
 *   so that document's edits stop there; the next parse finds the next.
 */
function goYamlEdits(source: string, docs: readonly Document.Parsed[], budget: { left: number }): Edit[] {
  const edits: Edit[] = [];
  for (const doc of docs) {
    // A document that starts at a `---` line is read from there as go-yaml reads it, however
    // the one before was misread: every state of the `yaml` lexer ends at such a line.
    if (doc.errors.length === 0 || (doc !== docs[0] && doc.directives?.docStart !== true)) continue;
    const ordered = [...doc.errors].sort((a, b) => a.pos[0] - b.pos[0]);
    for (const error of ordered) {
      const offset = error.pos[0];
      if (error.code === 'BAD_DQ_ESCAPE' && source.startsWith("\\'", offset)) {
        edits.push({ at: offset, remove: 2, insert: '\\x27' });
        continue;
      }
      if (error.code === 'MISSING_CHAR' && error.message.startsWith('Missing closing')) {
        let open: number | undefined;
        visit(doc, {
          Scalar(_, node) {
            if (
              (node.type === 'QUOTE_DOUBLE' || node.type === 'QUOTE_SINGLE') &&
              node.range?.[1] === offset
            ) {
              open = node.range[0];
              return visit.BREAK;
            }
            return undefined;
          },
        });
        const padding = open === undefined ? undefined : continuationPadding(source, open, budget);
        if (padding !== undefined) edits.push(...padding);
      }
      break;
    }
  }
  return edits;
}

/** `text` with `edits` (in `text`'s offsets, in order, apart) made, and a map of the result's offsets back to `text`'s. */
function withEdits(
  text: string,
  edits: readonly Edit[],
): { source: string; toText: (offset: number) => number } {
  const parts: string[] = [];
  const starts: number[] = []; // each edit's offset in the result
  const shifts: number[] = []; // how far the result runs ahead of `text` after each edit
  let from = 0;
  let shift = 0;
  for (const edit of edits) {
    parts.push(text.slice(from, edit.at));
    starts.push(edit.at + shift);
    parts.push(edit.insert);
    shift += edit.insert.length - edit.remove;
    shifts.push(shift);
    from = edit.at + edit.remove;
  }
  parts.push(text.slice(from));
  const toText = (offset: number) => {
    let low = 0;
    let high = starts.length;
    while (low < high) {
      const mid = (low + high) >> 1;
      if ((starts[mid] ?? 0) <= offset) low = mid + 1;
      else high = mid;
    }
    if (low === 0) return offset;
    const edit = low - 1;
    const inserted = edits[edit]?.insert.length ?? 0;
    if (offset < (starts[edit] ?? 0) + inserted) return edits[edit]?.at ?? offset;
    return offset - (shifts[edit] ?? 0);
  };
  return { source: parts.join(''), toText };
}

/**
 * Parses `text` (a YAML text: go-yaml's line breaks, nothing refused) with the `yaml`
 * package, then again with `goYamlEdits` made while they find any, at most MAX_REPARSES
 * times. Returns the text parsed (`source`), its documents, and positions (1-based line and
 * column) of `source`'s offsets in `text`. A JSON text is parsed as it is: encoding/json
 * refuses what the edits change.
 */
function parseAsGoYaml(text: string): {
  source: string;
  docs: Document.Parsed[];
  linePos: (offset: number) => { line: number; col: number };
  /** Why a quoted scalar go-yaml reads may still be cut short in `docs`: a limit was reached. */
  unpadded?: string;
} {
  const parse = (source: string) => {
    const lineCounter = new LineCounter();
    // (not `prettyErrors`: it copies the whole line into every error, which is quadratic on
    // one long line of many errors; the position comes from the line counter instead)
    const parsed = withoutStackTraces(() =>
      parseAllDocuments(source, { ...yamlParseOptions, lineCounter, prettyErrors: false }),
    );
    return { docs: Array.isArray(parsed) ? parsed : [], lineCounter };
  };
  const first = parse(text);
  let result = { source: text, docs: first.docs, linePos: first.lineCounter.linePos };
  if (isJsonText(text)) return result;
  let edits: Edit[] = [];
  let toText = (offset: number) => offset;
  // padding added, in all: at most the text's length again (and 64 KiB)
  const budget = { left: text.length + 65_536 };
  let unpadded: string | undefined;
  for (let round = 0; ; round++) {
    const more = goYamlEdits(result.source, result.docs, budget);
    if (more.length === 0) break;
    if (round === MAX_REPARSES) {
      unpadded = UNPADDED_PAST_REPARSES;
      break;
    }
    const mapped = more.map((e) => ({ ...e, at: toText(e.at) }));
    edits = [...edits, ...mapped].sort((a, b) => a.at - b.at);
    const edited = withEdits(text, edits);
    toText = edited.toText;
    const { docs } = parse(edited.source);
    result = {
      source: edited.source,
      docs,
      linePos: (offset) => first.lineCounter.linePos(edited.toText(offset)),
    };
  }
  if (unpadded === undefined && budget.left < 0) unpadded = UNPADDED_PAST_BUDGET;
  return { ...result, unpadded };
}

/**
 * Reads a manifest: multi-document YAML (`---` separated) or a JSON text, which is one
 * document (a JSON array stays one document whose value is the array).
 *
 * Empty documents (only comments, or nothing between two `---`) are skipped and not counted.
 * Returns the errors (the first MAX_REPORTED_ERRORS, then one saying how many more there
 * are), or the documents when there are none. Input
 * is untrusted: alias bombs, deep nesting, duplicate keys, non-JSON tags, integers a float
 * would round, NaN/infinity, and control characters in names, labels and annotations are
 * errors with their line, never a crash or a silently changed value.
 */
export function readManifest(input: string): E.Either<ManifestError[], ManifestDocument[]> {
  const text = goYamlLineBreaks(input);
  const refused = refusedCharacter(text);
  if (refused !== undefined)
    return E.left([textError(input, text, refused.offset, 'yaml-syntax', refused.message)]);
  const separator = separatorProblem(input);
  if (separator !== undefined)
    return E.left([textError(input, text, separator.offset, 'yaml-syntax', separator.message)]);
  const tooDeep = flowNestingPast(text, MAX_DOCUMENT_DEPTH * 4);
  if (tooDeep !== undefined) {
    const why = `nests too deeply to read (the limit is ${MAX_DOCUMENT_DEPTH} levels)`;
    return E.left([textError(input, text, tooDeep, 'too-deep', why)]);
  }
  const { source, docs, linePos, unpadded } = parseAsGoYaml(text);
  const errors: ManifestError[] = [];
  const documents: ManifestDocument[] = [];
  const at = (
    index: number,
    offset: number,
    code: ManifestErrorCode,
    message: string,
    path?: string,
  ): ManifestError => {
    const pos = linePos(offset);
    return { code, index, line: pos.line, column: pos.col, ...(path !== undefined && { path }), message };
  };
  // One budget for the whole manifest, so that many documents cannot each spend it.
  const budget = aliasExpansionBudget(text.length);
  const expanded = { size: 0 };
  const escapes = !isJsonText(source) && ESCAPE_REFUSED.test(source) ? source : undefined;
  let index = 0;
  let end = 0;
  // past MAX_REPORTED_ERRORS: the syntax errors and documents left out, and where they start
  let hidden = 0;
  let unchecked = 0;
  let firstHidden: { index: number; offset: number } | undefined;
  for (const doc of docs) {
    if (errors.length >= MAX_REPORTED_ERRORS) {
      if (doc.errors.length === 0 && isEmpty(doc)) continue;
      hidden += doc.errors.length;
      if (doc.errors.length === 0) unchecked += 1;
      firstHidden ??= { index, offset: doc.errors[0]?.pos[0] ?? doc.range[0] };
      index += 1;
      continue;
    }
    const directive = directiveAt(source, end, doc.range[0]);
    end = doc.range[2];
    if (directive !== undefined) {
      errors.push(at(index, directive, 'yaml-syntax', DIRECTIVE));
      index += 1;
      continue;
    }
    if (doc.errors.length === 0 && isEmpty(doc)) continue;
    // kubectl splits a manifest at `---` lines and reads the first document of each part: a
    // document after `...` with no `---` before it is one it silently skips.
    if (doc !== docs[0] && doc.directives?.docStart !== true) {
      errors.push(at(index, doc.range[0], 'yaml-syntax', SKIPPED_AFTER_END));
      index += 1;
      continue;
    }
    const overflow = doc.errors.find((e) => isStackOverflow(e.message));
    if (overflow !== undefined) {
      errors.push(
        at(
          index,
          overflow.pos[0],
          'too-deep',
          `nests too deeply to read (the limit is ${MAX_DOCUMENT_DEPTH} levels)`,
        ),
      );
      index += 1;
      continue;
    }
    // The yaml package often reports one mistake several times at one place ("Implicit keys
    // need to be on a single line", "Unexpected block-seq-ind …", …): the first says it.
    const places = new Set<number>(); // (the offsets reported so far in this document)
    for (const [i, error] of doc.errors.entries()) {
      if (places.has(error.pos[0])) continue;
      if (errors.length >= MAX_REPORTED_ERRORS) {
        const left = new Set(doc.errors.slice(i).map((e) => e.pos[0]));
        for (const place of places) left.delete(place);
        hidden += left.size;
        firstHidden ??= { index, offset: error.pos[0] };
        break;
      }
      places.add(error.pos[0]);
      const pos = linePos(error.pos[0]);
      const cutShort = unpadded !== undefined && error.message.startsWith('Missing closing');
      errors.push({
        code: 'yaml-syntax',
        index,
        line: pos.line,
        column: pos.col,
        message: cutShort ? `${shortMessage(error.message)} (${unpadded})` : shortMessage(error.message),
      });
    }
    if (doc.errors.length === 0) {
      const problem = nodeProblems(doc, escapes) ?? aliasProblem(doc, expanded, budget);
      const start = doc.contents?.range[0] ?? doc.range[0];
      if (problem !== undefined) {
        errors.push(at(index, problem.offset, problem.code, problem.message));
      } else {
        let value: unknown;
        try {
          // aliasProblem bounds what aliases expand to; the package's own count (of alias
          // uses, not of their size) would only refuse harmless manifests, so it is off.
          value = doc.toJS({ maxAliasCount: -1 });
        } catch (error) {
          const message = error instanceof Error ? error.message : String(error);
          errors.push(at(index, start, 'yaml-syntax', shortMessage(message)));
          index += 1;
          continue;
        }
        const bad = metadataTextProblem(value);
        if (bad !== undefined) {
          // at the field (or the alias that stands for it); at the document's start for a key a merge brings
          const field = doc.getIn(bad.segments, true);
          const offset = isNode(field) ? (field.range?.[0] ?? start) : start;
          errors.push(at(index, offset, 'unsafe-text', `${bad.path}: ${bad.message}`, bad.path));
        } else documents.push({ index, line: linePos(start).line, value });
      }
    }
    index += 1;
  }
  if (firstHidden !== undefined) {
    const omitted = { syntaxErrors: hidden, documents: unchecked };
    const message = `only the first ${MAX_REPORTED_ERRORS} errors are shown; from here on: ${omittedText(omitted)}`;
    errors.push({ ...at(firstHidden.index, firstHidden.offset, 'yaml-syntax', message), omitted });
  }
  return errors.length > 0 ? E.left(errors) : E.right(documents);
}
