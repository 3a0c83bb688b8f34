/**
 * The workload clusters whose Nodes the machines become: the management cluster itself
 * (a joined cluster, the default), one given cluster, or — `'from-secret'` — each Cluster's
 * own, reached through its `<cluster>-kubeconfig` Secret. Each keeps a Node cache and,
 * when the guard is on, reads maintenance leases where the Nodes live.
 */

import { workloadKubeConfig } from '@capi-kit/client';
import { type LeaseLocation, NodeLeaseObserver } from '@capi-kit/lease';
import { CoreV1Api, type KubeConfig, type V1Node } from '@kubernetes/client-node';
import { clusterNameOf } from './cluster-name.js';
import { type ClusterScope, clusterScope } from './cluster-scope.js';
import { forEachAtMost } from './concurrency.js';
import { type ResourceCache, startNodeCache } from './informer.js';
import { apiCall } from './management-api.js';
import { type KubeObject, namespaceOf } from './objects.js';
import type { Problem } from './snapshot.js';

export type WorkloadOption = KubeConfig | 'from-secret' | undefined;

/**
 * How many workload clusters `'from-secret'` reaches at once. Each costs a Secret read on the
 * management cluster — which the autoscaler shares with the Cluster API controllers, behind
 * the same priority-and-fairness queues — then a TLS connection, a full Node list and a watch
 * on the workload cluster. Thousands at once (a first refresh over a large fleet) would open
 * as many sockets and requests in one burst; eight keeps the burst to a client's usual
 * handful (client-go allows 5 requests a second with bursts of 10). Nor does it slow a
 * large first refresh: 4,000 clusters without Secrets took as long at eight as all at once
 * (about 25 s on a local API server; the time goes in the requests, not the waiting).
 */
export const WORKLOAD_CONNECT_CONCURRENCY = 8;

export interface WorkloadCluster {
  /** `''` for the one workload cluster, else `<namespace>/<cluster>`. */
  readonly key: string;
  readonly kubeConfig: KubeConfig;
  readonly nodes: ResourceCache<V1Node & KubeObject>;
  /** Reads maintenance leases; undefined when the guard is off. */
  readonly leases: NodeLeaseObserver | undefined;
}

async function startCluster(
  key: string,
  kubeConfig: KubeConfig,
  location: LeaseLocation | undefined,
  onChange: () => void,
): Promise<WorkloadCluster> {
  const core = kubeConfig.makeApiClient(CoreV1Api);
  const nodes = await startNodeCache<V1Node & KubeObject>({
    kubeConfig,
    path: '/api/v1/nodes',
    list: () => apiCall(`list Nodes${key === '' ? '' : ` of cluster ${key}`}`, () => core.listNode()),
    onChange,
  });
  const leases = location === undefined ? undefined : new NodeLeaseObserver({ kubeConfig, location });
  return { key, kubeConfig, nodes, leases };
}

export class Workloads {
  readonly #fromSecret: boolean;
  readonly #clusters = new Map<string, WorkloadCluster>();
  readonly #failed = new Map<string, Problem>();
  /** Clusters being reached now, each with the run that reaches it. */
  readonly #starting = new Map<string, Promise<void>>();
  #stopped = false;

  private constructor(
    readonly management: KubeConfig,
    fromSecret: boolean,
    readonly leaseLocation: LeaseLocation | undefined,
    readonly onChange: () => void,
  ) {
    this.#fromSecret = fromSecret;
  }

  static async start(
    option: WorkloadOption,
    management: KubeConfig,
    leaseLocation: LeaseLocation | undefined,
    onChange: () => void,
  ): Promise<Workloads> {
    const workloads = new Workloads(management, option === 'from-secret', leaseLocation, onChange);
    if (option !== 'from-secret')
      workloads.#clusters.set('', await startCluster('', option ?? management, leaseLocation, onChange));
    return workloads;
  }

