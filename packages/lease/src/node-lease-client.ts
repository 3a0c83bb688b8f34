import type { V1Lease, V1OwnerReference } from '@kubernetes/client-node';
import { abortableSleep } from './abortable-sleep.js';
import { decideAcquire } from './decision.js';
import { LeaseApiError } from './errors.js';
import { HeldLease } from './held-lease.js';
import { checkHolderIdentity } from './holder-identity.js';
import type { LeaseAddress, LeaseInspection } from './inspection.js';
import { readLeaseRecord } from './lease-record.js';
import type { AcquireResult, ReleaseResult, RenewResult } from './lease-results.js';
import { parseMicroTime, toMicroTime } from './micro-time.js';
import { NodeLeaseObserver, type NodeLeaseObserverOptions } from './node-lease-observer.js';
import { jitteredRetryMs, nextAcquireAttemptMs } from './timing.js';

export type { AcquireResult, ReleaseResult, RenewResult } from './lease-results.js';

export interface NodeLeaseClientOptions extends NodeLeaseObserverOptions {
  /**
   * Written as `holderIdentity`: unique per participant, non-empty, and not starting with
   * the administrators' reserved prefix `kubeadm`.
   */
  readonly holderIdentity: string;
  /** Create the lease namespace when it is missing (needs `create namespaces`). Default false. */
  readonly ensureNamespace?: boolean;
  /**
   * Give a lease this client creates an ownerReference to its Node, so the lease is garbage
   * collected with the node (needs `get nodes`; the node must exist). Default false.
   */
  readonly ownerReference?: boolean;
  /**
   * How `release` gives the lease up: `update` (default, client-go's way: empty holder,
   * duration 1 s) or `delete` (medik8s' way, with resourceVersion and UID preconditions).
   */
  readonly releaseBy?: 'update' | 'delete';
}

/**
 * Conflicts are normal under contention, but each one means the lease just changed: after
 * this many in a row the attempt gives up with a conflict error instead of spinning.
 */
const maxConflictRetries = 5;

/**
 * A participant in the node maintenance lease protocol (docs/lease.md): acquires, renews,
 * holds and releases one Lease per node. Every write carries the resourceVersion it read;
 * a 409 means re-read and decide again, never overwrite.
 */
export class NodeLeaseClient extends NodeLeaseObserver {
  readonly holderIdentity: string;
  readonly #ensureNamespace: boolean;
  readonly #ownerReference: boolean;
  readonly #releaseBy: 'update' | 'delete';
  /** The last lease this client wrote as holder, per lease key: the optimistic renew path. */
  readonly #written = new Map<string, V1Lease>();

  constructor(options: NodeLeaseClientOptions) {
    super(options);
    this.holderIdentity = checkHolderIdentity(options.holderIdentity);
    this.#ensureNamespace = options.ensureNamespace ?? false;
    this.#ownerReference = options.ownerReference ?? false;
    this.#releaseBy = options.releaseBy ?? 'update';
  }

  protected override get identity(): string {
    return this.holderIdentity;
  }

