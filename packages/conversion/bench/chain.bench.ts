// The version chain: one hop (v1beta1 → v1beta2, the one that moves most) and the whole
// chain (v1alpha2 → v1beta2, four hops; MachineHealthCheck from v1alpha3, where it starts)
// per kind, and the webhook's answer to a ConversionReview of 100 Machines; each against
// JSON.parse(JSON.stringify()) of the same objects in the same run.
//
//   pnpm --filter @capi-kit/conversion bench
//
// CAPI_KIT_BENCH_OBJECTS (default 200) objects per batch.
import * as E from 'fp-ts/lib/Either.js';
import { Bench } from 'tinybench';
import { countFromEnv, meanMs, printRatio } from '../../../scripts/bench-ratio.js';
import {
  type ChainVersion,
  CONVERSION_DATA_ANNOTATION,
  convertTo,
  V1ALPHA2,
  V1ALPHA3,
  V1BETA1,
  V1BETA2,
} from '../dist/index.js';
import { handleConversionReview } from '../dist/webhook.js';

const count = countFromEnv('CAPI_KIT_BENCH_OBJECTS', 200);
type Obj = Record<string, unknown>;

const meta = (name: string, i: number) => ({
  name: `${name}-${i}`,
  namespace: 'team-a',
  uid: `3f1c2b9e-0000-4000-8000-${String(i).padStart(12, '0')}`,
  resourceVersion: String(100_000 + i),
  generation: 3,
  creationTimestamp: '2024-09-12T08:14:03Z',
  labels: { 'cluster.x-k8s.io/cluster-name': 'prod-eu', pool: `pool-${i % 5}` },
  annotations: { 'machinedeployment.clusters.k8s.io/revision': '4' },
});
const machineSpec = (i: number) => ({
  version: 'v1.16.3',
  providerID: `aws:///eu-west-1a/i-0${(0xabc000 + i).toString(16)}`,
  bootstrap: {
    configRef: {
      apiVersion: 'bootstrap.cluster.x-k8s.io/v1alpha2',
      kind: 'KubeadmConfig',
      name: `cfg-${i}`,
      namespace: 'team-a',
    },
    data: 'I2Nsb3VkLWNvbmZpZwo=',
  },
  infrastructureRef: {
    apiVersion: 'infrastructure.cluster.x-k8s.io/v1alpha2',
    kind: 'AWSMachine',
    name: `aws-${i}`,
    namespace: 'team-a',
  },
  metadata: { labels: { 'node-role.kubernetes.io/worker': '' } },
});

/** v1alpha2 objects of each kind, as a v0.2 cluster held them (with status). */
const v1alpha2: Record<string, (i: number) => Obj> = {
  Cluster: (i) => ({
    apiVersion: V1ALPHA2,
    kind: 'Cluster',
    metadata: meta('cluster', i),
    spec: {
      clusterNetwork: {
        services: { cidrBlocks: ['10.96.0.0/12'] },
        pods: { cidrBlocks: ['192.168.0.0/16'] },
        serviceDomain: 'cluster.local',
      },
      infrastructureRef: {
        apiVersion: 'infrastructure.cluster.x-k8s.io/v1alpha2',
        kind: 'AWSCluster',
        name: `c-${i}`,
        namespace: 'team-a',
      },
    },
    status: {
      apiEndpoints: [{ host: 'api.example', port: 6443 }],
      phase: 'provisioned',
      infrastructureReady: true,
      controlPlaneInitialized: true,
    },
  }),
  Machine: (i) => ({
    apiVersion: V1ALPHA2,
    kind: 'Machine',
    metadata: meta('machine', i),
    spec: machineSpec(i),
    status: {
      nodeRef: { apiVersion: 'v1', kind: 'Node', name: `ip-10-0-${i % 250}.internal`, uid: 'b1c2d3e4' },
      lastUpdated: '2024-09-12T08:20:41Z',
      version: 'v1.16.3',
      phase: 'running',
      bootstrapReady: true,
      infrastructureReady: true,
      addresses: [{ type: 'InternalIP', address: `10.0.${i % 250}.1` }],
    },
  }),
  MachineSet: (i) => ({
    apiVersion: V1ALPHA2,
    kind: 'MachineSet',
    metadata: meta('set', i),
    spec: {
      replicas: 3,
      minReadySeconds: 10,
      deletePolicy: 'Oldest',
      selector: { matchLabels: { pool: `pool-${i % 5}` } },
      template: { metadata: { labels: { pool: `pool-${i % 5}` } }, spec: machineSpec(i) },
    },
    status: {
      replicas: 3,
      fullyLabeledReplicas: 3,
      readyReplicas: 3,
      availableReplicas: 3,
      observedGeneration: 3,
    },
  }),
  MachineDeployment: (i) => ({
    apiVersion: V1ALPHA2,
    kind: 'MachineDeployment',
    metadata: meta('deployment', i),
    spec: {
      replicas: 3,
      revisionHistoryLimit: 1,
      progressDeadlineSeconds: 600,
      selector: { matchLabels: { pool: `pool-${i % 5}` } },
      strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1, maxUnavailable: 0 } },
      template: { metadata: { labels: { pool: `pool-${i % 5}` } }, spec: machineSpec(i) },
    },
    status: {
      replicas: 3,
      updatedReplicas: 3,
      readyReplicas: 3,
      availableReplicas: 3,
      observedGeneration: 3,
    },
  }),
};
const mhc = (i: number): Obj => ({
  apiVersion: V1ALPHA3,
  kind: 'MachineHealthCheck',
  metadata: meta('mhc', i),
  spec: {
    clusterName: 'prod-eu',
    selector: { matchLabels: { pool: `pool-${i % 5}` } },
    unhealthyConditions: [
      { type: 'Ready', status: 'Unknown', timeout: '5m0s' },
      { type: 'Ready', status: 'False', timeout: '5m0s' },
    ],
    maxUnhealthy: '40%',
    nodeStartupTimeout: '10m0s',
  },
  status: { expectedMachines: 3, currentHealthy: 3, remediationsAllowed: 1, observedGeneration: 3 },
});