  /** The `<namespace>/<cluster>` a machine's Node lives in ('' with one workload cluster). */
  keyOf(machine: KubeObject): string {
    if (!this.#fromSecret) return '';
    const cluster = clusterNameOf(machine);
    return cluster === '' ? '' : `${namespaceOf(machine)}/${cluster}`;
  }

  /** Which cluster each Node is of, when there are several workload clusters; else undefined. */
  scope(): ClusterScope | undefined {
    if (!this.#fromSecret) return undefined;
    const nodes = this.all().flatMap((w) => w.nodes.list().map((node) => ({ node, cluster: w.key })));
    return clusterScope(nodes, (machine) => this.keyOf(machine));
  }

  forMachine(machine: KubeObject): WorkloadCluster | undefined {
    return this.#clusters.get(this.keyOf(machine));
  }

  all(): WorkloadCluster[] {
    return [...this.#clusters.values()];
  }

  /** Clusters whose kubeconfig could not be read or whose Nodes could not be listed. */
  problems(): Problem[] {
    return [...this.#failed.values()];
  }

  /**
   * In `'from-secret'` mode, starts the Node caches of the clusters `machines` name that are
   * not yet reached, at most `WORKLOAD_CONNECT_CONCURRENCY` at a time, retrying those that
   * failed before and forgetting the failures of clusters they no longer name. The caller
   * passes the machines it has business with (those of the node groups in scope): every
   * cluster reached costs a Secret read on the management cluster, a Node list and a watch
   * kept open; the caches of clusters they no longer name stop. Resolves to whether the
   * clusters reached changed. Nothing to do otherwise.
   */
  async ensureFor(machines: readonly KubeObject[]): Promise<boolean> {
    if (!this.#fromSecret) return false;
    const before = this.#clusters.size;
    const named = new Set<string>();
    const wanted = new Set<string>();
    const underway = new Set<Promise<void>>();
    for (const machine of machines) {
      const key = this.keyOf(machine);
      if (key !== '') named.add(key);
      if (key === '' || this.#clusters.has(key)) continue;
      // Already being reached by a refresh still running: wait for that one, not a second.
      const starting = this.#starting.get(key);
      if (starting === undefined) wanted.add(key);
      else underway.add(starting);
    }
    if (wanted.size > 0) {
      const run = forEachAtMost(wanted, WORKLOAD_CONNECT_CONCURRENCY, (key) => this.#reach(key));
      for (const key of wanted) this.#starting.set(key, run);
      underway.add(
        run.finally(() => {
          for (const key of wanted) if (this.#starting.get(key) === run) this.#starting.delete(key);
        }),
      );
    }
    // A cluster no machine in scope names any longer is not this view's problem, nor ours to
    // watch: its Node cache stops (it is reached again if a group of it comes back).
    for (const key of this.#failed.keys()) if (!named.has(key)) this.#failed.delete(key);
    const leaving = [...this.#clusters.values()].filter((c) => !named.has(c.key));
    for (const { key } of leaving) this.#clusters.delete(key);
    await Promise.all([...underway, ...leaving.map((c) => c.nodes.stop())]);
    return leaving.length > 0 || this.#clusters.size > before - leaving.length;
  }

  /** Reads one cluster's kubeconfig Secret and starts its Node cache; a failure is a problem. */
  async #reach(key: string): Promise<void> {
    if (this.#stopped) return;
    // At the first '/' only: a namespace holds none, but the API server does not check a
    // spec.clusterName, and "a/b" was taken for cluster "a", whose Secret and Nodes it used.
    const slash = key.indexOf('/');
    const [namespace, cluster] = [key.slice(0, slash), key.slice(slash + 1)];
    try {
      const read = await workloadKubeConfig(this.management, { metadata: { name: cluster, namespace } });
      if (read._tag === 'Left') throw new Error(read.left.message);
      const kubeConfig = read.right;
      const started = await startCluster(key, kubeConfig, this.leaseLocation, this.onChange);
      if (this.#stopped) await started.nodes.stop();
      else this.#clusters.set(key, started);
      this.#failed.delete(key);
    } catch (error) {
      this.#failed.set(key, {
        code: 'workload-unavailable',
        object: `Cluster ${key}`,
        message: `workload cluster ${key}: ${error instanceof Error ? error.message : String(error)}`,
      });
    }
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    await Promise.all(this.all().map((c) => c.nodes.stop()));
  }
}