  /**
   * One attempt to acquire the node's lease: read, decide (decision.ts), write with the
   * read resourceVersion. Does not wait for a held lease to expire.
   *
   * @throws LeaseApiError (403, unreachable, ...); the AbortSignal's reason when aborted.
   */
  async tryAcquire(node: string, options: { signal?: AbortSignal } = {}): Promise<AcquireResult> {
    const { signal } = options;
    const address = this.address(node);
    return this.#guard(signal, async () => {
      for (let attempt = 0; attempt < maxConflictRetries; attempt++) {
        const current = await this.api.read(address.namespace, address.leaseName, signal);
        const record = current === undefined ? undefined : readLeaseRecord(current);
        const inspection = this.judge(address, current, record);
        const decision = decideAcquire(record, this.holderIdentity, inspection);
        if (decision.action === 'refuse') {
          return { acquired: false, because: decision.because, holder: decision.holder, lease: inspection };
        }
        const now = this.clock.now();
        const sentAtMs = this.clock.monotonicMs();
        let written: V1Lease | undefined;
        if (decision.action === 'create') {
          written = await this.#create(address, now, signal);
        } else {
          const previous = record!;
          const keep = decision.action === 'renew';
          written = await this.api.replace(
            address.namespace,
            this.#withSpec(current!, {
              // Renewing keeps acquireTime exactly as written (a Go client's microseconds included).
              acquireTime: keep && previous.acquireTime !== undefined ? undefined : now,
              renewTime: now,
              leaseTransitions: keep ? previous.leaseTransitions : previous.leaseTransitions + 1,
            }),
            signal,
          );
        }
        if (written !== undefined) {
          const how =
            decision.action === 'create' ? 'created' : decision.action === 'renew' ? 'renewed' : 'taken';
          return { acquired: true, how, lease: this.#recordOwnWrite(address, written, sentAtMs), sentAtMs };
        }
        // 409: another writer got there first. Re-read and decide again.
      }
      throw this.#conflict(address, 'acquire');
    });
  }

  /**
   * Acquires the node's lease, waiting while someone else holds it: retries after a retry
   * period plus up to 120 % jitter (client-go's `wait.Jitter(retryPeriod, 1.2)`), or exactly
   * when the lease is due to expire by this client's judgement, whichever comes first. A reserved or foreign lease is waited on like a held one.
   *
   * @throws the AbortSignal's reason when aborted; LeaseApiError on API errors other than
   * conflicts (a caller that wants to ride out outages catches and calls again).
   */
  async acquire(
    node: string,
    options: { signal?: AbortSignal; onWait?: (result: AcquireResult & { acquired: false }) => void } = {},
  ): Promise<AcquireResult & { acquired: true }> {
    for (;;) {
      const result = await this.tryAcquire(node, options);
      if (result.acquired) return result;
      options.onWait?.(result);
      await this.waitToRetry(result, options.signal);
    }
  }

  /**
   * The pause between acquisition attempts after a refusal, shared by `acquire` and
   * `LeaseManager.hold`: a jittered retry period, cut short when the lease expires sooner.
   */
  async waitToRetry(refusal: AcquireResult & { acquired: false }, signal?: AbortSignal): Promise<void> {
    const retry = jitteredRetryMs(this.timing.retryPeriodMs);
    await abortableSleep(nextAcquireAttemptMs(retry, refusal.lease.expiresInMs), signal);
  }

  /**
   * Renews a lease this client holds: renewTime = now, keeping acquireTime and
   * leaseTransitions. Tries the last written version first (one round trip), and on a
   * conflict re-reads and renews only if the holder is still this client.
   *
   * @throws LeaseApiError; the AbortSignal's reason when aborted.
   */
  async renew(node: string, options: { signal?: AbortSignal } = {}): Promise<RenewResult> {
    const { signal } = options;
    const address = this.address(node);
    const key = this.key(address);
    return this.#guard(signal, async () => {
      const cached = this.#written.get(key);
      if (cached !== undefined) {
        const sentAtMs = this.clock.monotonicMs();
        const written = await this.api.replace(
          address.namespace,
          this.#withSpec(cached, { renewTime: this.clock.now() }),
          signal,
        );
        if (written !== undefined) {
          return { renewed: true, lease: this.#recordOwnWrite(address, written, sentAtMs), sentAtMs };
        }
        this.#written.delete(key);
      }
      for (let attempt = 0; attempt < maxConflictRetries; attempt++) {
        const current = await this.api.read(address.namespace, address.leaseName, signal);
        const lease = this.judge(address, current);
        if (current === undefined) return { renewed: false, because: 'absent', holder: undefined, lease };
        if (lease.foreign) return { renewed: false, because: 'foreign', holder: lease.holder, lease };
        if (!lease.heldByMe) return { renewed: false, because: 'lost', holder: lease.holder, lease };
        const now = this.clock.now();
        const sentAtMs = this.clock.monotonicMs();
        const written = await this.api.replace(
          address.namespace,
          this.#withSpec(current, {
            renewTime: now,
            acquireTime: lease.acquireTime === undefined ? now : undefined,
          }),
          signal,
        );
        if (written !== undefined) {
          return { renewed: true, lease: this.#recordOwnWrite(address, written, sentAtMs), sentAtMs };
        }
      }
      throw this.#conflict(address, 'renew');
    });
  }

  /**
   * Gives the lease up if this client holds it: by default writes an empty holder and a
   * duration of 1 s (0 is rejected by validation), acquireTime = renewTime = now, keeping
   * leaseTransitions, so others may take it at once. With `releaseBy: 'delete'` it deletes
   * the lease with resourceVersion and UID preconditions instead. A lease held by someone
   * else is left untouched.
   *
   * @throws LeaseApiError; the AbortSignal's reason when aborted.
   */
  async release(node: string, options: { signal?: AbortSignal } = {}): Promise<ReleaseResult> {
    const { signal } = options;
    const address = this.address(node);
    const key = this.key(address);
    return this.#guard(signal, async () => {
      this.#written.delete(key);
      for (let attempt = 0; attempt < maxConflictRetries; attempt++) {
        const current = await this.api.read(address.namespace, address.leaseName, signal);
        const lease = this.judge(address, current);
        if (current === undefined) return { released: false, because: 'absent', holder: undefined };
        if (!lease.heldByMe || lease.foreign)
          return { released: false, because: 'not-holder', holder: lease.holder };
        if (this.#releaseBy === 'delete') {
          if (await this.api.delete(address.namespace, current, signal)) {
            this.observations.forget(key);
            return { released: true };
          }
          continue;
        }
        const now = this.clock.now();
        const sentAtMs = this.clock.monotonicMs();
        const written = await this.api.replace(
          address.namespace,
          this.#withSpec(current, {
            holderIdentity: '',
            leaseDurationSeconds: 1,
            acquireTime: now,
            renewTime: now,
          }),
          signal,
        );
        if (written !== undefined) {
          this.observations.observeOwnWrite(key, readLeaseRecord(written), sentAtMs);
          return { released: true };
        }
      }
      throw this.#conflict(address, 'release');
    });
  }

  /**
   * Acquires the node's lease (waiting as `acquire` does) and keeps renewing it every retry
   * period. The returned HeldLease's `signal` aborts, with a LeaseLostError as reason, as
   * soon as the lease is lost: another holder is seen, or no renewal has succeeded within
   * the renew deadline (counted from the start of the last successful renewal), which is
   * before anyone else may judge it expired. Stop with `held.release()`; aborting
   * `options.signal` does the same.
   */
  async hold(
    node: string,
    options: { signal?: AbortSignal; onWait?: (result: AcquireResult & { acquired: false }) => void } = {},
  ): Promise<HeldLease> {
    const acquired = await this.acquire(node, options);
    const held = new HeldLease(this, node, acquired);
    held.startRenewing();
    if (options.signal !== undefined) {
      const signal = options.signal;
      const onAbort = () => void held.release().catch(() => {});
      if (signal.aborted) onAbort();
      else signal.addEventListener('abort', onAbort, { once: true });
      held.signal.addEventListener('abort', () => signal.removeEventListener('abort', onAbort), {
        once: true,
      });
    }
    return held;
  }

  /** Forgets the cached written version of a lease (used when a hold ends). */
  forgetWritten(node: string): void {
    this.#written.delete(this.key(this.address(node)));
  }

  #recordOwnWrite(address: LeaseAddress, written: V1Lease, sentAtMs: number): LeaseInspection {
    const key = this.key(address);
    const record = readLeaseRecord(written);
    this.#written.set(key, written);
    this.observations.observeOwnWrite(key, record, sentAtMs);
    return this.judge(address, written, record);
  }

  async #create(
    address: LeaseAddress,
    now: Date,
    signal: AbortSignal | undefined,
  ): Promise<V1Lease | undefined> {
    const ownerReferences = this.#ownerReference ? [await this.#nodeOwner(address.node, signal)] : undefined;
    const body: V1Lease = {
      apiVersion: 'coordination.k8s.io/v1',
      kind: 'Lease',
      metadata: { name: address.leaseName, namespace: address.namespace, ownerReferences },
      spec: {
        holderIdentity: this.holderIdentity,
        leaseDurationSeconds: this.timing.leaseDurationSeconds,
        acquireTime: toMicroTime(now),
        renewTime: toMicroTime(now),
        leaseTransitions: 0,
      },
    };
    try {
      return await this.api.create(address.namespace, body, signal);
    } catch (error) {
      // A missing namespace answers 404 NotFound to a create.
      if (this.#ensureNamespace && error instanceof LeaseApiError && error.code === 'not-found') {
        await this.api.ensureNamespace(address.namespace, signal);
        return await this.api.create(address.namespace, body, signal);
      }
      throw error;
    }
  }

  async #nodeOwner(node: string, signal: AbortSignal | undefined): Promise<V1OwnerReference> {
    const found = await this.api.readNode(node, signal);
    return { apiVersion: 'v1', kind: 'Node', name: node, uid: found.metadata?.uid ?? '' };
  }

  /**
   * `lease` with the five protocol fields rewritten for this holder. Everything else (labels,
   * ownerReferences, resourceVersion) is sent back as read; managedFields are left to the
   * server.
   */
  #withSpec(
    lease: V1Lease,
    /** Omitted fields keep their current value (acquireTime defaults to renewTime when absent). */
    fields: {
      holderIdentity?: string;
      leaseDurationSeconds?: number;
      acquireTime?: Date;
      renewTime: Date;
      leaseTransitions?: number;
    },
  ): V1Lease {
    const spec = lease.spec ?? {};
    const keptAcquireTime = parseMicroTime(spec.acquireTime) === undefined ? undefined : spec.acquireTime;
    return {
      ...lease,
      metadata: { ...lease.metadata, managedFields: undefined },
      spec: {
        ...spec,
        holderIdentity: fields.holderIdentity ?? this.holderIdentity,
        leaseDurationSeconds: fields.leaseDurationSeconds ?? this.timing.leaseDurationSeconds,
        acquireTime:
          fields.acquireTime !== undefined
            ? toMicroTime(fields.acquireTime)
            : (keptAcquireTime ?? toMicroTime(fields.renewTime)),
        renewTime: toMicroTime(fields.renewTime),
        leaseTransitions: fields.leaseTransitions ?? spec.leaseTransitions ?? 0,
      },
    };
  }

  #conflict(address: LeaseAddress, operation: string): LeaseApiError {
    return new LeaseApiError(
      `${operation} lease ${address.namespace}/${address.leaseName}: ${maxConflictRetries} conflicting writes in a row`,
      { code: 'conflict', status: 409, reason: 'Conflict' },
    );
  }

  /** Runs `body`, turning failures after an abort into the abort's own reason. */
  async #guard<T>(signal: AbortSignal | undefined, body: () => Promise<T>): Promise<T> {
    signal?.throwIfAborted();
    try {
      return await body();
    } catch (error) {
      signal?.throwIfAborted();
      throw error;
    }
  }
}
