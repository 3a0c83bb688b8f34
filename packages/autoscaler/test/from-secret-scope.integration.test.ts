// 'from-secret' reaches only the workload clusters of machines in node groups within
// auto-discovery, and only a few at a time. The run's control plane is the management
// cluster, and every `<cluster>-kubeconfig` Secret points back at it, so reaching any cluster
// would succeed: what is counted is which Secrets the provider reads, as the requests leave
// the client (the server answers them as always).
import { fileURLToPath } from 'node:url';
import { noControlPlane, useControlPlane } from '@capi-kit/envtest/vitest';
import { CoreV1Api, KubeConfig } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createNodeGroupProvider, type NodeGroupProvider } from '../src/index.js';
import { WORKLOAD_CONNECT_CONCURRENCY } from '../src/workloads.js';
import { ClusterObjects, unique } from './helpers/cluster-objects.js';

const crds = fileURLToPath(new URL('../../../testdata/crds/v1alpha2', import.meta.url));
const management = useControlPlane();

type RequestContext = Parameters<KubeConfig['applySecurityAuthentication']>[0];

/**
 * A KubeConfig of the management cluster that notes every Secret read in `namespace` and,
 * while `hold` is on, keeps each such request back until `release()`. The workload
 * KubeConfigs made from Secrets are of the same class (as `workloadKubeConfig` makes them),
 * so their requests pass through here too; only Secret reads are noted.
 */
function secretReads(source: KubeConfig, namespace: string) {
  const prefix = `/api/v1/namespaces/${namespace}/secrets/`;
  const state = {
    read: [] as string[],
    hold: false,
    held: [] as (() => void)[],
    /** The most reads held back at once. */
    mostHeld: 0,
    /** Set at each read: how the releaser knows that reads are still arriving. */
    arrivals: 0,
    release() {
      const now = state.held;
      state.held = [];
      for (const go of now) go();
    },
  };
  class Recording extends KubeConfig {
    override async applySecurityAuthentication(context: RequestContext): Promise<void> {
      const path = new URL(context.getUrl()).pathname;
      if (path.startsWith(prefix)) {
        state.read.push(decodeURIComponent(path.slice(prefix.length)));
        state.arrivals++;
        if (state.hold) {
          await new Promise<void>((go) => {
            state.held.push(go);
            state.mostHeld = Math.max(state.mostHeld, state.held.length);
          });
        }
      }
      return super.applySecurityAuthentication(context);
    }
  }
  const kubeConfig = new Recording();
  kubeConfig.loadFromString(source.exportConfig());
  return { kubeConfig, state };
}

/** One event-loop turn: everything already queued (promise chains included) runs first. */
const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

