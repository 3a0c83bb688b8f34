// providerID parse throughput over a mix of clouds, side by side with the least a program
// reading providerIDs does (split scheme and path segments, no validation, no identity),
// and matching 100,000 Nodes to 100,000 Machines with capi-kit's ProviderIDIndex side by
// side with the exact-string Map Cluster API uses today (>= v1.5: index and look up by the
// raw spec.providerID).
//
//   pnpm --filter @capi-kit/providerid bench
//
// CAPI_KIT_BENCH_MACHINES (default 100000) sizes the matching part. 30% of the nodes
// spell their ID the way a cloud controller does when the provider writes it differently
// (region left out, legacy scheme, resource group case, bare OCID, ...); the exact Map
// cannot pair those, which the "pairs found" column shows.
import { Bench } from 'tinybench';
import { meanMs, printRatio } from '../../../scripts/bench-ratio.js';
import { createProviderIDIndex, parseProviderID } from '../src/index.js';

const machineCount = Number(process.env.CAPI_KIT_BENCH_MACHINES ?? 100_000);

// Deterministic pseudo-random numbers (LCG), so every run matches the same data.
let seed = 42;
const random = () => {
  seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
  return seed / 2 ** 31;
};
const hex = (n: number) => Array.from({ length: n }, () => Math.floor(random() * 16).toString(16)).join('');
const uuid = () => `${hex(8)}-${hex(4)}-${hex(4)}-${hex(4)}-${hex(12)}`;

/** One instance: how its Machine spells it, and how a cloud controller may spell it on the Node. */
type Instance = { machine: string; node: string };

const makers: ((i: number) => Instance)[] = [
  (i) => {
    const id = `aws:///us-east-1${'abc'[i % 3]}/i-${hex(17)}`;
    return { machine: id, node: id };
  },
  (i) => {
    const id = `gce://proj-${i % 7}/europe-west4-${'abc'[i % 3]}/node-${i}`;
    return { machine: id, node: id };
  },
  (i) => {
    const path = `/subscriptions/${uuid()}/resourceGroups/%RG%/providers/Microsoft.Compute/virtualMachineScaleSets/pool-${i % 5}-vmss/virtualMachines/${i}`;
    return {
      machine: `azure://${path.replace('%RG%', `Cluster-RG-${i % 11}`)}`,
      node: `azure://${path.replace('%RG%', `cluster-rg-${i % 11}`)}`,
    };
  },
  () => {
    const id = uuid();
    return { machine: `vsphere://${id.toUpperCase()}`, node: `vsphere://${id}` };
  },
  () => {
    const id = uuid();
    return { machine: `openstack://RegionOne/${id}`, node: `openstack:///${id}` };
  },
  () => {
    const id = uuid();
    return { machine: `equinixmetal://${id}`, node: `packet://${id}` };
  },
  (i) => ({ machine: `hcloud://bm-${1000 + i}`, node: `hrobot://${1000 + i}` }),
  () => {
    const ocid = `ocid1.instance.oc1.phx.${hex(20)}`;
    return { machine: `oci://${ocid}`, node: ocid };
  },
  (i) => {
    const id = `digitalocean://${300_000_000 + i}`;
    return { machine: id, node: id };
  },
  () => {
    const id = uuid();
    return { machine: `cloudstack:///${id}`, node: `external-cloudstack://${id}` };
  },
];

const instances: Instance[] = Array.from({ length: machineCount }, (_, i) => {
  const instance = makers[i % makers.length]!(i);
  // 70% of nodes carry exactly the machine's string.
  return random() < 0.7 ? { machine: instance.machine, node: instance.machine } : instance;
});
const machines = instances.map((x, i) => ({ providerID: x.machine, item: i }));
const nodes = instances.map((x, i) => ({ providerID: x.node, item: i }));
// Nodes come back from the API server in another order than machines.
for (let i = nodes.length - 1; i > 0; i--) {
  const j = Math.floor(random() * (i + 1));
  [nodes[i], nodes[j]] = [nodes[j]!, nodes[i]!];
}

const parseSample = nodes.slice(0, 10_000).map((n) => n.providerID);

let pairsIndex = 0;
let pairsExact = 0;
// Read by the split baseline so its work is not optimised away.
let splitSegments = 0;
const bench = new Bench({ time: 2_000, iterations: 5, warmupIterations: 1 });
bench
  .add('parse 10,000 mixed-cloud IDs', () => {
    for (const id of parseSample) parseProviderID(id);
  })
  .add('string split 10,000 mixed-cloud IDs (baseline)', () => {
    let segments = 0;
    for (const id of parseSample) {
      const at = id.indexOf('://');
      const scheme = at < 0 ? '' : id.slice(0, at);
      const parts = (at < 0 ? id : id.slice(at + 3)).split('/');
      segments += parts.length + (scheme === '' ? 0 : 1);
    }
    splitSegments = segments;
  })
  .add(`ProviderIDIndex: build ${machineCount} + match ${machineCount}`, () => {
    const report = createProviderIDIndex(machines).match(nodes);
    pairsIndex = report.matched.length;
  })
  .add(`exact-string Map: build ${machineCount} + match ${machineCount}`, () => {
    const byID = new Map<string, number>();
    for (const m of machines) byID.set(m.providerID, m.item);
    let found = 0;
    for (const n of nodes) if (byID.get(n.providerID) !== undefined) found++;
    pairsExact = found;
  });
await bench.run();

console.log(
  `Node ${process.version}; ${machineCount} machines, ${nodes.length} nodes, ${makers.length} clouds`,
);
console.log('| task | mean | median | samples | throughput |');
console.log('|---|---|---|---|---|');
const means: Record<string, number> = {};
for (const task of bench.tasks) {
  const r = task.result;
  if (r.state !== 'completed') {
    console.log(`| ${task.name} | ${r.state} | | | |`);
    continue;
  }
  means[task.name] = r.latency.mean;
  const perSample = task.name.includes('10,000');
  const perItem = perSample ? parseSample.length : 2 * machineCount;
  const rate = (perItem * 1000) / r.latency.mean;
  const unit = perSample ? 'IDs/s' : 'IDs/s (machines + nodes)';
  console.log(
    `| ${task.name} | ${r.latency.mean.toFixed(1)} ms | ${r.latency.p50.toFixed(1)} ms | ${r.latency.samplesCount} | ${Math.round(rate).toLocaleString('en-US')} ${unit} |`,
  );
}
const indexTask = `ProviderIDIndex: build ${machineCount} + match ${machineCount}`;
const exactTask = `exact-string Map: build ${machineCount} + match ${machineCount}`;
console.log(
  `\nparse: ${Math.round((parseSample.length * 1000) / meanMs(bench, 'parse 10,000 mixed-cloud IDs')).toLocaleString('en-US')} IDs/s`,
);
printRatio('providerid-index/exact-map', meanMs(bench, indexTask), meanMs(bench, exactTask));
printRatio(
  'providerid-parse/string-split',
  meanMs(bench, 'parse 10,000 mixed-cloud IDs'),
  meanMs(bench, 'string split 10,000 mixed-cloud IDs (baseline)'),
);
if (splitSegments === 0) throw new Error('benchmark: the split baseline read nothing');
console.log(
  `pairs found: ProviderIDIndex ${pairsIndex} of ${machineCount}; exact Map ${pairsExact} of ${machineCount}`,
);
