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
import { type ResourceCache, startNodeCache } from './informer.js';
import { apiCall } from './management-api.js';
import { type KubeObject, namespaceOf } from './objects.js';
import type { Problem } from './snapshot.js';

export type WorkloadOption = KubeConfig | 'from-secret' | undefined;

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
   * In `'from-secret'` mode, starts the Node caches of clusters the machines name and that
   * are not yet reached (retrying those that failed before). Nothing to do otherwise.
   */
  async ensureFor(machines: readonly KubeObject[]): Promise<void> {
    if (!this.#fromSecret) return;
    const wanted = new Set<string>();
    for (const machine of machines) {
      const key = this.keyOf(machine);
      if (key !== '' && !this.#clusters.has(key)) wanted.add(key);
    }
    await Promise.all(
      [...wanted].map(async (key) => {
        const [namespace, cluster] = key.split('/') as [string, string];
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
      }),
    );
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    await Promise.all(this.all().map((c) => c.nodes.stop()));
  }
}
