// Decoding realistic Cluster API objects: objects per second for the io-ts codecs (lenient,
// strict, `.is`, and the `decode` entry that dispatches on apiVersion + kind), side by side
// in the same run with ajv validating the same objects against the CRD OpenAPI schema
// (compiled by the fidelity test's oracle, x-kubernetes-* extensions and formats included),
// and with ajv validating the "reference" schema: the CRD plus the documented refinements
// (embedded Kubernetes types typed, Go nulls, integer ranges), i.e. the same checks as the codec.
//
//   pnpm --filter @capi-kit/core bench
//
// CAPI_KIT_BENCH_TIME (ms per task, default 2000) sets the measuring time.
import type * as t from 'io-ts';
import { Bench } from 'tinybench';
import { countFromEnv, meanMs, printRatio } from '../../../scripts/bench-ratio.js';
import { decode, decodeWith, strict } from '../dist/index.js';
import * as v1alpha1 from '../dist/v1alpha1/index.js';
import * as v1alpha2 from '../dist/v1alpha2/index.js';
import { buildOracles } from '../test/schemas/support/crd-oracle.js';

const time = countFromEnv('CAPI_KIT_BENCH_TIME', 2000);

const labels = {
  'cluster.x-k8s.io/cluster-name': 'prod-eu-1',
  'machine-template-hash': '3866187521',
  'nodepool.example.com/name': 'workers-a',
};

/** A Machine as the v0.2 controllers leave it: running, with addresses and owner reference. */
const machineV1alpha2: v1alpha2.Machine = {
  apiVersion: 'cluster.x-k8s.io/v1alpha2',
  kind: 'Machine',
  metadata: {
    name: 'workers-a-7d9f8c6b5-x2k4q',
    generateName: 'workers-a-7d9f8c6b5-',
    namespace: 'prod',
    uid: 'd8f5b1d2-8a9e-4c1f-9b0a-3c2d1e0f9a8b',
    resourceVersion: '1234567',
    generation: 3,
    creationTimestamp: '2020-02-18T10:21:33Z',
    labels,
    annotations: { 'machinedeployment.clusters.k8s.io/revision': '4' },
    finalizers: ['machine.cluster.x-k8s.io'],
    ownerReferences: [
      {
        apiVersion: 'cluster.x-k8s.io/v1alpha2',
        kind: 'MachineSet',
        name: 'workers-a-7d9f8c6b5',
        uid: '0b1c2d3e-4f50-6172-8394-a5b6c7d8e9f0',
        controller: true,
        blockOwnerDeletion: true,
      },
    ],
  },
  spec: {
    metadata: {},
    bootstrap: {
      configRef: {
        apiVersion: 'bootstrap.cluster.x-k8s.io/v1alpha2',
        kind: 'KubeadmConfig',
        name: 'workers-a-7d9f8c6b5-x2k4q',
        namespace: 'prod',
        uid: '1a2b3c4d-5e6f-7081-92a3-b4c5d6e7f809',
      },
      data: 'I2Nsb3VkLWNvbmZpZwp3cml0ZV9maWxlczoKLSBwYXRoOiAvZXRjL2t1YmVybmV0ZXMvcGtpL2NhLmNydAo=',
    },
    infrastructureRef: {
      apiVersion: 'infrastructure.cluster.x-k8s.io/v1alpha2',
      kind: 'AWSMachine',
      name: 'workers-a-7d9f8c6b5-x2k4q',
      namespace: 'prod',
      uid: '2b3c4d5e-6f70-8192-a3b4-c5d6e7f8091a',
    },
    version: 'v1.16.7',
    providerID: 'aws:///eu-west-1a/i-0a1b2c3d4e5f67890',
  },
  status: {
    nodeRef: {
      kind: 'Node',
      apiVersion: 'v1',
      name: 'ip-10-0-12-34.eu-west-1.compute.internal',
      uid: '3c4d5e6f-7081-92a3-b4c5-d6e7f8091a2b',
    },
    addresses: [
      { type: 'InternalIP', address: '10.0.12.34' },
      { type: 'InternalDNS', address: 'ip-10-0-12-34.eu-west-1.compute.internal' },
      { type: 'ExternalIP', address: '34.240.1.2' },
    ],
    phase: 'running',
    bootstrapReady: true,
    infrastructureReady: true,
  },
};

