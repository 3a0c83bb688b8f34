/**
 * The package's errors follow the project's convention (docs/architecture.md): each is
 * tagged `code` (a string literal) and carries a `message` and, where one field is to
 * blame, a `path`. They are thrown (the APIs are async), so each is an Error subclass;
 * `LeaseError` is their union, to switch on `code`.
 */

/** A client was configured wrongly: bad timing, a missing or reserved holder identity. */
export class LeaseConfigError extends Error {
  override readonly name = 'LeaseConfigError';
  readonly code = 'invalid-config' as const;
  constructor(
    message: string,
    /** The option at fault (`holderIdentity`, `timing`, `concurrency`, ...). */
    readonly path?: string,
  ) {
    super(message);
  }
}

/**
 * Whether `error` says that `node` can have no lease here: its name is no Node name, or the
 * layout makes it a lease name the API server refuses (medik8s' `node-` prefix on a Node name
 * of 249–253 characters). No one can hold such a lease, so a caller judging many nodes counts
 * that node as under none, rather than failing for all of them.
 */
export function isNodeWithoutLease(error: unknown): error is LeaseConfigError {
  return error instanceof LeaseConfigError && error.path === 'node';
}

/** How an API call failed, in terms a caller can act on. */
export type LeaseApiErrorCode =
  /** 401: the credentials were refused. */
  | 'unauthorized'
  /** 403: RBAC denies the verb on leases (or namespaces, nodes) for this user. */
  | 'forbidden'
  /** 404 on something that must exist (the namespace, the node for an ownerReference). */
  | 'not-found'
  /** 409 the caller could not resolve by re-reading. */
  | 'conflict'
  /** 400 or 422: the server refused the object (`path` names the field, when it said which). */
  | 'invalid'
  /** The server could not be reached or the connection broke. */
  | 'unreachable'
  /** No answer within the request timeout. */
  | 'timeout'
  /** Any other status (5xx, 429, ...). */
  | 'server'
  /**
   * A successful answer (2xx) that is not the Lease asked for: not JSON (an HTML page), not an
   * object, another kind, another name or namespace, no resourceVersion, a spec field of the
   * wrong type, or, after a write, a holder other than the one written. `path` names the
   * field (`''`: the whole answer). Nothing is acquired, renewed or released on such an answer.
   */
  | 'unreadable-lease';

/** What the server said about a failed call, beyond the code. */
export interface LeaseApiErrorDetails {
  readonly code: LeaseApiErrorCode;
  /** The HTTP status, when the server answered. */
  readonly status?: number;
  /** The Status `reason` (Forbidden, Conflict, NotFound, ...), when the server gave one. */
  readonly reason?: string;
  /** The field the server refused (a 422's first cause, e.g. `spec.leaseDurationSeconds`). */
  readonly path?: string;
}

/**
 * An API call that failed. `message` names the operation, the lease and the server's own
 * explanation (for a 403 that is the RBAC sentence naming user, verb and resource).
 */
export class LeaseApiError extends Error {
  override readonly name = 'LeaseApiError';
  readonly code: LeaseApiErrorCode;
  readonly status: number | undefined;
  readonly reason: string | undefined;
  readonly path: string | undefined;
  constructor(message: string, details: LeaseApiErrorDetails, options?: ErrorOptions) {
    super(message, options);
    this.code = details.code;
    this.status = details.status;
    this.reason = details.reason;
    this.path = details.path;
  }
}

/**
 * Why a held lease was lost:
 * - `taken`: the server shows another holder (another participant, an administrator), or
 *   no holder at all (someone else released it);
 * - `deleted`: the Lease object is gone;
 * - `foreign`: the lease now carries Coordinated Leader Election fields;
 * - `deadline`: no renewal succeeded within the renew deadline (the API failed or was slow);
 *   the lease may still name this holder on the server.
 */
export type LeaseLossReason = 'taken' | 'deleted' | 'foreign' | 'deadline';

/**
 * Held-lease loss: renewals did not succeed within the renew deadline, or another holder
 * (or an administrator) took the lease, or it was deleted. It is the reason of the hold's
 * AbortSignal; `because` says which.
 */
export class LeaseLostError extends Error {
  override readonly name = 'LeaseLostError';
  readonly code = 'lost' as const;
  constructor(
    message: string,
    readonly node: string,
    /** Who holds the lease now, when known. */
    readonly holder?: string,
    options?: ErrorOptions,
    /** Why it was lost (see LeaseLossReason). */
    readonly because: LeaseLossReason = holder === undefined ? 'deadline' : 'taken',
  ) {
    super(message, options);
  }
}

/** Every error this package throws, tagged `code`. */
export type LeaseError = LeaseConfigError | LeaseApiError | LeaseLostError;