function convertAll(objects: readonly Obj[], to: ChainVersion): Obj[] {
  return objects.map((o) => {
    const r = convertTo(o, to);
    if (E.isLeft(r)) throw new Error(JSON.stringify(r.left));
    return r.right.object;
  });
}

/** A v1beta1 object as a v1.10 cluster holds it: converted up once, our annotation dropped. */
function asV1beta1(objects: readonly Obj[]): Obj[] {
  return convertAll(objects, V1BETA1).map((o) => {
    const annotations = (o.metadata as { annotations?: Obj }).annotations;
    if (annotations !== undefined) delete annotations[CONVERSION_DATA_ANNOTATION];
    return o;
  });
}

const kinds = ['Cluster', 'Machine', 'MachineSet', 'MachineDeployment', 'MachineHealthCheck'] as const;
const start: Record<string, Obj[]> = {};
const v1beta1: Record<string, Obj[]> = {};
for (const kind of kinds) {
  start[kind] = Array.from({ length: count }, (_, i) =>
    kind === 'MachineHealthCheck' ? mhc(i) : v1alpha2[kind]!(i),
  );
  v1beta1[kind] = asV1beta1(start[kind]);
}
const review = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'ConversionReview',
  request: { uid: 'bench', desiredAPIVersion: V1BETA2, objects: v1beta1.Machine!.slice(0, 100) },
};

const bench = new Bench({ time: 1000, warmupTime: 300 });
let sink = 0;
for (const kind of kinds) {
  bench
    .add(`${kind} hop v1beta1 → v1beta2 (${count})`, () => {
      sink += convertAll(v1beta1[kind]!, V1BETA2).length;
    })
    .add(`${kind} chain → v1beta2 (${count})`, () => {
      sink += convertAll(start[kind]!, V1BETA2).length;
    })
    .add(`${kind} JSON.parse(JSON.stringify) (${count})`, () => {
      for (const o of v1beta1[kind]!) sink += JSON.parse(JSON.stringify(o)).kind.length;
    });
}
bench
  .add('webhook ConversionReview of 100 Machines', () => {
    sink += handleConversionReview(review).response.convertedObjects.length;
  })
  .add('webhook JSON.parse(JSON.stringify) of the review', () => {
    sink += JSON.parse(JSON.stringify(review)).request.objects.length;
  });
await bench.run();

console.log(
  `Node ${process.version}; ${count} objects per batch (chain: v1alpha2 → v1beta2, MachineHealthCheck v1alpha3 → v1beta2)`,
);
for (const t of bench.tasks) console.log(`${t.name}: ${meanMs(bench, t.name).toFixed(2)} ms`);
if (sink === 0) console.log('');
for (const kind of kinds) {
  const key = kind.toLowerCase();
  const json = meanMs(bench, `${kind} JSON.parse(JSON.stringify) (${count})`);
  printRatio(
    `chain-hop-v1beta1-v1beta2-${key}/json-roundtrip`,
    meanMs(bench, `${kind} hop v1beta1 → v1beta2 (${count})`),
    json,
  );
  printRatio(`chain-whole-${key}/json-roundtrip`, meanMs(bench, `${kind} chain → v1beta2 (${count})`), json);
}
printRatio(
  'webhook-review-100-machines/json-roundtrip',
  meanMs(bench, 'webhook ConversionReview of 100 Machines'),
  meanMs(bench, 'webhook JSON.parse(JSON.stringify) of the review'),
);
