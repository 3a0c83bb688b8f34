// Conversion throughput (objects/s) for realistic Machines and MachineDeployments, side by
// side in the same run with JSON.parse + JSON.stringify of the same documents (the floor:
// one full copy of each object, which every conversion needs at least once).
//
//   pnpm --filter @capi-kit/conversion bench
//
// CAPI_KIT_BENCH_OBJECTS (default 1000) objects per batch; each task converts one batch, and
// CAPI_KIT_BENCH_ROUNDS (default 200) timed rounds run every task once (interleavedMedians).
// Both sides keep a batch's results until the batch ends, as a caller converting a manifest
// keeps its objects (until 2026-12-02 only the conversion did, the copies were dropped).
//
// A floor task per direction times the least work any lossless converter of these objects
// does, whatever its design: going up, one structural copy of the object, the stash text
// (JSON.stringify of the very payload capi-kit writes) and one copy of the providerSpec value
// (which the AWS plug-in carries into the AWSMachine); going down, JSON.parse of the stash
// text and one structural copy of the object. Its `FLOOR` line is on the same scale as the
// `RATIO` line: how much of the conversion's time is the work itself.
import * as E from 'fp-ts/lib/Either.js';
import { countFromEnv, interleavedMedians, printRatio } from '../../../scripts/bench-ratio.js';
import { awsConversionPlugin } from '../../providers-aws/dist/conversion/index.js';
import {
  CONVERSION_DATA_ANNOTATION,
  type ConvertOptions,
  convertObject,
  V1ALPHA1,
  V1ALPHA2,
} from '../dist/index.js';

const count = countFromEnv('CAPI_KIT_BENCH_OBJECTS', 1000);
const options: ConvertOptions = { plugins: [awsConversionPlugin] };

/** A control-plane or worker Machine as clusterctl v0.1 / CAPA v0.3 wrote them, with status. */
function machine(i: number): Record<string, unknown> {
  const controlPlane = i % 10 === 0;
  return {
    apiVersion: V1ALPHA1,
    kind: 'Machine',
    metadata: {
      name: `prod-eu-${controlPlane ? 'controlplane' : 'node'}-${i}`,
      namespace: 'team-a',
      uid: `3f1c2b9e-0000-4000-8000-${String(i).padStart(12, '0')}`,
      resourceVersion: String(100_000 + i),
      generation: 3,
      creationTimestamp: '2019-09-12T08:14:03Z',
      labels: { 'cluster.k8s.io/cluster-name': 'prod-eu', set: controlPlane ? 'controlplane' : 'node' },
      annotations: { 'cluster.k8s.io/delete-machine': i % 7 === 0 ? 'yes' : '' },
      finalizers: ['machine.cluster.k8s.io', 'foregroundDeletion'],
      ownerReferences: controlPlane
        ? []
        : [
            {
              apiVersion: V1ALPHA1,
              kind: 'MachineSet',
              name: 'prod-eu-workers-7d9f',
              uid: 'a1b2c3d4-0000-4000-8000-000000000001',
              controller: true,
            },
          ],
    },
    spec: {
      metadata: { labels: { 'node-role.kubernetes.io/worker': '' }, creationTimestamp: null },
      versions: controlPlane ? { kubelet: 'v1.14.4', controlPlane: 'v1.14.4' } : { kubelet: 'v1.14.4' },
      providerID: `aws:///eu-west-1a/i-0${(0xabc000 + i).toString(16)}`,
      providerSpec: {
        value: {
          apiVersion: 'awsprovider/v1alpha1',
          kind: 'AWSMachineProviderSpec',
          instanceType: controlPlane ? 'm5.large' : 't3.large',
          iamInstanceProfile: controlPlane
            ? 'control-plane.cluster-api-provider-aws.sigs.k8s.io'
            : 'nodes.cluster-api-provider-aws.sigs.k8s.io',
          keyName: 'ops-2019',
          availabilityZone: 'eu-west-1a',
          subnet: { filters: [{ name: 'tag:Name', values: ['prod-eu-private-eu-west-1a'] }] },
          additionalTags: { team: 'a', env: 'prod' },
          rootDeviceSize: 50,
          kubeadmConfiguration: {
            join: {
              nodeRegistration: {
                name: '{{ ds.meta_data.hostname }}',
                kubeletExtraArgs: { 'cloud-provider': 'aws' },
              },
            },
          },
        },
      },
    },
    status: {
      nodeRef: {
        kind: 'Node',
        name: `ip-10-0-${i % 250}-${i % 200}.eu-west-1.compute.internal`,
        uid: 'b1c2d3e4-0000-4000-8000-000000000002',
      },
      lastUpdated: '2019-09-12T08:20:41Z',
      versions: { kubelet: 'v1.14.4' },
      addresses: [
        { type: 'InternalIP', address: `10.0.${i % 250}.${i % 200}` },
        { type: 'InternalDNS', address: `ip-10-0-${i % 250}-${i % 200}.eu-west-1.compute.internal` },
      ],
      phase: 'Running',
      errorMessage: '',
      providerStatus: {
        apiVersion: 'awsprovider/v1alpha1',
        kind: 'AWSMachineProviderStatus',
        instanceID: `i-0${i}`,
        instanceState: 'running',
      },
    },
  };
}