const machineDeploymentV1alpha2: v1alpha2.MachineDeployment = {
  apiVersion: 'cluster.x-k8s.io/v1alpha2',
  kind: 'MachineDeployment',
  metadata: {
    name: 'workers-a',
    namespace: 'prod',
    uid: '4d5e6f70-8192-a3b4-c5d6-e7f8091a2b3c',
    resourceVersion: '1234501',
    generation: 7,
    creationTimestamp: '2020-02-18T10:20:00Z',
    labels: { 'cluster.x-k8s.io/cluster-name': 'prod-eu-1' },
    annotations: { 'machinedeployment.clusters.k8s.io/revision': '4' },
  },
  spec: {
    replicas: 12,
    selector: {
      matchLabels: { 'cluster.x-k8s.io/cluster-name': 'prod-eu-1', 'nodepool.example.com/name': 'workers-a' },
    },
    template: {
      metadata: {
        labels: { 'cluster.x-k8s.io/cluster-name': 'prod-eu-1', 'nodepool.example.com/name': 'workers-a' },
      },
      spec: {
        bootstrap: {
          configRef: {
            apiVersion: 'bootstrap.cluster.x-k8s.io/v1alpha2',
            kind: 'KubeadmConfigTemplate',
            name: 'workers-a',
          },
        },
        infrastructureRef: {
          apiVersion: 'infrastructure.cluster.x-k8s.io/v1alpha2',
          kind: 'AWSMachineTemplate',
          name: 'workers-a-v4',
        },
        version: 'v1.16.7',
      },
    },
    strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1, maxUnavailable: '25%' } },
    minReadySeconds: 30,
    revisionHistoryLimit: 1,
    progressDeadlineSeconds: 600,
  },
  status: {
    observedGeneration: 7,
    selector: 'cluster.x-k8s.io/cluster-name=prod-eu-1,nodepool.example.com/name=workers-a',
    replicas: 12,
    updatedReplicas: 12,
    readyReplicas: 12,
    availableReplicas: 12,
    unavailableReplicas: 0,
  },
};

/** A v1alpha1 Machine with an inline AWS provider spec, taints and node conditions. */
const machineV1alpha1: v1alpha1.Machine = {
  apiVersion: 'cluster.k8s.io/v1alpha1',
  kind: 'Machine',
  metadata: {
    name: 'workers-a-x2k4q',
    namespace: 'prod',
    labels: { 'cluster.k8s.io/cluster-name': 'prod-eu-1', set: 'workers-a' },
    creationTimestamp: '2019-09-06T10:21:33Z',
    finalizers: ['machine.cluster.k8s.io'],
  },
  spec: {
    metadata: { labels: { 'node-role.kubernetes.io/worker': '' } },
    taints: [{ key: 'dedicated', value: 'batch', effect: 'NoSchedule' }],
    providerSpec: {
      value: {
        apiVersion: 'awsprovider/v1alpha1',
        kind: 'AWSMachineProviderSpec',
        ami: { id: 'ami-0a1b2c3d' },
        instanceType: 'm5.xlarge',
        iamInstanceProfile: 'nodes.cluster-api-provider-aws.sigs.k8s.io',
        keyName: 'default',
        subnet: { filters: [{ name: 'tag:Name', values: ['prod-eu-1-private-eu-west-1a'] }] },
      },
    },
    versions: { kubelet: '1.15.3' },
    providerID: 'aws:///eu-west-1a/i-0a1b2c3d4e5f67890',
  },
  status: {
    nodeRef: {
      kind: 'Node',
      name: 'ip-10-0-12-34.eu-west-1.compute.internal',
      uid: '3c4d5e6f-7081-92a3-b4c5-d6e7f8091a2b',
    },
    lastUpdated: '2019-09-06T10:25:02Z',
    addresses: [
      { type: 'InternalIP', address: '10.0.12.34' },
      { type: 'InternalDNS', address: 'ip-10-0-12-34.eu-west-1.compute.internal' },
    ],
    conditions: [
      {
        type: 'Ready',
        status: 'True',
        lastHeartbeatTime: '2019-09-06T10:30:00Z',
        lastTransitionTime: '2019-09-06T10:24:10Z',
        reason: 'KubeletReady',
        message: 'kubelet is posting ready status',
      },
      {
        type: 'MemoryPressure',
        status: 'False',
        lastHeartbeatTime: '2019-09-06T10:30:00Z',
        lastTransitionTime: '2019-09-06T10:24:10Z',
        reason: 'KubeletHasSufficientMemory',
      },
    ],
  },
};

