/**
 * The characters no providerID may hold, and how messages show text taken from an ID.
 *
 * providerIDs come from Node and Machine objects anyone with write access can set, and end
 * up in terminals and logs. Besides the C0 and C1 controls and DEL, the characters refused
 * are those that show as nothing, show as a plain space, or reorder the text around them,
 * so that two IDs that look alike always are alike: Unicode's format characters (general
 * category Cf: the bidi controls, zero-width space and joiners, U+FEFF, ...), the other
 * default-ignorable code points (variation selectors, Hangul fillers, tag characters, ...),
 * white space other than U+0020 (category Zs, U+2028 LINE SEPARATOR, U+2029 PARAGRAPH
 * SEPARATOR), and UTF-16 surrogates without their other half (no character at all).
 * Visible non-ASCII characters (letters, digits, symbols of any script) are not refused.
 */

// Inclusive [first, last] ranges of code points from U+00A0 up in Cf, Default_Ignorable_
// Code_Point, Zs, Zl or Zp, sorted (Unicode 17, as Node 24 reports them; the test
// test/characters.test.ts compares this table with the engine's property escapes).
// A table rather than /\p{Cf}/u: a lookup allocates nothing (a regex test of one character
// needs a string), and the refused set does not change with the Node version.
const INVISIBLE: readonly number[] = [
  0xa0, 0xa0, 0xad, 0xad, 0x34f, 0x34f, 0x600, 0x605, 0x61c, 0x61c, 0x6dd, 0x6dd, 0x70f, 0x70f, 0x890, 0x891,
  0x8e2, 0x8e2, 0x115f, 0x1160, 0x1680, 0x1680, 0x17b4, 0x17b5, 0x180b, 0x180f, 0x2000, 0x200f, 0x2028,
  0x202f, 0x205f, 0x206f, 0x3000, 0x3000, 0x3164, 0x3164, 0xfe00, 0xfe0f, 0xfeff, 0xfeff, 0xffa0, 0xffa0,
  0xfff0, 0xfffb, 0x110bd, 0x110bd, 0x110cd, 0x110cd, 0x13430, 0x1343f, 0x1bca0, 0x1bca3, 0x1d173, 0x1d17a,
  0xe0000, 0xe0fff,
];

/** Whether code point `cp` is in the INVISIBLE table (binary search over its ranges). */
export function isInvisibleCodePoint(cp: number): boolean {
  if (cp < 0xa0 || cp > 0xe0fff) return false;
  const t = INVISIBLE;
  let lo = 0;
  let hi = (t.length >> 1) - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (cp < t[mid * 2]!) hi = mid - 1;
    else if (cp > t[mid * 2 + 1]!) lo = mid + 1;
    else return true;
  }
  return false;
}

/** Why a character is refused (or FINE); see `charKind`. */
export type CharKind = 0 | 1 | 2 | 3 | 4 | 5 | 6 | 7;
export const FINE = 0;
/** C0 control, DEL or C1 control. */
export const CONTROL = 1;
/** U+0020 (refused in fields, allowed by the generic grammar). */
export const SPACE = 2;
/** '/' (refused in fields only). */
export const SLASH = 3;
/** White space other than U+0020: Zs, U+2028, U+2029. */
export const WIDE_SPACE = 4;
/** A bidi control: U+061C, U+200E, U+200F, U+202A–U+202E, U+2066–U+2069. */
export const BIDI = 5;
/** Another format or default-ignorable character (zero-width space, U+FEFF, ...). */
export const INVISIBLE_CHAR = 6;
/** Half of a surrogate pair without the other half. */
export const UNPAIRED = 7;

const isHigh = (c: number) => c >= 0xd800 && c <= 0xdbff;
const isLow = (c: number) => c >= 0xdc00 && c <= 0xdfff;

function invisibleKind(cp: number): CharKind {
  if (!isInvisibleCodePoint(cp)) return FINE;
  if (cp === 0x61c || cp === 0x200e || cp === 0x200f || (cp >= 0x202a && cp <= 0x202e)) return BIDI;
  if (cp >= 0x2066 && cp <= 0x2069) return BIDI;
  if (cp === 0xa0 || cp === 0x1680 || (cp >= 0x2000 && cp <= 0x200a) || cp === 0x3000) return WIDE_SPACE;
  if (cp === 0x2028 || cp === 0x2029 || cp === 0x202f || cp === 0x205f) return WIDE_SPACE;
  return INVISIBLE_CHAR;
}

/**
 * What the character at `i` of `s` is, for a code unit `c` above U+009F: FINE, or why it
 * is refused. A surrogate pair is judged at its first half (its second half is FINE).
 */
function nonAsciiKind(s: string, i: number, c: number): CharKind {
  if (isHigh(c)) {
    const d = s.charCodeAt(i + 1);
    return isLow(d) ? invisibleKind(((c - 0xd800) << 10) + (d - 0xdc00) + 0x10000) : UNPAIRED;
  }
  if (isLow(c)) return isHigh(s.charCodeAt(i - 1)) ? FINE : UNPAIRED;
  return invisibleKind(c);
}

/** What the character at `i` of `s` is: FINE, or why a field could not hold it. */
export function charKind(s: string, i: number): CharKind {
  const c = s.charCodeAt(i);
  if (c < 0x20 || (c >= 0x7f && c <= 0x9f)) return CONTROL;
  if (c === 0x20) return SPACE;
  if (c === 0x2f) return SLASH;
  return c > 0x9f ? nonAsciiKind(s, i, c) : FINE;
}

