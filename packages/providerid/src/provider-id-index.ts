import type { IdentityKeys, ProviderIDRegistry } from './registry.js';
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
  /** The machine's identity key (its unqualified key is the one it is filed under). */
  readonly key: string;
  /** Whether the machine's ID has no qualifier (its key is its unqualified key). */
  readonly bare: boolean;
}

// Machines are filed under their unqualified key only. A key determines its unqualified
// key (the qualifier is appended after '@', which escaped parts and qualifiers never
// contain, and the space ends at '|', which an escaped qualifier never contains), so
// "machines whose key is K" are found by filtering the group of K's unqualified key.
// Most groups hold one machine: store it bare and only make an array on a second one,
// which spares an allocation per machine at 100k-machine scale.
type Group<T> = Slot<T> | Slot<T>[];

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
  readonly #byUnqualified = new Map<string, Group<M>>();
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
    // Only the keys, memoised by the registry: a node with the machine's own string then
    // finds them without parsing, and no parsed ID (~8 objects) is kept per machine.
    const id = this.#registry.identityKeys(entry.providerID, this.#options);
    const slot: Slot<M> = {
      entry,
      index: this.#machines.length,
      key: id.key,
      bare: id.key === id.unqualifiedKey,
    };
    this.#machines.push(slot);
    const group = this.#byUnqualified.get(id.unqualifiedKey);
    if (group === undefined) this.#byUnqualified.set(id.unqualifiedKey, slot);
    else if (Array.isArray(group)) group.push(slot);
    else this.#byUnqualified.set(id.unqualifiedKey, [group, slot]);
  }

  get size(): number {
    return this.#machines.length + this.#emptyMachines.length;
  }

  // The machines a node with these keys denotes: one slot, several (an array), or none.
  // A lone slot is returned as it is, so the common case allocates nothing.
  #candidates(id: IdentityKeys): Slot<M> | readonly Slot<M>[] | undefined {
    const group = this.#byUnqualified.get(id.unqualifiedKey);
    if (group === undefined) return undefined;
    // An unqualified node matches every machine of that instance, whatever its qualifier.
    if (id.key === id.unqualifiedKey) return group;
    // A qualified node matches machines with the same qualifier, then those with none.
    if (!Array.isArray(group)) return group.key === id.key || group.bare ? group : undefined;
    const same = group.filter((s) => s.key === id.key);
    const bare = group.filter((s) => s.bare);
    const all = bare.length === 0 ? same : same.length === 0 ? bare : [...same, ...bare];
    return all.length === 0 ? undefined : all;
  }

  /** The machines a single node providerID denotes (several means ambiguous). */
  lookup(nodeProviderID: string): M[] {
    if (nodeProviderID.trim() === '') return [];
    const found = this.#candidates(this.#registry.identityKeys(nodeProviderID, this.#options));
    if (found === undefined) return [];
    return Array.isArray(found) ? found.map((s) => s.entry.item) : [(found as Slot<M>).entry.item];
  }

  /** Matches every node against the indexed machines. */
  match<N>(nodes: Iterable<ProviderIDEntry<N>>): ProviderIDMatchReport<N, M> {
    const unmatchedNodes: N[] = [];
    // Each node that denotes machines, and what it denotes (parallel arrays: no object per claim).
    const claimNodes: ProviderIDEntry<N>[] = [];
    const claimMachines: (Slot<M> | readonly Slot<M>[])[] = [];
    // How many nodes claim each machine, by slot index.
    const claimCount = new Uint32Array(this.#machines.length);
    for (const node of nodes) {
      const found =
        node.providerID.trim() === ''
          ? undefined
          : this.#candidates(this.#registry.identityKeys(node.providerID, this.#options));
      if (found === undefined) {
        unmatchedNodes.push(node.item);
        continue;
      }
      if (Array.isArray(found)) for (const m of found) claimCount[m.index]!++;
      else claimCount[(found as Slot<M>).index]!++;
      claimNodes.push(node);
      claimMachines.push(found);
    }

    const matched: MatchedPair<N, M>[] = [];
    const ambiguous: ProviderIDMatchReport<N, M>['ambiguous'] = [];
    // Nodes sharing a contested machine are grouped under that machine's first claim.
    const contested = new Map<number, { nodes: N[]; machines: M[]; reason: string }>();
    for (let i = 0; i < claimNodes.length; i++) {
      const node = claimNodes[i]!;
      const found = claimMachines[i]!;
      const only = Array.isArray(found) ? (found.length === 1 ? found[0]! : undefined) : (found as Slot<M>);
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
        const machines = found as readonly Slot<M>[];
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
