import { nonEmptySegments, splitProviderID } from './split.js';
import type { InstanceIdentity, SplitProviderID } from './types.js';

// Characters with a meaning inside a key are percent-escaped inside parts, so that
// distinct identities can never produce the same key.
const KEY_SPECIAL = /[%/@|]/g;
const HAS_KEY_SPECIAL = /[%/@|]/;
// Most parts need no escaping; testing first avoids a replace (and its allocation) per part.
const escapePart = (part: string) =>
  HAS_KEY_SPECIAL.test(part)
    ? part.replace(KEY_SPECIAL, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
    : part;

/** The key without its qualifier: what an ID of the same instance without qualifier has. */
export function unqualifiedKey(identity: InstanceIdentity): string {
  let key = `${identity.space}|`;
  for (let i = 0; i < identity.parts.length; i++)
    key += (i === 0 ? '' : '/') + escapePart(identity.parts[i]!);
  return key;
}

/**
 * The identity key: `space|part/part[@qualifier]`. Two IDs with equal keys are the same
 * instance; an ID whose qualifier is absent also matches IDs of the same `space|parts`
 * with any qualifier (see `unqualifiedKey`).
 */
export function identityKey(identity: InstanceIdentity): string {
  return withQualifier(unqualifiedKey(identity), identity);
}

/** Appends the escaped qualifier, if any, to an unqualified key. */
export function withQualifier(unqualified: string, identity: InstanceIdentity): string {
  return identity.qualifier ? `${unqualified}@${escapePart(identity.qualifier)}` : unqualified;
}

/**
 * The identity of a string no cloud grammar accepted (an unknown scheme, or a known scheme
 * in a shape its cloud never writes). Only the scheme and the non-empty segments count, so
 * IDs that differ only in the number of slashes (Outscale's `aws://z/i` against
 * `aws:///z/i`) share it. Strings without "://" identify themselves verbatim.
 */
export function structuralIdentity(input: string): InstanceIdentity {
  return structuralIdentityOfSplit(splitProviderID(input));
}

/** `structuralIdentity` of an input already split (spares splitting it again). */
export function structuralIdentityOfSplit(split: SplitProviderID): InstanceIdentity {
  if (split.separator === '://') return { space: `~${split.scheme}`, parts: nonEmptySegments(split.rest) };
  return { space: '~', parts: [split.input] };
}

export function partsEqual(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
