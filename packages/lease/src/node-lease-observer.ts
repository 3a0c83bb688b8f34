import type { KubeConfig, V1Lease } from '@kubernetes/client-node';
import { type Clock, systemClock } from './clock.js';
import { LeaseConfigError } from './errors.js';
import { defaultMaxClockSkewMs, judgeExpiry, ObservationLog, type RemoteRenewTimePolicy } from './expiry.js';
import {
  absentInspection,
  describeLease,
  isUnderMaintenanceState,
  type LeaseAddress,
  type LeaseInspection,
} from './inspection.js';
import { LeaseApi } from './lease-api.js';
import { readLeaseRecord } from './lease-record.js';
import { type LeaseChange, maxWatchTimeoutSeconds, watchLeases } from './lease-watch.js';
import {
  defaultLeaseNamespace,
  isDnsLabel,
  isDnsSubdomain,
  kubeletHeartbeatNamespace,
  type LeaseLocation,
  nodeNamedLeases,
} from './location.js';
import { type LeaseTiming, resolveLeaseTiming } from './timing.js';

export interface NodeLeaseObserverOptions {
  /** Credentials and cluster (e.g. `KubeConfig.loadFromDefault()`). */
  readonly kubeConfig: KubeConfig;
  /**
   * Namespace and naming of the leases. Default: the KEP layout, namespace
   * `kube-node-maintenance`, lease named after the node. See `medik8sLeases()`.
   */
  readonly location?: LeaseLocation;
  /** Shorthand for `location: nodeNamedLeases(namespace)`; ignored when `location` is set. */
  readonly namespace?: string;
  /**
   * Timing. Its `leaseDurationSeconds` is also what a lease without a usable duration is
   * judged with. Default: `defaultLeaseTiming`.
   */
  readonly timing?: Partial<LeaseTiming>;
  /**
   * Opt-in: also judge expiry by the lease's remote renewTime plus an allowance for clock
   * skew (`true` means the KEP's 3 s). Off by default: expiry is then judged only on the
   * local clock from when this client last saw the lease change.
   */
  readonly trustRenewTime?: boolean | RemoteRenewTimePolicy;
  /** Injectable clock, for tests. */
  readonly clock?: Clock;
  /**
   * Per-request timeout, whole milliseconds from 1 to 2^31 - 1. Default: max(1 s,
   * renewDeadline / 2), as client-go.
   */
  readonly requestTimeoutMs?: number;
}

/** The longest delay a Node timer takes (about 24.8 days); a longer one fires after 1 ms. */
const maxTimerMs = 2 ** 31 - 1;

/**
 * Reads node maintenance leases without ever writing them: for health checkers,
 * autoscalers and other tools that must leave nodes under maintenance alone.
 */
export class NodeLeaseObserver {
  readonly location: LeaseLocation;
  readonly timing: LeaseTiming;
  readonly clock: Clock;
  protected readonly api: LeaseApi;
  protected readonly observations: ObservationLog;
  protected readonly remote: RemoteRenewTimePolicy | undefined;
  protected readonly kubeConfig: KubeConfig;

  constructor(options: NodeLeaseObserverOptions) {
    if (options.kubeConfig === undefined) throw new LeaseConfigError('kubeConfig is required', 'kubeConfig');
    this.kubeConfig = options.kubeConfig;
    this.location = options.location ?? nodeNamedLeases(options.namespace);
    this.timing = resolveLeaseTiming(options.timing);
    this.clock = options.clock ?? systemClock;
    this.observations = new ObservationLog(this.clock);
    const trust = options.trustRenewTime;
    this.remote =
      trust === true ? { maxClockSkewMs: defaultMaxClockSkewMs } : trust === false ? undefined : trust;
    if (this.remote !== undefined && !(this.remote.maxClockSkewMs >= 0)) {
      throw new LeaseConfigError(
        `trustRenewTime.maxClockSkewMs must be >= 0 (got ${this.remote.maxClockSkewMs})`,
        'trustRenewTime.maxClockSkewMs',
      );
    }
    const requestTimeoutMs =
      options.requestTimeoutMs ?? Math.max(1000, Math.round(this.timing.renewDeadlineMs / 2));
    // (a timer takes whole milliseconds up to 2^31 - 1: anything else failed every request as
    // "cannot reach the API server", or timed it out after 1 ms)
    if (!Number.isInteger(requestTimeoutMs) || requestTimeoutMs < 1 || requestTimeoutMs > maxTimerMs) {
      throw new LeaseConfigError(
        `requestTimeoutMs must be a whole number of milliseconds from 1 to ${maxTimerMs} (got ${requestTimeoutMs})`,
        'requestTimeoutMs',
      );
    }
    this.api = new LeaseApi(options.kubeConfig, requestTimeoutMs);
  }

