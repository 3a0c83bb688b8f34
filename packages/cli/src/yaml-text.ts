import { writeManifest } from '@capi-kit/core/manifest';
import { stringify } from 'yaml';
import { HAS_YAML_ESCAPED, hex, YAML_ESCAPED } from './text.js';

// YAML output (`get -o yaml`, `migrate … -o yaml`, `convert -o yaml`) shows names, labels,
// annotations and messages from a live cluster or from a manifest someone else wrote. The
// characters text and JSON output escape (text.ts: controls, bidi controls, other format and
// default-ignorable characters, white space other than U+0020, unpaired surrogates) would
// reach the terminal raw in a plain, single-quoted or block scalar, where YAML has no escapes. So a string holding one, key or value, is written as a
// double-quoted scalar on one line, each such character as a YAML escape: `\uXXXX`, or
// `\UXXXXXXXX` for an astral one (the CLI's manifest reader, like go-yaml, refuses `\u`
// surrogate pairs). A YAML parser reads the same strings; every other string is written as
// before, and visible non-ASCII text (é, 日本, emoji) stays as it is. Tab and line feed are
// not escaped in other strings: YAML writes them raw in plain and block scalars as structure.
//
// Such a string is not written by the `yaml` package's double-quoted writer: yaml 2.9.1
// writes "a\n \nb…" (40 characters or more) with `\\ ` where the space was, a backslash more
// when read back; and it may fold a long one mid-word, between the halves of a surrogate
// pair. Nor is a custom tag possible for `get`, whose writer (@capi-kit/core's writeManifest)
// takes none. Instead the writer is given a plain ASCII token in place of each such string,
// and each token in its text is replaced by the string as a JSON string literal (JSON.stringify
// escapes the C0 controls, `"`, `\` and unpaired surrogates; every JSON escape is a YAML
// one) with those characters escaped: a valid double-quoted scalar wherever a plain one is.

function yamlEscape(c: string): string {
  const cp = c.codePointAt(0)!;
  return cp > 0xffff ? `\\U${hex(cp, 8)}` : `\\u${hex(cp, 4)}`;
}

/**
 * A string as a YAML double-quoted scalar on one line: its JSON literal with each character of
 * `YAML_ESCAPED` (text.ts) written as a `\u`/`\U` escape. Such a character is never part of
 * a JSON escape (those are ASCII), so a YAML parser reads the string back unchanged.
 */
export function yamlQuoted(value: string): string {
  return JSON.stringify(value).replace(YAML_ESCAPED, yamlEscape);
}

/** Every string of `value`, map keys included, that holds a character of `YAML_ESCAPED`. */
function escapedStrings(value: unknown, found: Set<string>): void {
  if (typeof value === 'string') {
    if (HAS_YAML_ESCAPED.test(value)) found.add(value);
  } else if (Array.isArray(value)) {
    for (const item of value) escapedStrings(item, found);
  } else if (isPlainObject(value)) {
    for (const [key, item] of Object.entries(value)) {
      escapedStrings(key, found);
      escapedStrings(item, found);
    }
  }
}

// (not @capi-kit/core's isPlainObject, which takes any non-array object: a Date or other
// class instance in the data must reach the writer as it is, not as a map of its own keys)
function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object') return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/** `value` with each string (key or value) that `tokens` names replaced by its token. */
function withTokens(value: unknown, tokens: ReadonlyMap<string, string>): unknown {
  if (typeof value === 'string') return tokens.get(value) ?? value;
  if (Array.isArray(value)) return value.map((item) => withTokens(item, tokens));
  if (!isPlainObject(value)) return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, item]) => [tokens.get(key) ?? key, withTokens(item, tokens)]),
  );
}

/**
 * A token prefix that `json` does not hold, so that only the tokens put in hold it:
 * `capikit<k>z` for the smallest `k` no `capikit<digits>z` in it uses. One scan, and `k` has
 * at most as many digits as the count of such matches has: a hostile value cannot make the
 * prefix (and so every token and the regex that finds them) grow with its length.
 */
function tokenPrefix(json: string): string {
  const used = new Set<string>();
  for (const match of json.matchAll(/capikit(\d+)z/g)) used.add(match[1]!);
  let k = 0;
  while (used.has(String(k))) k++;
  return `capikit${k}z`;
}

/**
 * `write(values)` with every string of `values` (keys included) that holds a character of
 * `YAML_ESCAPED` written as `yamlQuoted` writes it. `write` must write a plain string of
 * ASCII letters and digits as itself (unquoted, unfolded: no spaces in it) wherever it
 * stands; both YAML writers of the CLI do.
 */
export function withEscapes<T>(values: T, write: (values: T) => string): string {
  const found = new Set<string>();
  escapedStrings(values, found);
  if (found.size === 0) return write(values);
  const prefix = tokenPrefix(JSON.stringify(values));
  const quoted = [...found].map(yamlQuoted);
  // Each token (padded with x) as long as its scalar: a key longer than 1024 characters is
  // written as an explicit key (`? key`), as YAML wants, for the token as for the scalar.
  const tokens = new Map(
    [...found].map((s, i) => [s, `${prefix}${i}n`.padEnd(quoted[i]!.length, 'x')] as const),
  );
  const text = write(withTokens(values, tokens) as T);
  return text.replace(new RegExp(`${prefix}(\\d+)nx*`, 'g'), (_token, i: string) => quoted[Number(i)]!);
}

/**
 * `writeManifest(values, 'yaml')` of @capi-kit/core/manifest, with strings that hold a
 * character of `YAML_ESCAPED` written by `yamlQuoted`. What `get -o yaml` writes.
 */
export function manifestYaml(values: readonly unknown[]): string {
  return withEscapes(values, (v) => writeManifest(v, 'yaml'));
}

/**
 * `stringify(value)` of the `yaml` package, with strings that hold a character of
 * `YAML_ESCAPED` written by `yamlQuoted`. What `migrate … -o yaml` writes.
 */
export function yamlText(value: unknown): string {
  return withEscapes(value, (v) => stringify(v));
}
