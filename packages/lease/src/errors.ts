/** A client was configured wrongly: bad timing, a missing or reserved holder identity. */
export class LeaseConfigError extends Error {
  override readonly name = 'LeaseConfigError';
}

/** How an API call failed, in terms a caller can act on. */
export type LeaseApiErrorKind =
  /** 401: the credentials were refused. */
  | 'unauthorized'
  /** 403: RBAC denies the verb on leases (or namespaces, nodes) for this user. */
  | 'forbidden'
  /** 404 on something that must exist (the namespace, the node for an ownerReference). */
  | 'not-found'
  /** 409 the caller could not resolve by re-reading. */
  | 'conflict'
  /** 400 or 422: the server refused the object. */
  | 'invalid'
  /** The server could not be reached or the connection broke. */
  | 'unreachable'
  /** No answer within the request timeout. */
  | 'timeout'
  /** Any other status (5xx, 429, ...). */
  | 'server';

/**
 * An API call that failed. `message` names the operation, the lease and the server's own
 * explanation (for a 403 that is the RBAC sentence naming user, verb and resource).
 */
export class LeaseApiError extends Error {
  override readonly name = 'LeaseApiError';
  constructor(
    message: string,
    readonly kind: LeaseApiErrorKind,
    /** The HTTP status, when the server answered. */
    readonly status?: number,
    /** The Status `reason` (Forbidden, Conflict, NotFound, ...), when the server gave one. */
    readonly reason?: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}

/**
 * Held-lease loss: renewals did not succeed within the renew deadline, or another holder
 * (or an administrator) took the lease. It is the reason of the hold's AbortSignal.
 */
export class LeaseLostError extends Error {
  override readonly name = 'LeaseLostError';
  constructor(
    message: string,
    readonly node: string,
    /** Who holds the lease now, when known. */
    readonly holder?: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}
