import type { SplitProviderID } from './types.js';

// A URI scheme (RFC 3986 §3.1). Linear: one character class, no nesting.
const URI_SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*$/;

/**
 * Splits a providerID into scheme, separator and rest the way Cluster API reads it: the
 * scheme is the text before the first ':'. Text before ':' that is not a URI scheme (a
 * bare ID that happens to contain ':') leaves the whole input as a scheme-less `rest`.
 * Runs in one pass; never throws.
 */
export function splitProviderID(input: string): SplitProviderID {
  const colon = input.indexOf(':');
  if (colon > 0) {
    const scheme = input.slice(0, colon);
    if (URI_SCHEME.test(scheme)) {
      if (input.startsWith('//', colon + 1)) {
        return { input, scheme, separator: '://', rest: input.slice(colon + 3) };
      }
      return { input, scheme, separator: ':', rest: input.slice(colon + 1) };
    }
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
