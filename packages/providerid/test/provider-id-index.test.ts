import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createProviderIDRegistry, ProviderIDIndex } from '../src/index.js';
import { numbered, regional } from './toy-grammars.js';

const registry = createProviderIDRegistry([numbered, regional]);
const entries = (ids: string[]) => ids.map((providerID) => ({ providerID, item: providerID }));

describe('ProviderIDIndex', () => {
  it('pairs nodes with machines by identity, not by string', () => {
    const index = new ProviderIDIndex(registry, entries(['num://1', 'regional://r1/a', 'foo://x/y']));
    const report = index.match(entries(['oldnum://01', 'regional:///a', 'foo:///x/y', 'num://9']));
    expect(report.matched.map((p) => [p.node, p.machine])).toEqual([
      ['oldnum://01', 'num://1'],
      ['regional:///a', 'regional://r1/a'],
      ['foo:///x/y', 'foo://x/y'],
    ]);
    expect(report.unmatchedNodes).toEqual(['num://9']);
    expect(report.unmatchedMachines).toEqual([]);
    expect(report.ambiguous).toEqual([]);
  });

  it('never pairs different qualifiers', () => {
    const index = new ProviderIDIndex(registry, entries(['regional://r1/a']));
    const report = index.match(entries(['regional://r2/a']));
    expect(report.matched).toEqual([]);
    expect(report.unmatchedNodes).toEqual(['regional://r2/a']);
    expect(report.unmatchedMachines).toEqual(['regional://r1/a']);
  });

  it('reports a node that denotes several machines', () => {
    const index = new ProviderIDIndex(registry, entries(['regional://r1/a', 'regional://r2/a']));
    const report = index.match(entries(['regional:///a']));
    expect(report.matched).toEqual([]);
    expect(report.ambiguous).toEqual([
      {
        nodes: ['regional:///a'],
        machines: ['regional://r1/a', 'regional://r2/a'],
        reason: expect.any(String),
      },
    ]);
    expect(index.lookup('regional:///a')).toHaveLength(2);
    expect(index.lookup('regional://r1/a')).toEqual(['regional://r1/a']);
  });

  it('reports a machine that several nodes denote', () => {
    const index = new ProviderIDIndex(registry, entries(['num://5']));
    const report = index.match(entries(['num://5', 'oldnum://5']));
    expect(report.matched).toEqual([]);
    expect(report.ambiguous).toEqual([
      {
        nodes: ['num://5', 'oldnum://5'],
        machines: ['num://5'],
        reason: expect.stringContaining('several nodes'),
      },
    ]);
    expect(report.unmatchedMachines).toEqual([]);
  });

  it('keeps machines and nodes with empty IDs unmatched', () => {
    const index = new ProviderIDIndex(registry, entries(['', 'num://1']));
    expect(index.size).toBe(2);
    const report = index.match(entries(['', 'num://1']));
    expect(report.matched).toHaveLength(1);
    expect(report.unmatchedNodes).toEqual(['']);
    expect(report.unmatchedMachines).toEqual(['']);
    expect(index.lookup('')).toEqual([]);
  });

  it('matches a qualified node with an unqualified machine and with a same-region one', () => {
    const index = new ProviderIDIndex(registry, entries(['regional:///a', 'regional://r1/a']));
    expect(index.lookup('regional://r1/a')).toEqual(['regional://r1/a', 'regional:///a']);
    expect(index.lookup('regional://r2/a')).toEqual(['regional:///a']);
  });
});

// IDs that collide in every way the index cares about: same instance in other spellings,
// with and without qualifier, empty, and unknown schemes.
const COLLIDING_IDS = [
  'num://1',
  'oldnum://0001',
  'num://2',
  'regional://r1/a',
  'regional://r2/a',
  'regional:///a',
  'regional://r1/b',
  'foo://x/y',
  'foo://x//y',
  '',
];

