import { Document, isPair, isScalar, type ScalarTag, stringify, type Tags, visit } from 'yaml';
import { v1List } from '../objects/list.js';
import { GO_YAML_NUMBER } from './go-yaml-number.js';
import { kubernetesYamlTags } from './read.js';

export type ManifestFormat = 'yaml' | 'json';

/**
 * In YAML 1.1 a plain `<<` is a merge key (go-yaml, hence kubectl, merges it too), and the
 * `yaml` package writes the string "<<" plain. This tag, tried first, writes it quoted, so it
 * reads back as the string.
 */
/**
 * Strings the `yaml` package's YAML 1.1 writer would leave plain although some reader takes
 * them for something else: `0o17` (an integer in YAML 1.2), `1:20` (base 60 in YAML 1.1, `isBase60` below),
 * `2019-01-01` (a timestamp in YAML 1.1), `=` (the YAML 1.1 value key). The strings YAML 1.1
 * itself reads as numbers, booleans or null (`0x1F`, `1e3`, `yes`, `on`, `~`) it already quotes.
 */
const AMBIGUOUS_PLAIN =
  /^(?:<<|=|0o[0-7_]+|\d{4}-\d{1,2}-\d{1,2}(?:(?:[Tt]|[ \t]+)\d{1,2}:\d{2}:\d{2}(?:\.\d*)?(?:[ \t]*(?:Z|[-+]\d{1,2}(?::\d{2})?))?)?)$/;

const isDigit = (code: number) => code >= 0x30 && code <= 0x39;
const isDigitOrUnderscore = (code: number) => isDigit(code) || code === 0x5f;

/**
 * A YAML 1.1 base-60 number, `[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\.[0-9_]*)?` (`1:20`,
 * `-1_0:05:59.5`), found by a scan: V8 threw RangeError matching that repeated group against
 * `1` and some 8 M `:1`, and capi-kit convert exited 70 writing such a string as YAML.
 */
export function isBase60(value: string): boolean {
  let i = value.charCodeAt(0) === 0x2b || value.charCodeAt(0) === 0x2d ? 1 : 0;
  if (!isDigit(value.charCodeAt(i))) return false;
  while (isDigitOrUnderscore(value.charCodeAt(i))) i++;
  let places = 0;
  while (value.charCodeAt(i) === 0x3a) {
    const first = i + 1;
    i = first;
    while (i < first + 2 && isDigit(value.charCodeAt(i))) i++;
    // one digit, or two below 60
    if (i === first || (i === first + 2 && value.charCodeAt(first) > 0x35)) return false;
    places++;
  }
  if (places === 0) return false;
  if (value.charCodeAt(i) === 0x2e) {
    i++;
    while (isDigitOrUnderscore(value.charCodeAt(i))) i++;
  }
  return i === value.length;
}

/**
 * Characters go-yaml must not meet raw: NEL, LS and PS it reads as line breaks (a string
 * changes); DEL, the C1 controls and U+FFFE/U+FFFF it refuses ("control characters are not
 * allowed"). `JSON.stringify` escapes none of them, so they are escaped here.
 */
const RAW_UNSAFE = /[\u007f-\u009f\u2028\u2029\ufffe\uffff]/;
const RAW_UNSAFE_ALL = new RegExp(RAW_UNSAFE.source, 'g');

/**
 * A multi-line string whose first non-blank line starts with a tab: the `yaml` package writes
 * it as a block scalar without an indentation indicator, and go-yaml refuses that block
 * ("found a tab character where an indentation space is expected"). Later tab-led lines are fine.
 */
function isTabLedBlock(value: string): boolean {
  // A scan, not /^(?: *\n)*\t/: V8's backtracking throws on that group repeated some millions of times.
  let lineStart = 0;
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c === 10) lineStart = i + 1;
    else if (c !== 32) break;
  }
  return value.charCodeAt(lineStart) === 9;
}

