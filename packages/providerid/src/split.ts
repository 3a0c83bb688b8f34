import type { SplitProviderID } from './types.js';

/**
 * Where a URI scheme (RFC 3986 §3.1: a letter, then letters, digits, '+', '-', '.') that
 * `input` starts with ends at its first ':'; -1 when the text before the first ':' is not
 * one (or there is no ':'). A character scan, not a regex: it stops at the first character
 * that cannot be in a scheme.
 */
function schemeEnd(input: string): number {
  let c = input.charCodeAt(0) | 0x20;
  if (c < 0x61 || c > 0x7a) return -1; // not a letter (NaN | 0x20 is 0x20 for "")
  for (let i = 1; i < input.length; i++) {
    c = input.charCodeAt(i);
    if (c === 0x3a) return i;
    const l = c | 0x20;
    if (!((l >= 0x61 && l <= 0x7a) || (c >= 0x30 && c <= 0x39) || c === 0x2b || c === 0x2d || c === 0x2e))
      return -1;
  }
  return -1;
}

/**
 * Splits a providerID into scheme, separator and rest the way Cluster API reads it: the
 * scheme is the text before the first ':'. Text before ':' that is not a URI scheme (a
 * bare ID that happens to contain ':') leaves the whole input as a scheme-less `rest`.
 * Runs in one pass; never throws.
 */
export function splitProviderID(input: string): SplitProviderID {
  const colon = schemeEnd(input);
  if (colon > 0) {
    const scheme = input.slice(0, colon);
    if (input.charCodeAt(colon + 1) === 0x2f && input.charCodeAt(colon + 2) === 0x2f) {
      return { input, scheme, separator: '://', rest: input.slice(colon + 3) };
    }
    return { input, scheme, separator: ':', rest: input.slice(colon + 1) };
  }
  return { input, scheme: '', separator: '', rest: input };
}

/** The non-empty segments of `rest`: its shape once slash counts are ignored. */
export function nonEmptySegments(rest: string): string[] {
  return rest.split('/').filter((s) => s !== '');
}

/**
 * Whether a providerID is empty or only white space (`s.trim() === ''`). Almost every ID
 * starts with a printable ASCII character, which settles it without trimming.
 */
export function isBlank(s: string): boolean {
  const c = s.charCodeAt(0);
  return c > 0x20 && c < 0x7f ? false : s.trim() === '';
}