describe('ProviderIDIndex sharing the registry’s cells', () => {
  const pool = COLLIDING_IDS;
  const ids = fc.array(fc.constantFrom(...pool), { maxLength: 8 });
  const asEntries = (list: readonly string[], tag: string) =>
    list.map((providerID, i) => ({ providerID, item: `${tag}${i}` }));

  it('answers as an index alone on its registry, however indexes interleave', { timeout: 120_000 }, () => {
    fc.assert(
      fc.property(ids, ids, ids, fc.boolean(), (machinesA, machinesB, nodes, registerMidway) => {
        const shared = createProviderIDRegistry([numbered, regional]);
        const a = new ProviderIDIndex<string>(shared);
        const b = new ProviderIDIndex<string>(shared);
        const entriesA = asEntries(machinesA, 'a');
        const entriesB = asEntries(machinesB, 'b');
        // Interleaved adds: each steals the other's cells.
        for (let i = 0; i < Math.max(entriesA.length, entriesB.length); i++) {
          if (entriesA[i]) a.add(entriesA[i]!);
          if (entriesB[i]) b.add(entriesB[i]!);
        }
        const c = new ProviderIDIndex(shared, asEntries(machinesA, 'a'));
        if (registerMidway) shared.register({ ...numbered, cloud: 'late', schemes: ['late'] });
        const nodeEntries = asEntries(nodes, 'n');
        for (const [index, machines] of [
          [a, machinesA],
          [b, machinesB],
          [c, machinesA],
        ] as const) {
          const alone = new ProviderIDIndex(
            createProviderIDRegistry([numbered, regional]),
            asEntries(machines, index === b ? 'b' : 'a'),
          );
          expect(index.match(nodeEntries)).toEqual(alone.match(nodeEntries));
          for (const node of nodes) expect(index.lookup(node)).toEqual(alone.lookup(node));
        }
      }),
      { numRuns: 1000 },
    );
  });
});

describe('ProviderIDIndex with one instance under many qualifiers', () => {
  // One group of machines per instance; a qualified node denotes those of its qualifier, then
  // the unqualified ones, each in the order filed. Past a few, the group is split by key.
  const region = fc.constantFrom('', 'r0', 'r1', 'r2', 'r3', 'r4', 'r5');
  const id = (r: string) => `regional://${r}/a`;
  const denoted = (machines: readonly string[], node: string) => {
    const r = node.slice('regional://'.length, -'/a'.length);
    if (r === '') return machines.map((_, i) => `m${i}`);
    const tagged = machines.map((m, i) => ({ m, item: `m${i}` }));
    return [...tagged.filter((t) => t.m === node), ...tagged.filter((t) => t.m === id(''))].map(
      (t) => t.item,
    );
  };

  it('denotes the same machines as the definition, also after machines join a split group', () => {
    const regions = fc.array(region, { maxLength: 30 });
    fc.assert(
      fc.property(regions, regions, fc.array(region, { maxLength: 7 }), (first, later, nodes) => {
        const machines = first.map(id);
        const index = new ProviderIDIndex(
          registry,
          machines.map((providerID, i) => ({ providerID, item: `m${i}` })),
        );
        for (const node of nodes.map(id)) expect(index.lookup(node)).toEqual(denoted(machines, node));
        for (const [n, providerID] of later.map(id).entries()) {
          index.add({ providerID, item: `m${machines.push(providerID) - 1}` });
          // a lookup between adds, as an informer's handler does
          const node = nodes[n % Math.max(nodes.length, 1)];
          if (node !== undefined) expect(index.lookup(id(node))).toEqual(denoted(machines, id(node)));
        }
        for (const node of nodes.map(id)) expect(index.lookup(node)).toEqual(denoted(machines, node));
      }),
      { numRuns: 2000 },
    );
  });

  it('matches 50,000 nodes to 50,000 machines of one instance ID in as many zones', () => {
    // (every node scanned the whole group: 20,000 of each took 6.6 s, 50,000 about 40 s)
    const ids = Array.from({ length: 50_000 }, (_, i) => id(`zone-${i}`));
    const index = new ProviderIDIndex(registry, entries(ids));
    const report = index.match(entries(ids));
    expect(report.matched).toHaveLength(50_000);
    expect(report.ambiguous).toEqual([]);
  });

  it('adds 30,000 machines of one instance ID one by one, each followed by a lookup', () => {
    // (each lookup split the whole group again: this took over 60 s; now well under one)
    const index = new ProviderIDIndex<string>(registry);
    for (let i = 0; i < 30_000; i++) {
      index.add({ providerID: id(`zone-${i}`), item: `m${i}` });
      expect(index.lookup(id(`zone-${i}`))).toEqual([`m${i}`]);
    }
  });
});