function mustQuote(value: string): boolean {
  return (
    AMBIGUOUS_PLAIN.test(value) ||
    isBase60(value) ||
    RAW_UNSAFE.test(value) ||
    (value.includes('\n') && isTabLedBlock(value)) ||
    // (go-yaml's numbers: `0X1F`, `-0o17` or `-1_0.5e1_0` went out plain and came back as numbers)
    GO_YAML_NUMBER.test(value)
  );
}

const quotedMergeKeyString: ScalarTag = {
  identify: (value) => typeof value === 'string' && mustQuote(value),
  default: true,
  tag: 'tag:yaml.org,2002:str',
  resolve: (source) => source,
  // JSON escapes every C0 control; the characters of RAW_UNSAFE it leaves as they are.
  stringify: (item) =>
    JSON.stringify(String(item.value)).replace(
      RAW_UNSAFE_ALL,
      (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
    ),
};

function writeTags(tags: Tags): Tags {
  const kept = kubernetesYamlTags(tags).filter(
    (tag) => typeof tag === 'string' || tag.tag !== 'tag:yaml.org,2002:merge',
  );
  return [quotedMergeKeyString, ...kept];
}

/** Options of `writeManifest`. */
export interface WriteManifestOptions {
  /**
   * YAML only: strings written double-quoted wherever they stand. Templates need this:
   * whether `${PORT}` was quoted decides what it becomes after substitution (a quoted one
   * stays a string, a bare one becomes a number), so a converter passes the placeholders
   * its input quoted.
   */
  readonly quoted?: ReadonlySet<string> | QuoteString;
}

/**
 * Whether to write `value` double-quoted, given the key of the mapping entry it is the value
 * of (undefined for a key, a list item or a document's root). A template can write the same
 * placeholder both ways (`x: "${CPUS}"` and `numCPUs: ${CPUS}`); a set of strings cannot tell
 * those apart, the key often can.
 */
export type QuoteString = (value: string, key: string | undefined) => boolean;

/**
 * The string key of the mapping entry whose value a `visit`ed node is (from `visit`'s key and
 * path); undefined for a key, a list item or a document's root. Shared with the converter,
 * which records under which key its input wrote each placeholder.
 */
export function parentKey(at: unknown, path: readonly unknown[]): string | undefined {
  if (at !== 'value') return undefined;
  const pair = path[path.length - 1];
  if (!isPair(pair) || !isScalar(pair.key)) return undefined;
  return typeof pair.key.value === 'string' ? pair.key.value : undefined;
}

const yamlWriteOptions = { version: '1.1', customTags: writeTags, aliasDuplicateObjects: false } as const;

function writeYamlDocument(value: unknown, quoted: WriteManifestOptions['quoted']): string {
  if (quoted === undefined || (typeof quoted !== 'function' && quoted.size === 0))
    return stringify(value, { ...yamlWriteOptions, lineWidth: 0 });
  const doc = new Document(value, yamlWriteOptions);
  visit(doc, {
    Scalar(at, node, path) {
      if (typeof node.value !== 'string') return;
      const quote =
        typeof quoted === 'function' ? quoted(node.value, parentKey(at, path)) : quoted.has(node.value);
      if (quote) node.type = 'QUOTE_DOUBLE';
    },
  });
  return doc.toString({ lineWidth: 0 });
}

/**
 * Writes documents as a manifest.
 *
 * - `yaml`: one YAML document per value, separated by `---` lines. Written as YAML 1.1, so
 *   strings such as `on`, `0755` or `<<` are quoted and read back as strings by kubectl;
 *   `options.quoted` names further strings to quote (or decides by string and key).
 * - `json`: a single value is written as itself; any other number of values (zero or
 *   several) becomes one `{"apiVersion":"v1","kind":"List","items":[...]}`, the shape
 *   `kubectl get -o json` prints and `kubectl apply -f` accepts. JSON ends with a newline.
 */
export function writeManifest(
  values: readonly unknown[],
  format: ManifestFormat,
  options: WriteManifestOptions = {},
): string {
  if (format === 'json') {
    const single = values.length === 1 ? values[0] : v1List(values);
    return `${JSON.stringify(single, null, 2)}\n`;
  }
  return values.map((value) => writeYamlDocument(value, options.quoted)).join('---\n');
}