/**
 * Where the first character of `s` a field cannot hold is: white space (ASCII or not), a
 * control, '/', a format or other invisible character, an unpaired surrogate; -1 when none.
 * One scan; a character below U+007F costs two comparisons, and nothing is allocated.
 */
export function tokenCharFaultAt(s: string): number {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c <= 0x20 || c === 0x2f) return i;
    if (c >= 0x7f && (c <= 0x9f || nonAsciiKind(s, i, c) !== FINE)) return i;
  }
  return -1;
}

/**
 * Where the first character of `s` no providerID may hold is (controls, non-ASCII white
 * space, format and invisible characters, unpaired surrogates); -1 when none. The rule of
 * the generic grammar: U+0020 and '/' are allowed.
 */
export function textCharFaultAt(s: string): number {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x20) return i;
    if (c >= 0x7f && (c <= 0x9f || nonAsciiKind(s, i, c) !== FINE)) return i;
  }
  return -1;
}

const KIND_NAMES: readonly string[] = [
  'an allowed character',
  'a control character',
  'a space',
  '"/"',
  'white space other than U+0020',
  'a bidi control character',
  'an invisible format character',
  'an unpaired surrogate',
];

/** What a refused character is, for messages ('a bidi control character'). */
export function kindName(kind: CharKind): string {
  return KIND_NAMES[kind]!;
}

/** `U+XXXX` (at least four hex digits) of the code point at `i` of `s`. */
export function codePointName(s: string, i: number): string {
  const c = s.codePointAt(i) ?? 0;
  const hex = c.toString(16).toUpperCase();
  return `U+${hex.length < 4 ? hex.padStart(4, '0') : hex}`;
}

/** How much of a text messages show: enough for any providerID Cluster API stores (512). */
export const MESSAGE_TEXT_LIMIT = 200;

const SHORT_ESCAPES: Readonly<Record<number, string>> = {
  8: '\\b',
  9: '\\t',
  10: '\\n',
  12: '\\f',
  13: '\\r',
};

const unicodeEscape = (c: number) => `\\u${c.toString(16).padStart(4, '0')}`;

/**
 * `s[start, end)` with every character `printable` would not show as itself written as a
 * JSON escape: controls (\n, \t, ... or \u00XX), DEL, C1, non-ASCII white space, format
 * and invisible characters (both halves of a pair as \uXXXX), unpaired surrogates, and
 * the backslash (and, with `quote`, the double quote). Valid JSON string content.
 */
function escapeRange(s: string, start: number, end: number, quote: boolean): string {
  let out = '';
  let run = start;
  for (let i = start; i < end; i++) {
    const c = s.charCodeAt(i);
    let escaped: string | undefined;
    let width = 1;
    if (c < 0x20 || (c >= 0x7f && c <= 0x9f)) escaped = SHORT_ESCAPES[c] ?? unicodeEscape(c);
    else if (c === 0x5c) escaped = '\\\\';
    else if (c === 0x22 && quote) escaped = '\\"';
    else if (c > 0x9f && nonAsciiKind(s, i, c) !== FINE) {
      if (isHigh(c) && isLow(s.charCodeAt(i + 1))) {
        escaped = unicodeEscape(c) + unicodeEscape(s.charCodeAt(i + 1));
        width = 2;
      } else escaped = unicodeEscape(c);
    }
    if (escaped !== undefined) {
      out += s.slice(run, i) + escaped;
      i += width - 1;
      run = i + 1;
    }
  }
  return out + s.slice(run, end);
}

// A window of at most `limit` code units of `s` that contains `at`, not splitting a pair.
function window(s: string, at: number, limit: number): [start: number, end: number] {
  const n = s.length;
  if (n <= limit) return [0, n];
  let start = Math.max(0, Math.min(at - (limit >> 2), n - limit));
  let end = start + limit;
  if (start > 0 && isLow(s.charCodeAt(start)) && isHigh(s.charCodeAt(start - 1))) start++;
  if (end < n && isHigh(s.charCodeAt(end - 1)) && isLow(s.charCodeAt(end))) end--;
  return [start, end];
}

/**
 * Text from a providerID (or any untrusted string) as messages show it: in double quotes,
 * escaped as JSON.stringify would and more (control, format and invisible characters,
 * non-ASCII white space and unpaired surrogates as \u escapes, so nothing in it can move a
 * terminal's cursor, reorder a log line or hide), and cut to MESSAGE_TEXT_LIMIT code units:
 * a longer text shows the part around offset `at` (its start by default), with '…' where
 * it was cut and the full length, e.g. `"aws:///…"… (1048583 characters)`. Text that is
 * not cut is a JSON string literal of the original.
 */
export function quoteInput(s: string, at = 0): string {
  const [start, end] = window(s, at, MESSAGE_TEXT_LIMIT);
  const quoted = `"${escapeRange(s, start, end, true)}"`;
  if (start === 0 && end === s.length) return quoted;
  return `${start > 0 ? '…' : ''}${quoted}${end < s.length ? '…' : ''} (${s.length} characters)`;
}

/**
 * `quoteInput` without the quotes, for text a message shows bare (the instance parts of a
 * reason): unchanged when it has nothing to escape and fits the limit.
 */
export function escapeInput(s: string): string {
  const [start, end] = window(s, 0, MESSAGE_TEXT_LIMIT);
  const escaped = escapeRange(s, start, end, false);
  return end < s.length ? `${escaped}… (${s.length} characters)` : escaped;
}

/**
 * `U+202E at offset 2 of "us\u202eeast"`: the refused character at `i` of `s`, where it
 * is, and `s` quoted around it.
 */
export function charFaultDetail(s: string, i: number): string {
  return `${codePointName(s, i)} at offset ${i} of ${quoteInput(s, i)}`;
}
