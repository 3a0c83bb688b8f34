// Text output shows names, IDs and messages from the cluster: control characters in them
// are escaped so they cannot move the cursor, recolour the terminal or forge lines, and so
// are the characters that hide or reorder text without being controls: the bidi controls
// (U+202E makes a line read backwards, the "Trojan Source" trick), the other format (Cf)
// and default-ignorable characters (U+200B, U+FEFF, tag characters, ...), white space other
// than U+0020 (U+00A0, U+3000, U+2028 and U+2029, which some terminals break lines at) and
// UTF-16 surrogates without their other half. These are the characters @capi-kit/providerid
// refuses in an ID (its characters.ts keeps them as a table of ranges; here the engine's
// Unicode properties name the same set, with one regex and no second table).

// Bidi, format and default-ignorable characters, white space other than U+0020, unpaired
// surrogates (with the u flag a lone surrogate is a code point of its own, in Cs).
const INVISIBLE = String.raw`(?! )[\p{Cf}\p{Default_Ignorable_Code_Point}\p{Zs}\p{Zl}\p{Zp}\p{Cs}]`;
const ESCAPED = new RegExp(String.raw`[\u0000-\u001f\u007f-\u009f]|${INVISIBLE}`, 'gu');
// The same without C0, which JSON.stringify escapes itself (and \n is its indentation).
const JSON_ESCAPED = new RegExp(String.raw`[\u007f-\u009f]|${INVISIBLE}`, 'gu');
// The same without tab and line feed: what YAML output escapes (yaml-text.ts). YAML writes
// those two raw in plain and block scalars, as structure; every other C0 control its writer
// escapes itself.
const YAML_ESCAPED_SOURCE = String.raw`[\u0000-\u0008\u000b-\u001f\u007f-\u009f]|${INVISIBLE}`;
/** A character YAML output writes as an escape (the g flag: for `replace`, not `test`). */
export const YAML_ESCAPED = new RegExp(YAML_ESCAPED_SOURCE, 'gu');
/** Whether a string holds a character of `YAML_ESCAPED` (no g flag: `test` keeps no state). */
export const HAS_YAML_ESCAPED = new RegExp(YAML_ESCAPED_SOURCE, 'u');
// Fast pre-tests: text without any such character is returned as it is, without a replace.
const NOT_PLAIN_ASCII = /[^\u0020-\u007e]/;
const NOT_ASCII = /[\u007f-\uffff]/;

/** `n` in lower-case hex, at least `digits` digits (for escapes). */
export const hex = (n: number, digits: number) => n.toString(16).padStart(digits, '0');

function printableEscape(c: string): string {
  const cp = c.codePointAt(0)!;
  return cp <= 0x9f ? `\\x${hex(cp, 2)}` : `\\u{${hex(cp, 4).toUpperCase()}}`;
}

// Each UTF-16 code unit as \uXXXX: an astral character becomes its surrogate pair.
function jsonEscape(c: string): string {
  let out = '';
  for (let i = 0; i < c.length; i++) out += `\\u${hex(c.charCodeAt(i), 4)}`;
  return out;
}

/**
 * `text` with every C0/C1 control character (and DEL) written as `\xNN`, and every bidi
 * control, other format or default-ignorable character, white space other than U+0020 and
 * unpaired surrogate as `\u{XXXX}` (upper-case hex, at least four digits). Visible
 * non-ASCII characters (é, 日本, emoji) are kept.
 */
export function printable(text: string): string {
  return NOT_PLAIN_ASCII.test(text) ? text.replace(ESCAPED, printableEscape) : text;
}

/** `printable` for text of several lines: each line escaped, the line breaks kept. */
export function printableLines(text: string): string {
  return text.split('\n').map(printable).join('\n');
}

/**
 * JSON text (as JSON.stringify writes it) with DEL, the C1 controls and every character
 * `printable` writes as `\u{XXXX}` written as JSON `\uXXXX` escapes (lower-case hex, as
 * JSON.stringify writes C0; an astral character as its surrogate pair). Outside strings,
 * JSON text is ASCII, and in a string such a character is never part of an escape, so a
 * parser reads the same value; a terminal shows no raw control, bidi or invisible character.
 */
export function safeJSON(json: string): string {
  return NOT_ASCII.test(json) ? json.replace(JSON_ESCAPED, jsonEscape) : json;
}

/** `JSON.stringify(value, null, indent)` through `safeJSON`: what every JSON output writes. */
export function jsonText(value: unknown, indent?: number): string {
  return safeJSON(JSON.stringify(value, null, indent));
}

/** How many characters of a command line's text a usage message shows, at the start and at the end. */
const SHOWN_HEAD = 600;
const SHOWN_TAIL = 200;

/**
 * `text`, or when it is longer than a usage message needs, its first and last characters with
 * how many were left out between them. Usage errors quote what was given (an argument, a flag's
 * value), which may be megabytes long; the start says what was given and the end keeps the
 * rule it broke. Cut between code points, never inside a surrogate pair.
 */
export function shortened(text: string): string {
  if (text.length <= SHOWN_HEAD + SHOWN_TAIL + 100) return text;
  // (code point by code point from each end; no array of the whole text)
  let head = 0;
  for (let n = 0; n < SHOWN_HEAD; n++) head += text.codePointAt(head)! > 0xffff ? 2 : 1;
  let tail = text.length;
  for (let n = 0; n < SHOWN_TAIL; n++)
    tail -= isLowSurrogate(text, tail - 1) && isHighSurrogate(text, tail - 2) ? 2 : 1;
  if (tail <= head) return text;
  const left = codePoints(text, head, tail);
  if (left <= 100) return text;
  return `${text.slice(0, head)}… (${left} characters left out) …${text.slice(tail)}`;
}

const isHighSurrogate = (text: string, i: number) => i >= 0 && (text.charCodeAt(i) & 0xfc00) === 0xd800;
const isLowSurrogate = (text: string, i: number) => i >= 0 && (text.charCodeAt(i) & 0xfc00) === 0xdc00;

/** How many code points `text[from, to)` holds (a pair counts once; a lone surrogate once). */
function codePoints(text: string, from: number, to: number): number {
  let count = to - from;
  for (let i = from + 1; i < to; i++) if (isLowSurrogate(text, i) && isHighSurrogate(text, i - 1)) count--;
  return count;
}
