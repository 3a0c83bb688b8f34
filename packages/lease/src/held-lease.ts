import { pause } from './abortable-sleep.js';
import type { Clock } from './clock.js';
import { type LeaseLossReason, LeaseLostError } from './errors.js';
import type { LeaseInspection } from './inspection.js';
import type { AcquireResult, ReleaseResult, RenewResult } from './lease-results.js';
import type { LeaseTiming } from './timing.js';

/**
 * What a held lease needs from the client that acquired it: renew and release calls, the
 * timing and clock it judges its validity by. `NodeLeaseClient` is one; the held lease
 * depends on this, not on the client, so the two modules do not import each other.
 */
export interface LeaseRenewer {
  readonly timing: Pick<LeaseTiming, 'renewDeadlineMs' | 'retryPeriodMs'>;
  readonly clock: Pick<Clock, 'monotonicMs'>;
  renew(node: string, options?: { signal?: AbortSignal }): Promise<RenewResult>;
  release(node: string): Promise<ReleaseResult>;
  /** Drops what the client remembers of its own last write to the node's lease. */
  forgetWritten(node: string): void;
}

/** How one renewal attempt of a held lease ended. */
export type RenewOutcome = 'renewed' | 'failed' | 'lost' | 'inactive';

/**
 * A lease this process holds and keeps renewing (from `NodeLeaseClient.hold` or a
 * LeaseManager).
 *
 * The holder's belief is bounded by the renew deadline: it holds the lease only until
 * `renewDeadlineMs` after the *start* of its last successful renewal. The server applied that
 * renewal no earlier than its start, so any other client judges the lease expired no earlier
 * than start + leaseDuration; the difference (duration − renew deadline) is the margin that
 * keeps two holders from overlapping, as long as clocks run at the same rate.
 */
export class HeldLease {
  readonly node: string;
  readonly #client: LeaseRenewer;
  readonly #controller = new AbortController();
  #lease: LeaseInspection;
  #lastRenewSentAtMs: number;
  #deadlineTimer: NodeJS.Timeout | undefined;
  #stopped = false;
  #inFlight: Promise<RenewOutcome> | undefined;
  #lost: LeaseLostError | undefined;
  readonly #ended: Promise<LeaseLostError | undefined>;
  #resolveEnded!: (value: LeaseLostError | undefined) => void;

