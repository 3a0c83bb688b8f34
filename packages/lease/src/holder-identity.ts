import { LeaseConfigError } from './errors.js';

/**
 * Holder identities starting with this prefix are reserved for administrators (from the
 * Node Maintenance Lease KEP): a lease whose holder starts with it counts as held whatever
 * its times say, so `kubectl` alone can fence a node off from automation. No client of
 * this package may use such an identity itself.
 */
export const reservedHolderPrefix = 'kubeadm';

/** A UTF-16 surrogate not part of a pair: with the `u` flag, only those match. */
const loneSurrogate = /\p{Surrogate}/u;

export function isReservedHolder(identity: string | undefined): boolean {
  return identity?.startsWith(reservedHolderPrefix) ?? false;
}

/**
 * Checks the identity a client will write as `holderIdentity`.
 *
 * @throws LeaseConfigError when it is empty, reserved, over 256 characters, holds control
 *   characters or a lone surrogate.
 */
export function checkHolderIdentity(identity: string): string {
  if (typeof identity !== 'string' || identity.trim() === '') {
    throw new LeaseConfigError(
      'a holder identity is required (a non-empty string unique to this participant)',
      'holderIdentity',
    );
  }
  if (
    identity.length > 256 ||
    [...identity].some((c) => c.charCodeAt(0) <= 0x1f || c.charCodeAt(0) === 0x7f)
  ) {
    throw new LeaseConfigError(
      `holder identity ${JSON.stringify(identity)} must be at most 256 characters without control characters (it is printed in every status)`,
      'holderIdentity',
    );
  }
  // (the API server decodes JSON as Go does, turning a lone surrogate into U+FFFD: the stored
  // holder would never equal this identity, and the client would lock itself out of its own
  // lease, refused as "held" by that other spelling until it expires)
  if (loneSurrogate.test(identity)) {
    throw new LeaseConfigError(
      `holder identity ${JSON.stringify(identity)} is not well-formed Unicode (a lone surrogate): the API server would store it altered`,
      'holderIdentity',
    );
  }
  if (isReservedHolder(identity)) {
    throw new LeaseConfigError(
      `holder identity '${identity}' starts with the reserved prefix '${reservedHolderPrefix}', which is for administrators only`,
      'holderIdentity',
    );
  }
  return identity;
}