  /** The identity whose leases count as "mine" in inspections (none for an observer). */
  protected get identity(): string | undefined {
    return undefined;
  }

  get namespace(): string {
    return this.location.namespace;
  }

  /**
   * Where `node`'s lease is. The node name and namespace go into the request path, so they
   * are checked first, as the API server checks names: `.` or `''` would read the whole
   * Lease list (and judge it one free lease), `..` the Namespace.
   */
  protected address(node: string): LeaseAddress {
    if (!isDnsSubdomain(node)) {
      throw new LeaseConfigError(
        `node ${JSON.stringify(node)} is not a valid node name (a DNS-1123 subdomain: lowercase letters, digits, '-' and '.', at most 253 characters)`,
        'node',
      );
    }
    const namespace = this.#checkedNamespace();
    // (a layout may add to the node's name: medik8s' `node-` makes a 250-character node
    // name a lease name the API server refuses)
    const leaseName = this.location.leaseName(node);
    if (!isDnsSubdomain(leaseName)) {
      throw new LeaseConfigError(
        `node ${JSON.stringify(node)} has no valid lease name in this layout: ${JSON.stringify(leaseName)} is not a DNS-1123 subdomain of at most 253 characters`,
        'node',
      );
    }
    return { node, namespace, leaseName };
  }

