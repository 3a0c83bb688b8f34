// @capi-kit/client against real API servers (two private local control planes):
//
// 1. list + decode of 10,000 v1alpha2 Machines (paginated, every item through core's codec)
//    against a bare client-node list of the same objects (CustomObjectsApi, same pages),
//    interleaved in the same run: RATIO client-list-decode/bare-list.
// 2. the heap an informer holding the 10,000 Machines adds, against client-node's bare
//    ListWatch of the same objects: RATIO informer-heap/bare-listwatch-heap.
// 3. describeCluster of a Cluster with 1,000 Machines and a workload cluster with 1,000
//    Nodes, against the bare lists it cannot do without (Machines, MachineSets,
//    MachineDeployments, Nodes, Leases): RATIO describe-1000/bare-lists.
//
//   pnpm --filter @capi-kit/client bench
//   (CAPI_KIT_BENCH_MACHINES, default 10000; CAPI_KIT_BENCH_DESCRIBE, default 1000)
import { readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { startControlPlane } from '@capi-kit/envtest';
import {
  CoordinationV1Api,
  CoreV1Api,
  CustomObjectsApi,
  type KubernetesObject,
  ListWatch,
  Watch,
} from '@kubernetes/client-node';
import { countFromEnv, printRatio } from '../../../scripts/bench-ratio.js';
import { connect, describeCluster } from '../dist/index.js';
import { capiCrdDirs, unwrap, v1alpha2Machine } from '../test/helpers/fixtures.js';
import { inParallel } from '../test/helpers/poll.js';

const machineCount = countFromEnv('CAPI_KIT_BENCH_MACHINES', 10_000);
const describeCount = countFromEnv('CAPI_KIT_BENCH_DESCRIBE', 1000);
const rounds = 5;

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
const heapAfterGC = async () => {
  for (let i = 0; i < 3; i++) {
    gc();
    await sleep(20);
  }
  return process.memoryUsage().heapUsed;
};
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const mb = (bytes: number) => `${(bytes / 2 ** 20).toFixed(1)} MiB`;
const idOf = (i: number) => `aws:///us-east-1a/i-${i.toString(16).padStart(17, '0')}`;

const management = await startControlPlane({ backend: 'local', log: () => {} });
const workload = await startControlPlane({ backend: 'local', log: () => {} });
try {
  for (const dir of capiCrdDirs) await management.installCRDs(dir);
  const client = unwrap(await connect(management.kubeConfig));
  const machines = unwrap(client.resource('cluster.x-k8s.io/v1alpha2', 'Machine'));
  console.log(
    `Node ${process.version}; ${machineCount} Machines, describe of ${describeCount} Machines + Nodes`,
  );

  // --- 1. list + decode ---------------------------------------------------------------
  const ns = await management.createNamespace('bench-list');
  let started = performance.now();
  await inParallel(
    Array.from({ length: machineCount }, (_, i) => i),
    32,
    async (i) => {
      unwrap(await machines.create(v1alpha2Machine(ns, `m-${i}`, 'bench', { providerID: idOf(i) })));
    },
  );
  console.log(`created ${machineCount} Machines in ${((performance.now() - started) / 1000).toFixed(1)} s`);

  const api = management.kubeConfig.makeApiClient(CustomObjectsApi);
  const page = {
    group: 'cluster.x-k8s.io',
    version: 'v1alpha2',
    plural: 'machines',
    namespace: ns,
    limit: 500,
  };
  /** Every page of a bare client-node list; the number of items. */
  async function bareListOf(namespace: string, plural: string): Promise<number> {
    let count = 0;
    let token: string | undefined;
    do {
      const list = await api.listNamespacedCustomObject({
        ...page,
        namespace,
        plural,
        ...(token === undefined ? {} : { _continue: token }),
      });
      count += list.items.length;
      token = list.metadata?.continue || undefined;
    } while (token !== undefined);
    return count;
  }
  const bareList = () => bareListOf(ns, 'machines');
  async function clientList(): Promise<number> {
    const listed = unwrap(await machines.list({ namespace: ns, pageSize: 500 }));
    if (listed.invalid.length > 0) throw new Error(`${listed.invalid.length} Machines did not decode`);
    return listed.items.length;
  }
  await bareList();
  await clientList();
  const bareMs: number[] = [];
  const clientMs: number[] = [];
  for (let round = 0; round < rounds; round++) {
    for (const [fn, into] of [
      [bareList, bareMs],
      [clientList, clientMs],
    ] as const) {
      started = performance.now();
      const count = await fn();
      into.push(performance.now() - started);
      if (count !== machineCount) throw new Error(`listed ${count} of ${machineCount}`);
    }
  }
  console.log(
    `list of ${machineCount} Machines (pages of 500), median of ${rounds}: bare client-node ${median(bareMs).toFixed(0)} ms, ` +
      `@capi-kit/client list + decode ${median(clientMs).toFixed(0)} ms`,
  );
  printRatio('client-list-decode/bare-list', median(clientMs), median(bareMs));

  // --- 2. informer heap ----------------------------------------------------------------
  const path = `/apis/cluster.x-k8s.io/v1alpha2/namespaces/${ns}/machines`;
  let before = await heapAfterGC();
  const bare = new ListWatch<KubernetesObject>(
    path,
    new Watch(management.kubeConfig),
    () =>
      api.listNamespacedCustomObject({
        group: page.group,
        version: page.version,
        plural: 'machines',
        namespace: ns,
      }),
    false,
  );
  await bare.start();
  if (bare.list().length !== machineCount) throw new Error('bare ListWatch did not sync');
  const bareHeap = (await heapAfterGC()) - before;
  await bare.stop();

  before = await heapAfterGC();
  const informer = unwrap(client.informer('cluster.x-k8s.io/v1alpha2', 'Machine', { namespace: ns }));
  await informer.start();
  if (informer.size !== machineCount) throw new Error('informer did not sync');
  const informerHeap = (await heapAfterGC()) - before;
  console.log(
    `heap held for ${machineCount} Machines: bare ListWatch ${mb(bareHeap)} (${Math.round(bareHeap / machineCount)} B each), ` +
      `informer with indexes ${mb(informerHeap)} (${Math.round(informerHeap / machineCount)} B each)`,
  );
  printRatio('informer-heap/bare-listwatch-heap', informerHeap, bareHeap);
  informer.stop();

  // --- 3. describe -----------------------------------------------------------------------
  const dns = await management.createNamespace('bench-describe');
  const clusters = unwrap(client.resource('cluster.x-k8s.io/v1alpha2', 'Cluster'));
  unwrap(
    await clusters.create({
      apiVersion: 'cluster.x-k8s.io/v1alpha2',
      kind: 'Cluster',
      metadata: { name: 'big', namespace: dns },
      spec: {},
    }),
  );
  const core = management.kubeConfig.makeApiClient(CoreV1Api);
  const kubeconfigText = readFileSync(workload.kubeconfigPath, 'utf8');
  await core.createNamespacedSecret({
    namespace: dns,
    body: {
      metadata: { name: 'big-kubeconfig' },
      data: { value: Buffer.from(kubeconfigText).toString('base64') },
    },
  });
  const nodesApi = workload.kubeConfig.makeApiClient(CoreV1Api);
  started = performance.now();
  await inParallel(
    Array.from({ length: describeCount }, (_, i) => i),
    32,
    async (i) => {
      unwrap(await machines.create(v1alpha2Machine(dns, `big-${i}`, 'big', { providerID: idOf(i) })));
      // Nodes spell the ID without the zone: the join is by identity.
      await nodesApi.createNode({
        body: { metadata: { name: `node-${i}` }, spec: { providerID: idOf(i).replace('us-east-1a', '') } },
      });
    },
  );
  console.log(
    `created ${describeCount} Machines and Nodes in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );

  const leases = workload.kubeConfig.makeApiClient(CoordinationV1Api);
  async function bareLists() {
    const [count] = await Promise.all([
      bareListOf(dns, 'machines'),
      bareListOf(dns, 'machinesets'),
      bareListOf(dns, 'machinedeployments'),
      (async () => {
        let token: string | undefined;
        do {
          const nodes = await nodesApi.listNode({
            limit: 500,
            ...(token === undefined ? {} : { _continue: token }),
          });
          token = nodes.metadata?._continue || undefined;
        } while (token !== undefined);
      })(),
      leases.listNamespacedLease({ namespace: 'kube-node-maintenance' }),
    ]);
    return count;
  }
  async function describeBig() {
    const described = unwrap(await describeCluster(client, 'big', { namespace: dns }));
    const joined = described.machines.filter((m) => m.node !== null).length;
    if (joined !== describeCount)
      throw new Error(
        `joined ${joined} of ${describeCount}: ${JSON.stringify(described.problems.slice(0, 3))}`,
      );
    return described.machines.length;
  }
  await bareLists();
  await describeBig();
  const bareListMs: number[] = [];
  const describeMs: number[] = [];
  for (let round = 0; round < rounds; round++) {
    started = performance.now();
    await bareLists();
    bareListMs.push(performance.now() - started);
    started = performance.now();
    await describeBig();
    describeMs.push(performance.now() - started);
  }
  console.log(
    `describe of ${describeCount} Machines + ${describeCount} Nodes, median of ${rounds}: ${median(describeMs).toFixed(0)} ms ` +
      `(the bare lists it needs: ${median(bareListMs).toFixed(0)} ms)`,
  );
  printRatio(`describe-${describeCount}/bare-lists`, median(describeMs), median(bareListMs));
} finally {
  await workload.stop();
  await management.stop();
}
