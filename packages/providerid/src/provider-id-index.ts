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
  readonly key: string;
  readonly unqualifiedKey: string;
  /** Whether the machine's ID has no qualifier (its key is its unqualified key). */
  readonly bare: boolean;
}

// Machines are filed under their unqualified key only. A key determines its unqualified
// key (the qualifier is appended after '@', which escaped parts and qualifiers never
// contain, and the space ends at '|', which an escaped qualifier never contains), so
// "machines whose key is K" are found by filtering the group of K's unqualified key.
// A group is slot numbers; most hold one machine, stored bare (no array per machine).
type Group = number | number[];

function join(group: Group | undefined, index: number): Group {
  if (group === undefined) return index;
  if (typeof group === 'number') return [group, index];
  group.push(index);
  return group;
}

/**
 * Matches N nodes to M machines by instance identity in O(N + M): each distinct providerID
 * is parsed once (the registry memoises its keys) and machines are grouped by the key
 * without qualifier, so IDs that leave out a region or zone still find their instance.
 * Unlike Cluster API's exact-string index it pairs `packet://x` with `equinixmetal://x`,
 * Azure resource groups in any case, and OpenStack IDs with and without region, while
 * never pairing GCE instances that only share a name.
 *
 * Where the groups live: in the registry's cells (one per unqualified key, handed out with
 * the memoised keys), so a lookup is the one memo lookup that finds the node's keys — about
 * the cost of an exact-string map. A cell belongs to the index that filed into it last; an
 * index that loses a cell to a newer one, or whose cells the registry forgot, files its
 * machines again in a map of its own and answers from there. Cells hold slot numbers and a
 * weak reference to their index, so a dropped index is never kept alive by them.
 */
export class ProviderIDIndex<M> {
  readonly #registry: ProviderIDRegistry;
  readonly #options: ParseOptions;
  readonly #machines: Slot<M>[] = [];
  readonly #emptyMachines: M[] = [];
  readonly #self = new WeakRef<ProviderIDIndex<unknown>>(this);
  readonly #generation: number;
  // Set once this index cannot rely on the cells any more; then the only place it files in.
  #byUnqualified: Map<string, Group> | undefined;
  #lostACell = false;

  constructor(
    registry: ProviderIDRegistry,
    machines: Iterable<ProviderIDEntry<M>> = [],
    options: ParseOptions = {},
  ) {
    this.#registry = registry;
    this.#options = options;
    this.#generation = registry.memoGeneration;
    for (const machine of machines) this.add(machine);
  }

  /** Indexes one machine. */
  add(entry: ProviderIDEntry<M>): void {
    if (entry.providerID.trim() === '') {
      this.#emptyMachines.push(entry.item);
      return;
    }
    // Only the keys: no parsed ID (~8 objects) is kept per machine.
    const id = this.#registry.identityKeys(entry.providerID, this.#options);
    // Before this machine is added: a map made now is made from the machines before it.
    const own = this.#ownMap();
    const index = this.#machines.length;
    this.#machines.push({
      entry,
      index,
      key: id.key,
      unqualifiedKey: id.unqualifiedKey,
      bare: id.key === id.unqualifiedKey,
    });
    if (own !== undefined) {
      own.set(id.unqualifiedKey, join(own.get(id.unqualifiedKey), index));
      return;
    }
    const cell = id.cell;
    if (cell.owner === this.#self) {
      cell.group = join(cell.group, index);
      return;
    }
    // Take the cell over; its previous owner, if still alive, stops relying on cells.
    const previous = (cell.owner as WeakRef<ProviderIDIndex<unknown>> | undefined)?.deref();
    if (previous !== undefined) previous.#loseCell();
    cell.owner = this.#self;
    cell.group = index;
  }

  #loseCell(): void {
    this.#lostACell = true;
  }

  // The index's own map, made (from the slots, in their order) the first time the cells
  // cannot be trusted; undefined while they can.
  #ownMap(): Map<string, Group> | undefined {
    if (
      this.#byUnqualified === undefined &&
      (this.#lostACell || this.#generation !== this.#registry.memoGeneration)
    ) {
      const own = new Map<string, Group>();
      for (const slot of this.#machines)
        own.set(slot.unqualifiedKey, join(own.get(slot.unqualifiedKey), slot.index));
      this.#byUnqualified = own;
    }
    return this.#byUnqualified;
  }

  get size(): number {
    return this.#machines.length + this.#emptyMachines.length;
  }

  // The machines a node with these keys denotes: one slot, several (an array), or none.
  // A lone slot is returned as it is, so the common case allocates nothing.
  #candidates(id: IdentityKeys): Slot<M> | readonly Slot<M>[] | undefined {
    const own = this.#ownMap();
    const group =
      own !== undefined
        ? own.get(id.unqualifiedKey)
        : id.cell.owner === this.#self
          ? id.cell.group
          : undefined;
    if (group === undefined) return undefined;
    if (typeof group === 'number') {
      const slot = this.#machines[group]!;
      // An unqualified node matches every machine of that instance, whatever its qualifier;
      // a qualified one those with the same qualifier, then those with none.
      return id.key === id.unqualifiedKey || slot.key === id.key || slot.bare ? slot : undefined;
    }
    const slots = group.map((i) => this.#machines[i]!);
    if (id.key === id.unqualifiedKey) return slots;
    const same = slots.filter((s) => s.key === id.key);
    const bare = slots.filter((s) => s.bare);
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