  /**
   * The lease namespace, checked as the API server checks namespace names: it goes into
   * request paths, where `..` or `''` would name every namespace's leases.
   */
  #checkedNamespace(): string {
    const namespace = this.location.namespace;
    if (!isDnsLabel(namespace)) {
      throw new LeaseConfigError(
        `lease namespace ${JSON.stringify(namespace)} is not a valid namespace (a DNS-1123 label: lowercase letters, digits and '-', at most 63 characters)`,
        'namespace',
      );
    }
    // (its Leases are the kubelets' heartbeats, named after their nodes: a client there took a
    // dead node's heartbeat once it expired and kept renewing it, so the node lifecycle
    // controller saw the node alive; an observer judged every live node under maintenance)
    if (namespace === kubeletHeartbeatNamespace) {
      throw new LeaseConfigError(
        `lease namespace ${JSON.stringify(namespace)} holds the kubelets' heartbeat Leases, named after their nodes: maintenance leases must live elsewhere (default ${JSON.stringify(defaultLeaseNamespace)})`,
        'namespace',
      );
    }
    return namespace;
  }

  protected key(address: LeaseAddress): string {
    return `${address.namespace}/${address.leaseName}`;
  }

  /**
   * Records a lease read from the server and judges it. `record` is `readLeaseRecord(lease)`
   * when the caller has already read it.
   */
  protected judge(
    address: LeaseAddress,
    lease: V1Lease | undefined,
    record = lease === undefined ? undefined : readLeaseRecord(lease),
  ): LeaseInspection {
    if (lease === undefined || record === undefined) {
      this.observations.forget(this.key(address));
      return absentInspection(address);
    }
    const observedAtMs = this.observations.observe(this.key(address), record);
    const judgement = judgeExpiry(
      record,
      observedAtMs,
      this.clock,
      this.timing.leaseDurationSeconds,
      this.remote,
    );
    return describeLease(
      address,
      record,
      judgement,
      this.identity,
      this.clock.now(),
      lease.metadata?.resourceVersion,
    );
  }

  /**
   * Reads a node's lease and reports holder, times and expiry as this client judges it.
   * Note the local-clock rule: a process that has just started judges any held lease as
   * held for a whole duration from now, whatever its renewTime says.
   *
   * @throws LeaseApiError when the server refuses or cannot be reached.
   */
  async inspect(node: string, options: { signal?: AbortSignal } = {}): Promise<LeaseInspection> {
    const address = this.address(node);
    return this.judge(address, await this.api.read(address.namespace, address.leaseName, options.signal));
  }

  /** Whether the node's lease is held (unexpired) or reserved: automation should leave it alone. */
  async isUnderMaintenance(node: string, options: { signal?: AbortSignal } = {}): Promise<boolean> {
    return isUnderMaintenanceState(await this.inspect(node, options));
  }

  /**
   * The lease changes in the namespace, as an async iterator: first one `added` per existing
   * lease, then every change. It ends when `signal` aborts or the loop breaks, and otherwise
   * only by throwing a LeaseApiError from the iterator, once the changes before it are out:
   * - any failure of the first list (403, unreachable, an answer that is not a LeaseList);
   * - an event of a watch stream that is not one about a lease in the namespace (a lease with
   *   a numeric holder or of another namespace, an unknown type, an ERROR without a Status),
   *   as `unreadable-lease` naming its path (`object.spec.holderIdentity`);
   * - a later list (after an ERROR event, a failed watch, a restart) whose answer is not a
   *   LeaseList of well-formed leases in the namespace (`unreadable-lease`, its path naming
   *   the item: `items[0].spec.holderIdentity`), or a list or watch request refused with a
   *   4xx other than 408, 410 and 429 (`unauthorized`, `forbidden`, `not-found`, `invalid`,
   *   ...): asking again would get the same answer, and watching nothing quietly for ever is
   *   worse than failing.
   * What it survives, listing again after `retryPeriodMs` and reporting only the differences:
   * an ERROR event with a Status (410 Expired), an API server restart or a connection that
   * fails, a request that times out, a 5xx, 429, 408 or 410 answer; a watch the server closes
   * is resumed from the last resourceVersion. A lease namespace that is not a namespace name
   * is a LeaseConfigError thrown at once, before any request.
   */
  watch(
    options: {
      signal?: AbortSignal;
      /**
       * How long the server keeps each watch request open before the iterator resumes it from
       * the last resourceVersion: a whole number of seconds from 1 to 25 (the default), under
       * client-node's 30 s inactivity timeout.
       */
      timeoutSeconds?: number;
    } = {},
  ): AsyncIterableIterator<LeaseChange> {
    const timeoutSeconds = options.timeoutSeconds ?? maxWatchTimeoutSeconds;
    if (!Number.isInteger(timeoutSeconds) || timeoutSeconds < 1 || timeoutSeconds > maxWatchTimeoutSeconds) {
      throw new LeaseConfigError(
        `timeoutSeconds must be a whole number from 1 to ${maxWatchTimeoutSeconds} (got ${timeoutSeconds})`,
        'timeoutSeconds',
      );
    }
    // (`..` or `''` would list and watch the leases of every namespace, kubelets' heartbeats
    // in kube-node-lease included, and report each as a node under maintenance)
    const namespace = this.#checkedNamespace();
    return watchLeases({
      timeoutSeconds,
      kubeConfig: this.kubeConfig,
      api: this.api,
      namespace,
      retryPeriodMs: this.timing.retryPeriodMs,
      signal: options.signal,
      describe: (leaseName, lease) => {
        const node = this.location.nodeOf(leaseName);
        const address = { node: node ?? leaseName, namespace, leaseName };
        return { node, inspection: this.judge(address, lease) };
      },
    });
  }
}
