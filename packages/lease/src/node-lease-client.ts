import type { V1Lease, V1OwnerReference } from '@kubernetes/client-node';
import { abortableSleep } from './abortable-sleep.js';
import {
  type AcquireDecision,
  decideAcquire,
  decideRelease,
  decideRenew,
  nextLeaseTransitions,
} from './decision.js';
import { LeaseApiError } from './errors.js';
import { HeldLease } from './held-lease.js';
import { checkHolderIdentity } from './holder-identity.js';
import type { LeaseAddress, LeaseInspection } from './inspection.js';
import { readLeaseRecord } from './lease-record.js';
import type { AcquireResult, ReleaseResult, RenewResult } from './lease-results.js';
import { parseMicroTime, toMicroTime } from './micro-time.js';
import { NodeLeaseObserver, type NodeLeaseObserverOptions } from './node-lease-observer.js';
import { type LeaseStep, readDecideWrite } from './read-decide-write.js';
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

/** Conflicting writes in a row after which an operation gives up (see read-decide-write.ts). */
const maxConflictRetries = 5;

/** How a successful acquisition came about, by the decision that led to the write. */
const acquiredHow = {
  create: 'created',
  renew: 'renewed',
  take: 'taken',
} as const satisfies Record<Exclude<AcquireDecision['action'], 'refuse'>, string>;

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
    return this.#guard(signal, () =>
      this.#readDecideWrite<AcquireResult>(address, 'acquire', signal, (current) => {
        const record = current === undefined ? undefined : readLeaseRecord(current);
        const inspection = this.judge(address, current, record);
        const decision = decideAcquire(record, this.holderIdentity, inspection);
        if (decision.action === 'refuse') {
          return {
            outcome: {
              acquired: false,
              because: decision.because,
              holder: decision.holder,
              lease: inspection,
            },
          };
        }
        return {
          write: async () => {
            const now = this.clock.now();
            const sentAtMs = this.clock.monotonicMs();
            const keep = decision.action === 'renew';
            let written: V1Lease | undefined;
            try {
              written =
                decision.action === 'create'
                  ? await this.#create(address, now, signal)
                  : await this.api.replace(
                      address.namespace,
                      this.#withSpec(current!, {
                        // Renewing keeps acquireTime exactly as written (a Go client's microseconds included).
                        acquireTime: keep && record!.acquireTime !== undefined ? undefined : now,
                        renewTime: now,
                        leaseTransitions: keep
                          ? record!.leaseTransitions
                          : nextLeaseTransitions(record!.leaseTransitions),
                      }),
                      signal,
                    );
            } catch (error) {
              // Aborted with the write sent: it may have landed, and this client would hold the
              // node until the lease expires while its caller believes it holds nothing. It is
              // given back first (release reads, and leaves a lease it does not hold alone).
              // A lease this client held before the call stays held.
              if (signal?.aborted && !keep) await this.release(node).catch(() => {});
              throw error;
            }
            if (written === undefined) return undefined;
            const how = acquiredHow[decision.action];
            return { acquired: true, how, lease: this.#recordOwnWrite(address, written, sentAtMs), sentAtMs };
          },
        };
      }),
    );
  }

  /**
   * Acquires the node's lease, waiting while someone else holds it: retries after a retry
   * period plus up to 120 % jitter (client-go's `wait.Jitter(retryPeriod, 1.2)`), or exactly
   * when the lease is due to expire by this client's judgement, whichever comes first. A
   * reserved or foreign lease is waited on like a held one.
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
      return await this.#readDecideWrite<RenewResult>(address, 'renew', signal, (current) => {
        const lease = this.judge(address, current);
        const decision = decideRenew(lease);
        if (decision.action === 'refuse') {
          return { outcome: { renewed: false, because: decision.because, holder: lease.holder, lease } };
        }
        return {
          write: async () => {
            const now = this.clock.now();
            const sentAtMs = this.clock.monotonicMs();
            const written = await this.api.replace(
              address.namespace,
              this.#withSpec(current!, {
                renewTime: now,
                acquireTime: lease.acquireTime === undefined ? now : undefined,
              }),
              signal,
            );
            if (written === undefined) return undefined;
            return { renewed: true, lease: this.#recordOwnWrite(address, written, sentAtMs), sentAtMs };
          },
        };
      });
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
      return await this.#readDecideWrite<ReleaseResult>(address, 'release', signal, (current) => {
        const lease = this.judge(address, current);
        const decision = decideRelease(lease);
        if (decision.action === 'refuse') {
          return { outcome: { released: false, because: decision.because, holder: lease.holder } };
        }
        return { write: () => this.#giveUp(address, current!, signal) };
      });
    });
  }

  /** The release write: delete with preconditions, or an empty holder (undefined on 409). */
  async #giveUp(
    address: LeaseAddress,
    current: V1Lease,
    signal: AbortSignal | undefined,
  ): Promise<ReleaseResult | undefined> {
    const key = this.key(address);
    if (this.#releaseBy === 'delete') {
      if (!(await this.api.delete(address.namespace, current, signal))) return undefined;
      this.observations.forget(key);
      return { released: true };
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
    if (written === undefined) return undefined;
    this.observations.observeOwnWrite(key, readLeaseRecord(written), sentAtMs);
    return { released: true };
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

  /** acquire, renew and release: one read-decide-write loop (read-decide-write.ts) on this lease. */
  #readDecideWrite<T>(
    address: LeaseAddress,
    operation: 'acquire' | 'renew' | 'release',
    signal: AbortSignal | undefined,
    decide: (current: V1Lease | undefined) => LeaseStep<T>,
  ): Promise<T> {
    return readDecideWrite(
      () => this.api.read(address.namespace, address.leaseName, signal),
      decide,
      maxConflictRetries,
      () => this.#conflict(address, operation),
    );
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
