import type { IdentifiedProviderID, ProviderIDRegistry } from './registry.js';
import type { ParseOptions } from './types.js';

/** One entry handed to the index: the providerID and the caller's object it belongs to. */
export interface ProviderIDEntry<T> {
  readonly providerID: string;
  readonly item: T;
}

export interface MatchedPair<N, M> {
  readonly node: N;
  readonly machine: M;
  readonly nodeProviderID: string;
  readonly machineProviderID: string;
}

/**
 * The outcome of matching nodes to machines. Every node lands in exactly one place; a
 * machine is matched, unmatched, or in one or more ambiguous groups.
 */
export interface ProviderIDMatchReport<N, M> {
  /** One node, one machine, each claiming only the other. */
  readonly matched: MatchedPair<N, M>[];
  /** Nodes whose providerID denotes no machine (or is empty). */
  readonly unmatchedNodes: N[];
  /** Machines no node denotes (or with an empty providerID). */
  readonly unmatchedMachines: M[];
  /**
   * Groups that cannot be paired one to one: a node that denotes several machines, or a
   * machine denoted by several nodes. Each lists everything involved.
   */
  readonly ambiguous: { readonly nodes: N[]; readonly machines: M[]; readonly reason: string }[];
}

interface Slot<T> {
  readonly entry: ProviderIDEntry<T>;
  readonly index: number;
}

// Most keys hold one machine: store it bare and only make an array on a second one, which
// spares an allocation per machine at 100k-machine scale.
type Bucket<T> = Slot<T> | Slot<T>[];

function add<T>(map: Map<string, Bucket<T>>, key: string, slot: Slot<T>): void {
  const bucket = map.get(key);
  if (bucket === undefined) map.set(key, slot);
  else if (Array.isArray(bucket)) bucket.push(slot);
  else map.set(key, [bucket, slot]);
}

const EMPTY: readonly never[] = [];
function slots<T>(bucket: Bucket<T> | undefined): readonly Slot<T>[] {
  return bucket === undefined ? EMPTY : Array.isArray(bucket) ? bucket : [bucket];
}

/**
 * Matches N nodes to M machines by instance identity in O(N + M): each providerID is
 * parsed once and looked up in two hash maps (full key, and key without qualifier for
 * IDs that leave out a region or zone). Unlike Cluster API's exact-string index it pairs
 * `packet://x` with `equinixmetal://x`, Azure resource groups in any case, and OpenStack IDs
 * with and without region, while never pairing GCE instances that only share a name.
 */
export class ProviderIDIndex<M> {
  readonly #registry: ProviderIDRegistry;
  readonly #options: ParseOptions;
  readonly #machines: Slot<M>[] = [];
  readonly #byKey = new Map<string, Bucket<M>>();
  readonly #byUnqualified = new Map<string, Bucket<M>>();
  readonly #emptyMachines: M[] = [];

  constructor(
    registry: ProviderIDRegistry,
    machines: Iterable<ProviderIDEntry<M>> = [],
    options: ParseOptions = {},
  ) {
    this.#registry = registry;
    this.#options = options;
    for (const machine of machines) this.add(machine);
  }

  /** Indexes one machine. */
  add(entry: ProviderIDEntry<M>): void {
    if (entry.providerID.trim() === '') {
      this.#emptyMachines.push(entry.item);
      return;
    }
    const id = this.#registry.identify(entry.providerID, this.#options);
    // Keep only the keys: retaining the parsed ID would keep ~8 objects per machine alive.
    const slot: Slot<M> = { entry, index: this.#machines.length };
    this.#machines.push(slot);
    add(this.#byKey, id.key, slot);
    add(this.#byUnqualified, id.unqualifiedKey, slot);
  }

  get size(): number {
    return this.#machines.length + this.#emptyMachines.length;
  }

  #candidates(id: Pick<IdentifiedProviderID, 'key' | 'unqualifiedKey'>): readonly Slot<M>[] {
    if (id.key !== id.unqualifiedKey) {
      // A qualified node matches machines with the same qualifier or none at all.
      const same = slots(this.#byKey.get(id.key));
      const bare = slots(this.#byKey.get(id.unqualifiedKey));
      return bare.length === 0 ? same : same.length === 0 ? bare : [...same, ...bare];
    }
    // An unqualified node matches every machine of that instance, whatever its qualifier.
    return slots(this.#byUnqualified.get(id.key));
  }

  /** The machines a single node providerID denotes (several means ambiguous). */
  lookup(nodeProviderID: string): M[] {
    if (nodeProviderID.trim() === '') return [];
    return this.#candidates(this.#registry.identify(nodeProviderID, this.#options)).map((s) => s.entry.item);
  }

  /** Matches every node against the indexed machines. */
  match<N>(nodes: Iterable<ProviderIDEntry<N>>): ProviderIDMatchReport<N, M> {
    const unmatchedNodes: N[] = [];
    const claims: { node: ProviderIDEntry<N>; machines: readonly Slot<M>[] }[] = [];
    // How many nodes claim each machine, by slot index.
    const claimCount = new Uint32Array(this.#machines.length);
    for (const node of nodes) {
      if (node.providerID.trim() === '') {
        unmatchedNodes.push(node.item);
        continue;
      }
      const machines = this.#candidates(this.#registry.identify(node.providerID, this.#options));
      if (machines.length === 0) {
        unmatchedNodes.push(node.item);
        continue;
      }
      for (const m of machines) claimCount[m.index]!++;
      claims.push({ node, machines });
    }

    const matched: MatchedPair<N, M>[] = [];
    const ambiguous: ProviderIDMatchReport<N, M>['ambiguous'] = [];
    // Nodes sharing a contested machine are grouped under that machine's first claim.
    const contested = new Map<number, { nodes: N[]; machines: M[]; reason: string }>();
    for (const { node, machines } of claims) {
      const only = machines.length === 1 ? machines[0]! : undefined;
      if (only && claimCount[only.index] === 1) {
        matched.push({
          node: node.item,
          machine: only.entry.item,
          nodeProviderID: node.providerID,
          machineProviderID: only.entry.providerID,
        });
      } else if (only) {
        let group = contested.get(only.index);
        if (!group) {
          group = {
            nodes: [],
            machines: [only.entry.item],
            reason: `several nodes denote the machine with providerID '${only.entry.providerID}'`,
          };
          contested.set(only.index, group);
          ambiguous.push(group);
        }
        group.nodes.push(node.item);
      } else {
        ambiguous.push({
          nodes: [node.item],
          machines: machines.map((m) => m.entry.item),
          reason: `node providerID '${node.providerID}' denotes ${machines.length} machines`,
        });
      }
    }
    const unmatchedMachines = [...this.#emptyMachines];
    for (const slot of this.#machines)
      if (claimCount[slot.index] === 0) unmatchedMachines.push(slot.entry.item);
    return { matched, unmatchedNodes, unmatchedMachines, ambiguous };
  }
}
