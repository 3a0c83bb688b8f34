import type { Clock } from './clock.js';
import { isReserved, type LeaseRecord } from './lease-record.js';

/**
 * When this client last saw each lease change, on its monotonic clock. This is
 * client-go's rule: timestamps inside the lease come from other machines' clocks and are
 * only used to notice that something changed; the lease is judged expired once a whole
 * `leaseDurationSeconds` has passed locally without any change. It is immune to clock
 * skew (not to clock *rate* differences), at the price that a process seeing a lease for
 * the first time must wait a full duration before it may take it over.
 */
export class ObservationLog {
  readonly #seen = new Map<string, { fingerprint: string; atMs: number }>();

  constructor(private readonly clock: Clock) {}

  /** Records `record` as seen now; returns the monotonic time of its last change. */
  observe(key: string, record: LeaseRecord): number {
    const previous = this.#seen.get(key);
    if (previous !== undefined && previous.fingerprint === record.fingerprint) return previous.atMs;
    const atMs = this.clock.monotonicMs();
    this.#seen.set(key, { fingerprint: record.fingerprint, atMs });
    return atMs;
  }

  /**
   * Records a write of our own: the server has the new spec, and the change happened no
   * earlier than `sentAtMs`, when the request left. Using the send time (not the answer
   * time) keeps our own estimate of the lease's end on the safe side.
   */
  observeOwnWrite(key: string, record: LeaseRecord, sentAtMs: number): void {
    this.#seen.set(key, { fingerprint: record.fingerprint, atMs: sentAtMs });
  }

  forget(key: string): void {
    this.#seen.delete(key);
  }
}

/**
 * Opt-in: also trust the remote `renewTime`. A lease is then expired as soon as
 * `renewTime + leaseDurationSeconds + maxClockSkewMs` is in the past on the local wall
 * clock, even if this process only just saw it. That lets a fresh process take over a
 * long-abandoned lease (written with a 1 h duration, say) without waiting a whole
 * duration, at the price of depending on clocks agreeing within `maxClockSkewMs`.
 */
export interface RemoteRenewTimePolicy {
  readonly maxClockSkewMs: number;
}

/** The KEP's allowance for clock drift when judging by renewTime. */
export const defaultMaxClockSkewMs = 3000;

/**
 * The state of a lease as this client judges it.
 * - `absent`: no Lease object.
 * - `free`: nobody holds it (empty holderIdentity).
 * - `held`: a holder whose lease has not expired by the rules in force.
 * - `expired`: a holder whose lease has expired: it may be taken over.
 * - `reserved`: an administrator's hold (holder starts with `kubeadm`): held, never expires.
 */
export type LeaseState = 'absent' | 'free' | 'held' | 'expired' | 'reserved';

export interface ExpiryJudgement {
  readonly state: Exclude<LeaseState, 'absent'>;
  /**
   * For `held` and `expired`: milliseconds until (positive) or since (negative) expiry, on
   * the local monotonic clock.
   */
  readonly expiresInMs: number | undefined;
  /** Which rule decided: the local observation, or the remote renewTime (opt-in). */
  readonly decidedBy: 'local-observation' | 'remote-renew-time' | undefined;
}

/**
 * Judges a lease. `observedAtMs` is from ObservationLog. When the lease has a holder but
 * no usable `leaseDurationSeconds`, `fallbackDurationSeconds` (the client's own duration)
 * is used, so a lease written without a duration is treated as held rather than free.
 */
export function judgeExpiry(
  record: LeaseRecord,
  observedAtMs: number,
  clock: Clock,
  fallbackDurationSeconds: number,
  remote?: RemoteRenewTimePolicy,
): ExpiryJudgement {
  if (isReserved(record)) return { state: 'reserved', expiresInMs: undefined, decidedBy: undefined };
  if (record.holderIdentity === '') return { state: 'free', expiresInMs: undefined, decidedBy: undefined };
  const durationMs =
    (record.leaseDurationSeconds !== undefined && record.leaseDurationSeconds > 0
      ? record.leaseDurationSeconds
      : fallbackDurationSeconds) * 1000;
  let expiresInMs = observedAtMs + durationMs - clock.monotonicMs();
  let decidedBy: ExpiryJudgement['decidedBy'] = 'local-observation';
  if (remote !== undefined && record.renewTime !== undefined) {
    const remoteExpiresInMs =
      record.renewTime.getTime() + durationMs + remote.maxClockSkewMs - clock.now().getTime();
    // The earlier end wins: the remote rule can only shorten the wait, never extend a lease
    // whose renewTime lies in the future because the writer's clock runs ahead.
    if (remoteExpiresInMs < expiresInMs) {
      expiresInMs = remoteExpiresInMs;
      decidedBy = 'remote-renew-time';
    }
  }
  return { state: expiresInMs > 0 ? 'held' : 'expired', expiresInMs, decidedBy };
}