// The CRD schema as is (`crd`) and with the documented refinements (`reference`), compiled once.
const oracles = buildOracles();
function oracleFor(apiVersion: string, kind: string) {
  const oracle = oracles.find((o) => o.apiVersion === apiVersion && o.kind === kind);
  if (oracle === undefined) throw new Error(`no oracle for ${apiVersion} ${kind}`);
  return oracle;
}

const subjects: ReadonlyArray<{
  label: string;
  value: { apiVersion: string; kind: string };
  codec: t.Mixed;
}> = [
  { label: 'v1alpha2 Machine', value: machineV1alpha2, codec: v1alpha2.MachineCodec },
  {
    label: 'v1alpha2 MachineDeployment',
    value: machineDeploymentV1alpha2,
    codec: v1alpha2.MachineDeploymentCodec,
  },
  { label: 'v1alpha1 Machine', value: machineV1alpha1, codec: v1alpha1.MachineCodec },
];

const bench = new Bench({ time, warmupTime: 300 });
for (const { label, value, codec } of subjects) {
  const { crd: validate, reference: validateReference } = oracleFor(value.apiVersion, value.kind);
  const strictCodec = strict(codec);
  // Each task checks its verdict so a broken codec cannot look fast.
  const ok = (accepted: boolean) => {
    if (!accepted) throw new Error(`${label} rejected`);
  };
  bench
    .add(`${label} | io-ts decodeWith (lenient)`, () => ok(decodeWith(codec, value)._tag === 'Right'))
    .add(`${label} | io-ts decodeWith (strict)`, () => ok(decodeWith(strictCodec, value)._tag === 'Right'))
    .add(`${label} | io-ts decode() dispatch`, () => ok(decode(value)._tag === 'Right'))
    .add(`${label} | io-ts codec.is`, () => ok(codec.is(value)))
    .add(`${label} | ajv CRD schema`, () => ok(validate(value)))
    .add(`${label} | ajv reference schema`, () => ok(validateReference(value)));
}
await bench.run();

// Objects per second from the mean time per object (throws on a task without a result).
const rate = (name: string) => 1000 / meanMs(bench, name);
const fmt = (n: number) => Math.round(n).toLocaleString('en-US');

console.log(`Node ${process.version}, ${time} ms per task`);
console.log(
  '| object | io-ts lenient | io-ts strict | decode() | codec.is | ajv (CRD) | ajv (reference) | ajv CRD ÷ io-ts lenient |',
);
console.log('|---|---|---|---|---|---|---|---|');
for (const { label } of subjects) {
  const lenient = rate(`${label} | io-ts decodeWith (lenient)`);
  const ajvRate = rate(`${label} | ajv CRD schema`);
  console.log(
    `| ${label} | ${fmt(lenient)} | ${fmt(rate(`${label} | io-ts decodeWith (strict)`))} | ${fmt(rate(`${label} | io-ts decode() dispatch`))} | ${fmt(rate(`${label} | io-ts codec.is`))} | ${fmt(ajvRate)} | ${fmt(rate(`${label} | ajv reference schema`))} | ${(ajvRate / lenient).toFixed(1)}× |`,
  );
}
console.log('(objects per second, from the mean time per object)');

// The headline: `decode()`, the entry users call (dispatch on apiVersion + kind, then the
// compiled guard), against ajv on the raw CRD schema and on the reference schema.
const machine = 'v1alpha2 Machine';
printRatio(
  'decode-v1alpha2-machine/ajv-crd',
  meanMs(bench, `${machine} | io-ts decode() dispatch`),
  meanMs(bench, `${machine} | ajv CRD schema`),
);
printRatio(
  'decode-v1alpha2-machine/ajv-reference',
  meanMs(bench, `${machine} | io-ts decode() dispatch`),
  meanMs(bench, `${machine} | ajv reference schema`),
);