describe.skipIf(noControlPlane())("'from-secret' reaches only the clusters of node groups in scope", () => {
  let objects: ClusterObjects;
  let core: CoreV1Api;
  const providers: NodeGroupProvider[] = [];
  const scope = 'capi-kit.test/autoscale';
  const inScope = { [scope]: 'yes' };
  const named = (label: string) => unique(label);

  /** A Secret `<cluster>-kubeconfig` that leads back to the management cluster. */
  const kubeconfigSecret = (cluster: string) =>
    core.createNamespacedSecret({
      namespace: management.namespace,
      body: {
        metadata: { name: `${cluster}-kubeconfig` },
        stringData: { value: management.kubeConfig.exportConfig() },
      },
    });

  /** A MachineDeployment (or, with `standalone`, a MachineSet) of `cluster` with one Machine. */
  async function group(
    cluster: string,
    annotations: Record<string, string>,
    labels: Record<string, string>,
    standalone = false,
  ) {
    const clusterLabel = objects.clusterLabel(cluster);
    const all = { ...clusterLabel, ...labels };
    const owner = standalone
      ? await objects.machineSet(`${cluster}-ms`, 1, annotations, { labels: all })
      : await objects.machineSet(
          `${cluster}-ms`,
          1,
          {},
          {
            owner: await objects.machineDeployment(`${cluster}-md`, 1, annotations, all),
            labels: all,
          },
        );
    await objects.machine(`${cluster}-m0`, { owner, labels: clusterLabel });
    await kubeconfigSecret(cluster);
  }

  beforeAll(async () => {
    await management.installCRDs(crds);
    objects = new ClusterObjects(management.kubeConfig, 'cluster.x-k8s.io/v1alpha2', management.namespace);
    core = management.kubeConfig.makeApiClient(CoreV1Api);
  });

  afterAll(async () => {
    await Promise.all(providers.map((p) => p.stop()));
  });

  const start = (kubeConfig: KubeConfig) =>
    createNodeGroupProvider({
      management: kubeConfig,
      workload: 'from-secret',
      autoDiscovery: [`clusterapi:namespace=${management.namespace},${scope}=yes`],
      leaseGuard: false,
    }).then((p) => {
      providers.push(p);
      return p;
    });

  it('reads the Secrets of clusters whose Machines are in a node group in scope, and no other', async () => {
    const viaDeployment = named('in-md');
    const viaSet = named('in-ms');
    const loose = named('loose');
    const fixedSize = named('fixed');
    const excluded = named('excluded');
    await group(viaDeployment, objects.bounds(1, 5), inScope);
    await group(viaSet, objects.bounds(1, 5), inScope, true);
    // A Machine in no set; a group with no room to scale (min = max); a group auto-discovery
    // leaves out: none is a node group, so none of their clusters is ours to reach.
    await objects.machine(`${loose}-m0`, { labels: objects.clusterLabel(loose) });
    await kubeconfigSecret(loose);
    await group(fixedSize, objects.bounds(2, 2), inScope);
    await group(excluded, objects.bounds(1, 5), {});

    const { kubeConfig, state } = secretReads(management.kubeConfig, management.namespace);
    const provider = await start(kubeConfig);
    expect(
      provider
        .nodeGroups()
        .map((g) => g.name)
        .sort(),
    ).toEqual([`${viaDeployment}-md`, `${viaSet}-ms`].sort());
    expect(new Set(state.read)).toEqual(new Set([`${viaDeployment}-kubeconfig`, `${viaSet}-kubeconfig`]));
    expect(provider.problems()).toEqual([]);

    // Once auto-discovery takes the excluded group in, the next refresh reaches its cluster.
    const md = await objects.get('MachineDeployment', `${excluded}-md`);
    await objects.replace('MachineDeployment', `${excluded}-md`, {
      ...md,
      metadata: { ...md.metadata, labels: { ...(md.metadata.labels as object), ...inScope } },
    });
    await vi.waitFor(() => expect(provider.nodeGroups()).toHaveLength(3), { timeout: 30_000, interval: 50 });
    await provider.refresh();
    expect(new Set(state.read)).toEqual(
      new Set([`${viaDeployment}-kubeconfig`, `${viaSet}-kubeconfig`, `${excluded}-kubeconfig`]),
    );

    // A group that leaves auto-discovery takes its cluster out of what is watched: its Nodes
    // are gone from the view, and the cluster is reached afresh (its Secret read again) when
    // the group comes back.
    const reads = (cluster: string) => state.read.filter((s) => s === `${cluster}-kubeconfig`).length;
    const setIn = async (labels: Record<string, string>) => {
      const ms = await objects.get('MachineSet', `${viaSet}-ms`);
      await objects.replace('MachineSet', `${viaSet}-ms`, { ...ms, metadata: { ...ms.metadata, labels } });
    };
    const clusterLabel = objects.clusterLabel(viaSet);
    await setIn(clusterLabel);
    await vi.waitFor(() => expect(provider.nodeGroups()).toHaveLength(2), { timeout: 30_000, interval: 50 });
    await provider.refresh();
    await setIn({ ...clusterLabel, ...inScope });
    await vi.waitFor(() => expect(provider.nodeGroups()).toHaveLength(3), { timeout: 30_000, interval: 50 });
    await provider.refresh();
    expect(reads(viaSet)).toBe(2);
    expect(reads(viaDeployment)).toBe(1);
  });

  it(`reaches at most ${WORKLOAD_CONNECT_CONCURRENCY} clusters at once`, async () => {
    const clusters = Array.from({ length: WORKLOAD_CONNECT_CONCURRENCY + 4 }, () => named('fleet'));
    for (const cluster of clusters) await group(cluster, objects.bounds(1, 5), inScope, true);
    const { kubeConfig, state } = secretReads(management.kubeConfig, management.namespace);
    state.hold = true;
    let started = false;
    const starting = start(kubeConfig).finally(() => {
      started = true;
    });
    // Let the held reads go each time no more arrive for a few turns of the event loop (no
    // clock: a read the provider has started reaches this hook within the same turn).
    while (!started) {
      const seen = state.arrivals;
      for (let i = 0; i < 5; i++) await turn();
      if (state.arrivals === seen) state.release();
    }
    await starting;
    for (const cluster of clusters) expect(state.read).toContain(`${cluster}-kubeconfig`);
    expect(state.mostHeld).toBe(WORKLOAD_CONNECT_CONCURRENCY);
  });
});