  constructor(client: LeaseRenewer, node: string, acquired: AcquireResult & { acquired: true }) {
    this.#client = client;
    this.node = node;
    this.#lease = acquired.lease;
    this.#lastRenewSentAtMs = acquired.sentAtMs;
    this.#ended = new Promise((resolve) => {
      this.#resolveEnded = resolve;
    });
    this.#armDeadline();
  }

  /**
   * Aborts when this process must stop acting as holder: with a LeaseLostError as reason
   * when the lease was lost, with an AbortError after `release()`.
   */
  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  /** Resolves when the hold ends: to the LeaseLostError, or undefined after `release()`. */
  get ended(): Promise<LeaseLostError | undefined> {
    return this.#ended;
  }

  /** The loss, once lost. */
  get lost(): LeaseLostError | undefined {
    return this.#lost;
  }

  /** The lease as last written by this holder. */
  get lease(): LeaseInspection {
    return this.#lease;
  }

  /** Monotonic time (clock.monotonicMs) at which the last successful renewal was sent. */
  get lastRenewSentAtMs(): number {
    return this.#lastRenewSentAtMs;
  }

  /** Monotonic time until which this process may act as holder without a further renewal. */
  get validUntilMs(): number {
    return this.#lastRenewSentAtMs + this.#client.timing.renewDeadlineMs;
  }

  /**
   * Whether the lease is held right now. Checks the clock itself, not only the deadline
   * timer, so a late timer (a busy event loop) cannot extend the belief.
   */
  isHeld(): boolean {
    return !this.#controller.signal.aborted && this.#client.clock.monotonicMs() < this.validUntilMs;
  }

  /**
   * One renewal. Concurrent calls share the one in flight. A renewal that finds another
   * holder ends the hold at once; a failed one (timeout, connection refused, 5xx) is
   * retried by the next cycle until the renew deadline ends the hold.
   */
  renewOnce(): Promise<RenewOutcome> {
    if (this.#stopped || this.#controller.signal.aborted) return Promise.resolve('inactive');
    this.#inFlight ??= this.#renew().finally(() => {
      this.#inFlight = undefined;
    });
    return this.#inFlight;
  }

  /** Starts this lease's own renewal loop (a LeaseManager drives renewals itself instead). */
  startRenewing(): void {
    void (async () => {
      const { retryPeriodMs } = this.#client.timing;
      while (!this.#stopped && !this.#controller.signal.aborted) {
        // Renewals come every retry period without jitter, as client-go's renew loop does: a
        // jittered pause could reach 2.2 retry periods, past a renew deadline of 1.2.
        if (!(await pause(retryPeriodMs, this.#controller.signal))) return;
        await this.renewOnce();
      }
    })();
  }

  /**
   * Stops renewing and gives the lease up (if this process still holds it on the server).
   * The signal aborts whatever the outcome. Resolves to undefined when the hold had already
   * been lost, in which case nothing is written.
   */
  release(): Promise<ReleaseResult | undefined> {
    // Idempotent: a second call (the caller's signal and the caller itself) shares the first.
    this.#releasing ??= this.#release();
    return this.#releasing;
  }

  #releasing: Promise<ReleaseResult | undefined> | undefined;

  async #release(): Promise<ReleaseResult | undefined> {
    if (this.#stopped) return undefined;
    this.#stopped = true;
    this.#clearDeadline();
    await this.#inFlight?.catch(() => {});
    const wasLost = this.#lost !== undefined;
    this.#end(undefined, new DOMException('the lease was released', 'AbortError'));
    this.#client.forgetWritten(this.node);
    if (wasLost) return undefined;
    return await this.#client.release(this.node);
  }

  /**
   * Stops renewing without writing anything: the lease stays with this identity on the
   * server and expires on its own after its duration (a deliberate "long hold" that outlives
   * this process, or a crash in tests). The signal aborts at once.
   */
  abandon(): void {
    if (this.#stopped) return;
    this.#stopped = true;
    this.#clearDeadline();
    this.#client.forgetWritten(this.node);
    this.#end(undefined, new DOMException('the lease was abandoned', 'AbortError'));
  }

  async #renew(): Promise<RenewOutcome> {
    try {
      const result = await this.#client.renew(this.node, { signal: this.#controller.signal });
      if (this.#controller.signal.aborted) return 'inactive';
      if (result.renewed) {
        this.#lease = result.lease;
        this.#lastRenewSentAtMs = Math.max(this.#lastRenewSentAtMs, result.sentAtMs);
        this.#armDeadline();
        return 'renewed';
      }
      const because =
        result.because === 'absent' ? 'deleted' : result.because === 'foreign' ? 'foreign' : 'taken';
      this.#lose(
        because,
        because === 'deleted'
          ? 'the lease was deleted'
          : because === 'foreign'
            ? 'the lease now uses Coordinated Leader Election fields'
            : result.holder === undefined
              ? 'the lease was released by someone else (it has no holder)'
              : `the lease is now held by '${result.holder}'`,
        result.holder,
      );
      return 'lost';
    } catch (error) {
      if (this.#controller.signal.aborted) return 'inactive';
      this.#lastError = error;
      return 'failed';
    }
  }

  #lastError: unknown;

  #armDeadline(): void {
    this.#clearDeadline();
    const remaining = this.validUntilMs - this.#client.clock.monotonicMs();
    this.#deadlineTimer = setTimeout(() => this.#onDeadline(), Math.max(0, remaining));
  }

  #onDeadline(): void {
    this.#deadlineTimer = undefined;
    if (this.#stopped || this.#controller.signal.aborted) return;
    if (this.#client.clock.monotonicMs() < this.validUntilMs) {
      this.#armDeadline();
      return;
    }
    const cause = this.#lastError instanceof Error ? `: ${this.#lastError.message}` : '';
    this.#lose(
      'deadline',
      `no successful renewal within the renew deadline (${this.#client.timing.renewDeadlineMs} ms)${cause}`,
    );
  }

  #lose(because: LeaseLossReason, why: string, holder?: string): void {
    if (this.#controller.signal.aborted) return;
    const error = new LeaseLostError(
      `lost the maintenance lease of node ${this.node}: ${why}`,
      this.node,
      holder,
      this.#lastError === undefined ? undefined : { cause: this.#lastError },
      because,
    );
    this.#lost = error;
    this.#clearDeadline();
    this.#client.forgetWritten(this.node);
    this.#end(error, error);
  }

  #end(result: LeaseLostError | undefined, reason: unknown): void {
    if (!this.#controller.signal.aborted) this.#controller.abort(reason);
    this.#resolveEnded(result);
  }

  #clearDeadline(): void {
    if (this.#deadlineTimer !== undefined) clearTimeout(this.#deadlineTimer);
    this.#deadlineTimer = undefined;
  }
}
