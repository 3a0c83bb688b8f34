// providerID parse throughput over a mix of clouds, side by side with the least a program
// reading providerIDs does (split scheme and path segments, no validation, no identity),
// and matching 100,000 Nodes to 100,000 Machines with capi-kit's ProviderIDIndex side by
// side with the exact-string Map Cluster API uses today (>= v1.5: index and look up by the
// raw spec.providerID).
//
//   pnpm --filter @capi-kit/providerid bench
//
// CAPI_KIT_BENCH_MACHINES (default 100000) sizes the matching part; CAPI_KIT_BENCH_ROUNDS
// (default 100) timed rounds run every task once (interleavedMedians). 30% of the nodes
// spell their ID the way a cloud controller does when the provider writes it differently
// (region left out, legacy scheme, resource group case, bare OCID, ...); the exact Map
// cannot pair those, which the "pairs found" column shows.
import { countFromEnv, interleavedMedians, printRatio } from '../../../scripts/bench-ratio.js';
import { createProviderIDIndex, parseProviderID } from '../dist/index.js';

const machineCount = countFromEnv('CAPI_KIT_BENCH_MACHINES', 100_000);

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

// The IDs go through JSON, as they arrive from the API server in a list response: every
// string a program reads out of JSON.parse is one flat string. Built by template literals
// and left as they are, they stay V8 cons strings, which every read goes through: on them
// parse took 1.1-2.0 times as long and the split baseline 1.4-2.7 times (docs/benchmarks.md,
// ninth pass).
const instances: Instance[] = JSON.parse(
  JSON.stringify(
    Array.from({ length: machineCount }, (_, i) => {
      const instance = makers[i % makers.length]!(i);
      // 70% of nodes carry exactly the machine's string.
      return random() < 0.7 ? { machine: instance.machine, node: instance.machine } : instance;
    }),
  ),
);
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
const names = {
  parse: 'parse 10,000 mixed-cloud IDs',
  split: 'string split 10,000 mixed-cloud IDs (baseline)',
  index: `ProviderIDIndex: build ${machineCount} + match ${machineCount}`,
  exact: `exact-string Map: build ${machineCount} + match ${machineCount}`,
};
const tasks = [
  {
    name: names.parse,
    run: () => {
      for (const id of parseSample) parseProviderID(id);
    },
  },
  {
    name: names.split,
    run: () => {
      let segments = 0;
      for (const id of parseSample) {
        const at = id.indexOf('://');
        const scheme = at < 0 ? '' : id.slice(0, at);
        const parts = (at < 0 ? id : id.slice(at + 3)).split('/');
        segments += parts.length + (scheme === '' ? 0 : 1);
      }
      splitSegments = segments;
    },
  },
  {
    name: names.index,
    run: () => {
      const report = createProviderIDIndex(machines).match(nodes);
      pairsIndex = report.matched.length;
    },
  },
  {
    name: names.exact,
    run: () => {
      const byID = new Map<string, number>();
      for (const m of machines) byID.set(m.providerID, m.item);
      let found = 0;
      for (const n of nodes) if (byID.get(n.providerID) !== undefined) found++;
      pairsExact = found;
    },
  },
];
const rounds = countFromEnv('CAPI_KIT_BENCH_ROUNDS', 100);
const medians = interleavedMedians(tasks, { rounds, warmupRounds: 10 });
const median = (name: string) => medians.get(name)!;

console.log(
  `Node ${process.version}; ${machineCount} machines, ${nodes.length} nodes, ${makers.length} clouds; ${rounds} interleaved rounds`,
);
console.log('| task | median per batch | throughput |');
console.log('|---|---|---|');
for (const { name } of tasks) {
  const perSample = name.includes('10,000');
  const perItem = perSample ? parseSample.length : 2 * machineCount;
  const rate = (perItem * 1000) / median(name);
  const unit = perSample ? 'IDs/s' : 'IDs/s (machines + nodes)';
  console.log(
    `| ${name} | ${median(name).toFixed(1)} ms | ${Math.round(rate).toLocaleString('en-US')} ${unit} |`,
  );
}
console.log(
  `\nparse: ${Math.round((parseSample.length * 1000) / median(names.parse)).toLocaleString('en-US')} IDs/s`,
);
printRatio('providerid-index/exact-map', median(names.index), median(names.exact));
printRatio('providerid-parse/string-split', median(names.parse), median(names.split));
if (splitSegments === 0) throw new Error('benchmark: the split baseline read nothing');
console.log(
  `pairs found: ProviderIDIndex ${pairsIndex} of ${machineCount}; exact Map ${pairsExact} of ${machineCount}`,
);