function machineDeployment(i: number): Record<string, unknown> {
  const m = machine(i) as { spec: Record<string, unknown> };
  return {
    apiVersion: V1ALPHA1,
    kind: 'MachineDeployment',
    metadata: {
      name: `prod-eu-pool-${i}`,
      namespace: 'team-a',
      uid: `4a2d3c8f-0000-4000-8000-${String(i).padStart(12, '0')}`,
      resourceVersion: String(200_000 + i),
      generation: 5,
      labels: { 'cluster.k8s.io/cluster-name': 'prod-eu' },
      annotations: { 'machinedeployment.clusters.k8s.io/revision': '4' },
    },
    spec: {
      replicas: 3 + (i % 5),
      selector: { matchLabels: { 'cluster.k8s.io/cluster-name': 'prod-eu', pool: `pool-${i}` } },
      strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1, maxUnavailable: 0 } },
      revisionHistoryLimit: 1,
      progressDeadlineSeconds: 600,
      template: {
        metadata: { labels: { 'cluster.k8s.io/cluster-name': 'prod-eu', pool: `pool-${i}` } },
        spec: { versions: { kubelet: 'v1.14.4' }, providerSpec: m.spec.providerSpec },
      },
    },
    status: {
      observedGeneration: 5,
      replicas: 4,
      updatedReplicas: 4,
      readyReplicas: 4,
      availableReplicas: 4,
    },
  };
}

function convertAll(objects: readonly unknown[], to: typeof V1ALPHA1 | typeof V1ALPHA2): unknown[] {
  return objects.map((o) => {
    const r = convertObject(o, to, options);
    if (E.isLeft(r)) throw new Error(JSON.stringify(r.left));
    return r.right.object;
  });
}

const machines = Array.from({ length: count }, (_, i) => machine(i));
const deployments = Array.from({ length: count }, (_, i) => machineDeployment(i));
const machinesUp = convertAll(machines, V1ALPHA2);
const deploymentsUp = convertAll(deployments, V1ALPHA2);

let sink = 0;

/** A plain recursive copy of JSON data: the floor's structural copy. */
function copy(value: unknown): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map(copy);
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value)) out[key] = copy((value as Record<string, unknown>)[key]);
  return out;
}

type Json = Record<string, unknown>;
const stashText = (object: unknown) =>
  (object as { metadata: { annotations: Json } }).metadata.annotations[CONVERSION_DATA_ANNOTATION] as string;
const providerSpecValue = (object: unknown) => {
  const spec = (object as { spec: Json }).spec;
  const machineSpec = (spec.template === undefined ? spec : (spec.template as { spec: Json }).spec) as Json;
  return (machineSpec.providerSpec as Json).value;
};
/** The least work of converting `objects` up; `stashes[i]` is the payload capi-kit writes for `objects[i]`. */
function floorUp(objects: readonly unknown[], stashes: readonly unknown[]): void {
  sink += objects.map((o, i) => [copy(o), JSON.stringify(stashes[i]), copy(providerSpecValue(o))]).length;
}
/** The least work of converting `objects` down: read each stash, copy each object. */
function floorDown(objects: readonly unknown[]): void {
  sink += objects.map((o) => [JSON.parse(stashText(o)), copy(o)]).length;
}