describe('ProviderIDIndex.match', () => {
  // The report as defined: every node's candidates (lookup), then pairs where a node has
  // one candidate that no other node claims; ambiguous groups in the order of the node
  // that opens each. This reading builds it from lookup() alone, apart from match()'s
  // bookkeeping (slot numbers, claim counts, shared cells).
  type Entry = { providerID: string; item: string };
  function reference(index: ProviderIDIndex<string>, machines: readonly Entry[], nodes: readonly Entry[]) {
    const claims = nodes.map((n) => ({ node: n, found: index.lookup(n.providerID) }));
    const count = new Map<string, number>();
    for (const c of claims) for (const m of c.found) count.set(m, (count.get(m) ?? 0) + 1);
    const matched: { node: string; machine: string; nodeProviderID: string }[] = [];
    const ambiguous: { nodes: string[]; machines: string[] }[] = [];
    const contested = new Map<string, { nodes: string[]; machines: string[] }>();
    for (const { node, found } of claims) {
      if (found.length === 0) continue;
      if (found.length > 1) {
        ambiguous.push({ nodes: [node.item], machines: found });
        continue;
      }
      const machine = found[0]!;
      if (count.get(machine) === 1) {
        matched.push({ node: node.item, machine, nodeProviderID: node.providerID });
        continue;
      }
      let group = contested.get(machine);
      if (!group) {
        group = { nodes: [], machines: [machine] };
        contested.set(machine, group);
        ambiguous.push(group);
      }
      group.nodes.push(node.item);
    }
    return {
      matched,
      unmatchedNodes: claims.filter((c) => c.found.length === 0).map((c) => c.node.item),
      unmatchedMachines: [
        ...machines.filter((m) => m.providerID.trim() === '').map((m) => m.item),
        ...machines.filter((m) => m.providerID.trim() !== '' && !count.has(m.item)).map((m) => m.item),
      ],
      ambiguous,
    };
  }
  const ids = fc.array(fc.constantFrom(...COLLIDING_IDS, ' '), { maxLength: 10 });

  it('keeps one list of the machines that the nodes of one key denote, not one per node', () => {
    // M machines and N nodes of one key made N lists of M (and counted M × N claims). Here:
    // half the machines in region r1, half without region; N nodes in r1 (each denotes all
    // of them), N without region (all), and N in N other regions (each: the unqualified half).
    const M = 2_000;
    const N = 2_000;
    const machines = Array.from({ length: M }, (_, i) => ({
      providerID: i % 2 === 0 ? 'regional://r1/a' : 'regional:///a',
      item: `m${i}`,
    }));
    const nodes = [
      ...Array.from({ length: N }, (_, i) => ({ providerID: 'regional://r1/a', item: `r1-${i}` })),
      ...Array.from({ length: N }, (_, i) => ({ providerID: 'regional:///a', item: `bare-${i}` })),
      ...Array.from({ length: N }, (_, i) => ({ providerID: `regional://z${i}/a`, item: `z${i}` })),
    ];
    const report = new ProviderIDIndex(registry, machines).match(nodes);
    expect(report.matched).toEqual([]);
    expect(report.unmatchedMachines).toEqual([]);
    expect(report.ambiguous).toHaveLength(3 * N);
    const lengths = report.ambiguous.map((g) => g.machines.length);
    expect(lengths.slice(0, N).every((n) => n === M)).toBe(true);
    expect(lengths.slice(N, 2 * N).every((n) => n === M)).toBe(true);
    expect(lengths.slice(2 * N).every((n) => n === M / 2)).toBe(true);
    expect(report.ambiguous.map((g) => g.nodes.length).every((n) => n === 1)).toBe(true);
    // The machines listed, counted once per distinct list: linear in M, not M × N.
    const lists = new Set(report.ambiguous.map((g) => g.machines));
    expect(lists.size).toBe(3);
    expect([...lists].reduce((sum, list) => sum + list.length, 0)).toBe(M + M + M / 2);
    // Shared, so not to be changed by one group's reader
    for (const list of lists) expect(Object.isFrozen(list)).toBe(true);
  });

  it('reports what counting every claim first reports, with groups past a few machines', () => {
    // Groups larger than a few slots are split by key, and the lists nodes share come from there.
    const region = fc.constantFrom('', 'r1', 'r2', 'r3');
    const regions = fc.array(region, { maxLength: 30 });
    fc.assert(
      fc.property(regions, regions, (machineRegions, nodeRegions) => {
        const machines = machineRegions.map((r, i) => ({ providerID: `regional://${r}/a`, item: `m${i}` }));
        const nodes = nodeRegions.map((r, i) => ({ providerID: `regional://${r}/a`, item: `n${i}` }));
        const index = new ProviderIDIndex(registry, machines);
        const report = index.match(nodes);
        expect({
          matched: report.matched.map(({ node, machine, nodeProviderID }) => ({
            node,
            machine,
            nodeProviderID,
          })),
          unmatchedNodes: report.unmatchedNodes,
          unmatchedMachines: report.unmatchedMachines,
          ambiguous: report.ambiguous.map(({ nodes, machines }) => ({ nodes, machines })),
        }).toEqual(reference(index, machines, nodes));
      }),
      { numRuns: 2000 },
    );
  });

  it('reports what counting every claim first reports', () => {
    fc.assert(
      fc.property(ids, ids, (machineIDs, nodeIDs) => {
        const machines = machineIDs.map((providerID, i) => ({ providerID, item: `m${i}` }));
        const nodes = nodeIDs.map((providerID, i) => ({ providerID, item: `n${i}` }));
        const index = new ProviderIDIndex(registry, machines);
        const report = index.match(nodes);
        const expected = reference(index, machines, nodes);
        expect({
          matched: report.matched.map(({ node, machine, nodeProviderID }) => ({
            node,
            machine,
            nodeProviderID,
          })),
          unmatchedNodes: report.unmatchedNodes,
          unmatchedMachines: report.unmatchedMachines,
          ambiguous: report.ambiguous.map(({ nodes, machines }) => ({ nodes, machines })),
        }).toEqual(expected);
        for (const pair of report.matched)
          expect(pair.machineProviderID).toBe(machines.find((m) => m.item === pair.machine)!.providerID);
      }),
      { numRuns: 10_000 },
    );
  });
});

