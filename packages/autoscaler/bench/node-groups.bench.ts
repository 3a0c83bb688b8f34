// What the node-group provider does in memory, against a plain map lookup in the same run:
//
// - nodeGroupForNode (`groupOfNode`; `explainNode`, which builds its explanation, beside it)
//   over 10,000 Nodes (10,000 Machines in 200 groups; half the Nodes spell their providerID
//   without the zone), against one Map.get per Node on a map from the exact providerID
//   string to the group id (what matching by string costs at best);
// - a full refresh (the Snapshot the provider rebuilds after its caches change) of 5,000
//   Machines in 200 MachineDeployments with their Nodes, against building that plain map.
//
//   pnpm --filter @capi-kit/autoscaler bench

import { providerIDRegistry } from '@capi-kit/providerid';
import { Bench } from 'tinybench';
import { meanMs, printRatio } from '../../../scripts/bench-ratio.js';
import { NodeGroup, type NodeGroupContext } from '../dist/node-group.js';
import type { KubeObject } from '../dist/objects.js';
import { groupOfNode, resolveNode } from '../dist/resolve-node.js';
import { Snapshot, type SnapshotInput } from '../dist/snapshot.js';

const groupCount = 200;
const hex = (n: number) => n.toString(16).padStart(17, '0');

function fixture(machineCount: number) {
  const machineDeployments: KubeObject[] = [];
  const machineSets: KubeObject[] = [];
  const machines: KubeObject[] = [];
  const nodes: KubeObject[] = [];
  for (let g = 0; g < groupCount; g++) {
    const md = {
      kind: 'MachineDeployment',
      metadata: {
        name: `md-${g}`,
        namespace: `ns-${g % 10}`,
        uid: `md-uid-${g}`,
        annotations: {
          'cluster.x-k8s.io/cluster-api-autoscaler-node-group-min-size': '1',
          'cluster.x-k8s.io/cluster-api-autoscaler-node-group-max-size': '100',
        },
      },
      spec: { replicas: machineCount / groupCount },
    };
    const ms = {
      kind: 'MachineSet',
      metadata: {
        name: `md-${g}-x`,
        namespace: md.metadata.namespace,
        uid: `ms-uid-${g}`,
        ownerReferences: [{ kind: 'MachineDeployment', name: md.metadata.name, uid: md.metadata.uid }],
      },
    };
    machineDeployments.push(md);
    machineSets.push(ms);
  }
  for (let i = 0; i < machineCount; i++) {
    const ms = machineSets[i % groupCount]!;
    const id = `aws:///us-east-1${'abc'[i % 3]}/i-${hex(i)}`;
    machines.push({
      kind: 'Machine',
      metadata: {
        name: `m-${i}`,
        namespace: ms.metadata!.namespace,
        uid: `m-uid-${i}`,
        ownerReferences: [{ kind: 'MachineSet', name: ms.metadata!.name, uid: ms.metadata!.uid }],
      },
      spec: { providerID: id },
    });
    // Half the Nodes spell the ID without the zone: the same instance, another string.
    nodes.push({
      metadata: { name: `node-${i}` },
      spec: { providerID: i % 2 === 0 ? id : `aws:////i-${hex(i)}` },
    });
  }
  const input: SnapshotInput = {
    machines,
    machineSets,
    machineDeployments,
    autoDiscovery: [],
    registry: providerIDRegistry,
    nodes,
  };
  return { input, nodes };
}

// resolveNode only reads a group's id; the context is never called here.
const noContext = {} as NodeGroupContext;
function groupsOf(snapshot: Snapshot) {
  return new Map([...snapshot.groups].map(([id, entry]) => [id, new NodeGroup(entry, noContext)]));
}

/** The baseline's map: exact providerID string → group id, through the owner chain. */
function plainMap(input: SnapshotInput): Map<string, string> {
  const setOwner = new Map<string, string>();
  for (const ms of input.machineSets) {
    const md = ms.metadata!.ownerReferences![0]!;
    setOwner.set(
      `${ms.metadata!.namespace}/${ms.metadata!.name}`,
      `MachineDeployment/${ms.metadata!.namespace}/${md.name}`,
    );
  }
  const byID = new Map<string, string>();
  for (const m of input.machines) {
    const ms = m.metadata!.ownerReferences![0]!;
    byID.set(
      (m.spec as { providerID: string }).providerID,
      setOwner.get(`${m.metadata!.namespace}/${ms.name}`)!,
    );
  }
  return byID;
}

const lookups = fixture(10_000);
const lookupSnapshot = new Snapshot(lookups.input);
const lookupGroups = groupsOf(lookupSnapshot);
const lookupMap = plainMap(lookups.input);
const refresh = fixture(5_000);

// Correctness first: every Node finds its group, the same one both ways (the map finds only
// the exact spellings).
let found = 0;
for (const node of lookups.nodes) {
  const group = groupOfNode(lookupSnapshot, lookupGroups, node);
  if (group !== resolveNode(lookupSnapshot, lookupGroups, node).group)
    throw new Error(`groupOfNode and resolveNode disagree on ${node.metadata!.name}`);
  if (group !== null) found++;
}
if (found !== lookups.nodes.length)
  throw new Error(`only ${found} of ${lookups.nodes.length} nodes found a group`);
const mapFound = lookups.nodes.filter((n) =>
  lookupMap.has((n.spec as { providerID: string }).providerID),
).length;

const names = {
  lookup: 'nodeGroupForNode × 10,000 nodes (identity)',
  explain: 'explainNode × 10,000 nodes (identity, with the explanation)',
  lookupBaseline: 'Map.get × 10,000 (exact string)',
  refresh: 'refresh: 5,000 machines, 200 groups, 5,000 nodes',
  refreshBaseline: 'build providerID → group Map, 5,000 machines',
};
let sink = 0;
const bench = new Bench({ time: 2_000, iterations: 10, warmupIterations: 3 });
bench
  .add(names.lookup, () => {
    for (const node of lookups.nodes) if (groupOfNode(lookupSnapshot, lookupGroups, node) !== null) sink++;
  })
  .add(names.explain, () => {
    for (const node of lookups.nodes)
      if (resolveNode(lookupSnapshot, lookupGroups, node).group !== null) sink++;
  })
  .add(names.lookupBaseline, () => {
    for (const node of lookups.nodes)
      if (lookupMap.get((node.spec as { providerID: string }).providerID)) sink++;
  })
  .add(names.refresh, () => {
    const snapshot = new Snapshot(refresh.input);
    sink += groupsOf(snapshot).size;
  })
  .add(names.refreshBaseline, () => {
    sink += plainMap(refresh.input).size;
  });
await bench.run();

console.log(
  `Node ${process.version}; plain map found ${mapFound} of 10,000 nodes, identity all 10,000 (sink ${sink > 0})`,
);
console.log('| task | mean | per item |');
console.log('|---|---|---|');
for (const [name, items] of [
  [names.lookup, 10_000],
  [names.explain, 10_000],
  [names.lookupBaseline, 10_000],
  [names.refresh, 5_000],
  [names.refreshBaseline, 5_000],
] as const) {
  const ms = meanMs(bench, name);
  console.log(`| ${name} | ${ms.toFixed(2)} ms | ${((ms * 1000) / items).toFixed(2)} µs |`);
}
printRatio(
  'autoscaler-node-group-for-node-10k/map-lookup',
  meanMs(bench, names.lookup),
  meanMs(bench, names.lookupBaseline),
);
printRatio(
  'autoscaler-refresh-5000/map-build',
  meanMs(bench, names.refresh),
  meanMs(bench, names.refreshBaseline),
);