function convertEach(objects: readonly unknown[], to: typeof V1ALPHA1 | typeof V1ALPHA2): void {
  sink += convertAll(objects, to).length;
}
function copyEach(objects: readonly unknown[]): void {
  sink += objects.map((o) => JSON.parse(JSON.stringify(o))).length;
}

const machineStashes = machinesUp.map((o) => JSON.parse(stashText(o)));
const deploymentStashes = deploymentsUp.map((o) => JSON.parse(stashText(o)));

const tasks = [
  { name: `Machine v1alpha1 → v1alpha2 (${count})`, run: () => convertEach(machines, V1ALPHA2) },
  { name: `Machine v1alpha2 → v1alpha1 (${count})`, run: () => convertEach(machinesUp, V1ALPHA1) },
  { name: `Machine JSON.parse(JSON.stringify) (${count})`, run: () => copyEach(machines) },
  { name: `MachineDeployment v1alpha1 → v1alpha2 (${count})`, run: () => convertEach(deployments, V1ALPHA2) },
  {
    name: `MachineDeployment v1alpha2 → v1alpha1 (${count})`,
    run: () => convertEach(deploymentsUp, V1ALPHA1),
  },
  { name: `MachineDeployment JSON.parse(JSON.stringify) (${count})`, run: () => copyEach(deployments) },
  { name: `Machine floor v1alpha1 → v1alpha2 (${count})`, run: () => floorUp(machines, machineStashes) },
  { name: `Machine floor v1alpha2 → v1alpha1 (${count})`, run: () => floorDown(machinesUp) },
  {
    name: `MachineDeployment floor v1alpha1 → v1alpha2 (${count})`,
    run: () => floorUp(deployments, deploymentStashes),
  },
  { name: `MachineDeployment floor v1alpha2 → v1alpha1 (${count})`, run: () => floorDown(deploymentsUp) },
];
const rounds = countFromEnv('CAPI_KIT_BENCH_ROUNDS', 200);
const medians = interleavedMedians(tasks, { rounds, warmupRounds: 20 });
const median = (name: string) => medians.get(name)!;

const bytes = (objs: readonly unknown[]) => Math.round(JSON.stringify(objs).length / objs.length);
console.log(
  `Node ${process.version}; ${count} objects per batch, ${rounds} interleaved rounds; mean JSON size: Machine ${bytes(machines)} B, MachineDeployment ${bytes(deployments)} B`,
);
console.log('| task | median per batch | objects/s | × JSON round trip |');
console.log('| --- | --- | --- | --- |');
for (const { name } of tasks) {
  const baseline = `${name.split(' ')[0]} JSON.parse(JSON.stringify) (${count})`;
  console.log(
    `| ${name} | ${median(name).toFixed(1)} ms | ${Math.round((count / median(name)) * 1000).toLocaleString('en-US')} | ${(median(name) / median(baseline)).toFixed(2)} |`,
  );
}
if (sink === 0) console.log('');

// The headline: each direction against a JSON round trip of the same objects, same run.
for (const [key, kind, direction] of [
  ['convert-machine-up/json-roundtrip', 'Machine', 'v1alpha1 → v1alpha2'],
  ['convert-machine-down/json-roundtrip', 'Machine', 'v1alpha2 → v1alpha1'],
  ['convert-machinedeployment-up/json-roundtrip', 'MachineDeployment', 'v1alpha1 → v1alpha2'],
  ['convert-machinedeployment-down/json-roundtrip', 'MachineDeployment', 'v1alpha2 → v1alpha1'],
] as const) {
  const baseline = median(`${kind} JSON.parse(JSON.stringify) (${count})`);
  printRatio(key, median(`${kind} ${direction} (${count})`), baseline);
  console.log(`FLOOR ${key} ${(median(`${kind} floor ${direction} (${count})`) / baseline).toFixed(3)}`);
}