describe('ProviderIDIndex built from an array, from any iterable, or one add at a time', () => {
  // An array of machines is filed into slots made at its size at once (cut afterwards to
  // the slots filled); any other iterable, and add(), grow the slots one by one. Both must
  // give the same index. The pool mixes IDs that collide in every way the index cares
  // about with hostile strings (key separators, control characters, blank ones).
  const HOSTILE_IDS = [
    '%',
    '@',
    '|',
    'foo://a@b|c/%2F',
    'foo://a%40b',
    ' \t',
    '\u0000',
    'num://',
    '://',
    'a'.repeat(300),
  ];
  const id = fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(...COLLIDING_IDS, ...HOSTILE_IDS) },
    { weight: 1, arbitrary: fc.string({ maxLength: 12 }) },
  );
  const ids = fc.array(id, { maxLength: 12 });
  const asEntries = (list: readonly string[], tag: string) =>
    list.map((providerID, i) => ({ providerID, item: `${tag}${i}` }));
  function* generate<T>(list: readonly T[]) {
    yield* list;
  }

  it('answers the same, also when the registry forgets its memo while the array is filed', () => {
    fc.assert(
      fc.property(ids, ids, fc.option(fc.nat(12)), (machineIDs, nodeIDs, forgetAt) => {
        const machines = asEntries(machineIDs, 'm');
        const nodes = asEntries(nodeIDs, 'n');
        const fresh = () => createProviderIDRegistry([numbered, regional]);
        const fromIterable = new ProviderIDIndex(fresh(), generate(machines));
        const oneByOne = new ProviderIDIndex<string>(fresh());
        for (const machine of machines) oneByOne.add(machine);
        // Reading machine `forgetAt` registers a grammar: the memo starts afresh, so the
        // index stops trusting the cells and files what is left in a map of its own.
        const shared = fresh();
        const read = new Proxy(machines, {
          get(target, key, receiver) {
            if (forgetAt !== null && key === String(forgetAt))
              shared.register({ ...numbered, cloud: 'late', schemes: ['late'] });
            return Reflect.get(target, key, receiver);
          },
        });
        const fromArray = new ProviderIDIndex(shared, read);
        const expected = fromIterable.match(nodes);
        for (const index of [fromArray, oneByOne]) {
          expect(index.size).toBe(machines.length);
          const report = index.match(nodes);
          expect(report).toEqual(expected);
          // No holes left where slots or pairs were made ahead.
          expect(Object.keys(report.matched)).toHaveLength(report.matched.length);
          for (const node of nodeIDs) expect(index.lookup(node)).toEqual(fromIterable.lookup(node));
        }
        expect(Object.keys(expected.matched)).toHaveLength(expected.matched.length);
      }),
      { numRuns: 3000 },
    );
  });

  it('matches the same when the registry forgets its memo while the nodes are read', () => {
    // Reading node `forgetAt` registers a grammar: the nodes after it get fresh memo
    // entries and cells that no index filed, so the index must notice mid-match and answer
    // from a map of its own, as an index alone on its registry answers.
    fc.assert(
      fc.property(ids, ids, fc.nat(12), (machineIDs, nodeIDs, forgetAt) => {
        const machines = asEntries(machineIDs, 'm');
        const nodes = asEntries(nodeIDs, 'n');
        const fresh = () => createProviderIDRegistry([numbered, regional]);
        const alone = new ProviderIDIndex(fresh(), machines);
        const expected = alone.match(nodes);
        const shared = fresh();
        const index = new ProviderIDIndex(shared, machines);
        let forgotten = false;
        const read = new Proxy(nodes, {
          get(target, key, receiver) {
            if (key === String(forgetAt) && !forgotten) {
              forgotten = true;
              shared.register({ ...numbered, cloud: 'late', schemes: ['late'] });
            }
            return Reflect.get(target, key, receiver);
          },
        });
        expect(index.match(read)).toEqual(expected);
        for (const node of nodeIDs) expect(index.lookup(node)).toEqual(alone.lookup(node));
      }),
      { numRuns: 3000 },
    );
  });
});
