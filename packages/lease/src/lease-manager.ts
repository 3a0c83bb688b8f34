import { pause } from './abortable-sleep.js';
import { LeaseConfigError } from './errors.js';
import { HeldLease, type RenewOutcome } from './held-lease.js';
import type { AcquireResult, NodeLeaseClient } from './node-lease-client.js';

export interface LeaseManagerOptions {
  /** At most this many API requests in flight at once (acquisitions and renewals). Default 16. */
  readonly concurrency?: number;
}

/** What one renewal cycle did. */
export interface RenewCycleReport {
  readonly renewed: number;
  readonly failed: number;
  readonly lost: number;
  readonly durationMs: number;
}

/**
 * Holds leases for many nodes from one process: one renewal cycle per retry period renews
 * every held lease, with at most `concurrency` requests in flight, so a thousand nodes do not
 * open a thousand connections at once. Each lease keeps its own renew deadline and loss
 * signal (HeldLease), so one slow node cannot make the manager believe in another.
 */
export class LeaseManager {
  readonly client: NodeLeaseClient;
  readonly concurrency: number;
  readonly #held = new Map<string, HeldLease>();
  readonly #slots: Array<() => void> = [];
  #active = 0;
  #loop: AbortController | undefined;

  constructor(client: NodeLeaseClient, options: LeaseManagerOptions = {}) {
    const concurrency = options.concurrency ?? 16;
    if (!Number.isInteger(concurrency) || concurrency < 1) {
      throw new LeaseConfigError(
        `concurrency must be a whole number >= 1 (got ${concurrency})`,
        'concurrency',
      );
    }
    this.client = client;
    this.concurrency = concurrency;
  }

  /** The leases currently held, by node. */
  get held(): ReadonlyMap<string, HeldLease> {
    return this.#held;
  }

  /**
   * One acquisition attempt; on success the lease joins the renewal cycles. Resolves to the
   * HeldLease, or to the refusal (held, reserved, foreign).
   */
  async tryHold(
    node: string,
    options: { signal?: AbortSignal } = {},
  ): Promise<HeldLease | (AcquireResult & { acquired: false })> {
    const existing = this.#held.get(node);
    if (existing !== undefined && !existing.signal.aborted) return existing;
    const result = await this.#withSlot(() => this.client.tryAcquire(node, options));
    return result.acquired ? this.#adopt(node, result) : result;
  }

  /** Acquires (waiting while someone else holds it) and joins the renewal cycles. */
  async hold(node: string, options: { signal?: AbortSignal } = {}): Promise<HeldLease> {
    for (;;) {
      const result = await this.tryHold(node, options);
      if (result instanceof HeldLease) return result;
      await this.client.waitToRetry(result, options.signal);
    }
  }

  /**
   * Renews every held lease once, `concurrency` at a time. Leases found lost leave the
   * manager (their signals have aborted).
   */
  async renewAll(): Promise<RenewCycleReport> {
    const started = performance.now();
    const counts: Record<RenewOutcome, number> = { renewed: 0, failed: 0, lost: 0, inactive: 0 };
    await Promise.all(
      [...this.#held.values()].map(async (held) => {
        const outcome = await this.#withSlot(() => held.renewOnce());
        counts[outcome]++;
      }),
    );
    return {
      renewed: counts.renewed,
      failed: counts.failed,
      lost: counts.lost + counts.inactive,
      durationMs: performance.now() - started,
    };
  }

  /** Starts renewal cycles every retry period (from the end of one cycle to the start of the next). */
  start(): void {
    if (this.#loop !== undefined) return;
    const loop = new AbortController();
    this.#loop = loop;
    void (async () => {
      while (!loop.signal.aborted) {
        if (!(await pause(this.client.timing.retryPeriodMs, loop.signal))) return;
        await this.renewAll();
      }
    })();
  }

  /** Releases one node's lease and drops it from the cycles. */
  async release(node: string) {
    const held = this.#held.get(node);
    if (held === undefined) return undefined;
    this.#held.delete(node);
    return await this.#withSlot(() => held.release());
  }

  /** Stops the cycles and releases every lease (`concurrency` at a time). */
  async stop(): Promise<void> {
    this.#loop?.abort();
    this.#loop = undefined;
    await Promise.allSettled([...this.#held.keys()].map((node) => this.release(node)));
  }

  #adopt(node: string, acquired: AcquireResult & { acquired: true }): HeldLease {
    const held = new HeldLease(this.client, node, acquired);
    this.#held.set(node, held);
    held.signal.addEventListener(
      'abort',
      () => {
        if (this.#held.get(node) === held) this.#held.delete(node);
      },
      { once: true },
    );
    return held;
  }

  async #withSlot<T>(task: () => Promise<T>): Promise<T> {
    if (this.#active >= this.concurrency) {
      await new Promise<void>((resolve) => this.#slots.push(resolve));
    } else {
      this.#active++;
    }
    try {
      return await task();
    } finally {
      const next = this.#slots.shift();
      if (next !== undefined) next();
      else this.#active--;
    }
  }
}
