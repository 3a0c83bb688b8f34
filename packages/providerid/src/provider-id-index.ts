import { quoteInput } from './characters.js';
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
   * machine denoted by several nodes. Each lists everything involved. Nodes that denote the
   * same machines (the same key) share one frozen `machines` array: M machines and N nodes
   * of one key are N groups over one list of M, not N lists of M.
   */
  readonly ambiguous: { readonly nodes: N[]; readonly machines: M[]; readonly reason: string }[];
}

// Machines are filed under their unqualified key only. A key determines its unqualified
// key (the qualifier is appended after '@', which escaped parts and qualifiers never
// contain, and the space ends at '|', which an escaped qualifier never contains), so
// "machines whose key is K" are found by filtering the group of K's unqualified key.
// A group is slot numbers; most hold one machine, stored bare (no array per machine).
type Group = number | number[];

/** Up to this many slots, a group is scanned for a qualified node; a larger one is split (#splitGroup). */
const FEW_SLOTS = 8;

/** A group's slots by key, and its bare (unqualified) slots, each in the group's order. */
interface GroupSplit {
  /** How many of the group's slots are filed here: slots added since are filed on the next use. */
  size: number;
  readonly byKey: Map<string, number[]>;
  readonly bare: number[];
}

function join(group: Group | undefined, index: number): Group {
  if (group === undefined) return index;
  if (typeof group === 'number') return [group, index];
  group.push(index);
  return group;
}

/**
 * What an index leaves in the cells it files into: a token, not the index, so a cell never
 * keeps a dropped index alive. An index that takes a cell over marks the previous owner's
 * token `lost`; that index stops trusting cells from then on.
 */
interface CellOwner {
  lost: boolean;
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
 * machines again in a map of its own and answers from there. Cells hold slot numbers and
 * their owner's token (see CellOwner), never the index itself.
 *
 * Machines are kept in parallel arrays (item, providerID, keys) rather than an object per
 * machine: building the index allocates nothing per machine beyond the memo's first sight
 * of a string, and from an array of machines the arrays are made at their final size.
 */
export class ProviderIDIndex<M> {
  readonly #registry: ProviderIDRegistry;
  readonly #options: ParseOptions;
  // Slot i: the machine's item, its providerID and its identity keys (shared with the
  // registry's memo). Dense arrays rather than the caller's entry objects: pairing a node
  // reads two array elements, not an entry object somewhere in the heap.
  #items: M[] = [];
  #providerIDs: string[] = [];
  #keys: IdentityKeys[] = [];
  // Large groups split by key (#splitGroup), kept while the group lives.
  readonly #splits = new WeakMap<number[], GroupSplit>();
  // Slots filled; the arrays may be longer while the constructor fills them.
  #count = 0;
  readonly #emptyMachines: M[] = [];
  readonly #owner: CellOwner = { lost: false };
  readonly #generation: number;
  // Set once this index cannot rely on the cells any more; then the only place it files in.
  #byUnqualified: Map<string, Group> | undefined;

  constructor(
    registry: ProviderIDRegistry,
    machines: Iterable<ProviderIDEntry<M>> = [],
    options: ParseOptions = {},
  ) {
    this.#registry = registry;
    this.#options = options;
    this.#generation = registry.memoGeneration;
    // From an array the slots are made at once, at most one per machine (blank IDs take
    // none), and cut to those filled: no copying while they grow. `add` writes at #count,
    // so the two ways fill the same slots.
    if (Array.isArray(machines)) {
      const n = machines.length;
      this.#items = new Array(n);
      this.#providerIDs = new Array(n);
      this.#keys = new Array(n);
      for (let i = 0; i < n; i++) this.add(machines[i] as ProviderIDEntry<M>);
      this.#items.length = this.#providerIDs.length = this.#keys.length = this.#count;
    } else for (const machine of machines) this.add(machine);
  }

  /** Indexes one machine. */
  add(entry: ProviderIDEntry<M>): void {
    // Only the keys: no parsed ID (~8 objects) is kept per machine.
    const id = this.#registry.identityKeys(entry.providerID, this.#options);
    if (id.blank) {
      this.#emptyMachines.push(entry.item);
      return;
    }
    // Before this machine is added: a map made now is made from the machines before it.
    const own = this.#ownMap();
    const index = this.#count++;
    this.#items[index] = entry.item;
    this.#providerIDs[index] = entry.providerID;
    this.#keys[index] = id;
    if (own !== undefined) {
      own.set(id.unqualifiedKey, join(own.get(id.unqualifiedKey), index));
      return;
    }
    const cell = id.cell;
    if (cell.owner === this.#owner) {
      cell.group = join(cell.group, index);
      return;
    }
    // Take the cell over; its previous owner, if any, stops relying on cells.
    const previous = cell.owner as CellOwner | undefined;
    if (previous !== undefined) previous.lost = true;
    cell.owner = this.#owner;
    cell.group = index;
    cell.lone = id;
  }

  // The index's own map, made (from the slots, in their order) the first time the cells
  // cannot be trusted; undefined while they can.
  #ownMap(): Map<string, Group> | undefined {
    if (
      this.#byUnqualified === undefined &&
      (this.#owner.lost || this.#generation !== this.#registry.memoGeneration)
    ) {
      const own = new Map<string, Group>();
      const keys = this.#keys;
      for (let i = 0; i < this.#count; i++) {
        const unqualified = keys[i]!.unqualifiedKey;
        own.set(unqualified, join(own.get(unqualified), i));
      }
      this.#byUnqualified = own;
    }
    return this.#byUnqualified;
  }

  get size(): number {
    return this.#count + this.#emptyMachines.length;
  }

  // The slots of the machines a node with these keys denotes: one slot number, several (an
  // array), or NONE. A lone slot is returned as a number, so the common case
  // allocates nothing. `shared`: the array may be one the index keeps (a group, a split's
  // list), for a caller that reads it before the next add and never changes it; without,
  // every array is the caller's.
  #candidates(id: IdentityKeys, shared = false): number | number[] {
    if (id.blank) return NONE;
    const own = this.#ownMap();
    let group: Group | undefined;
    let machine: IdentityKeys | undefined;
    if (own === undefined) {
      const cell = id.cell;
      if (cell.owner !== this.#owner) return NONE;
      group = cell.group;
      machine = cell.lone;
    } else group = own.get(id.unqualifiedKey);
    if (group === undefined) return NONE;
    const keys = this.#keys;
    const nodeQualified = id.qualified;
    if (typeof group === 'number') {
      if (own !== undefined) machine = keys[group]!;
      // The same string, or an unqualified node, denotes the machine. Otherwise a qualified
      // node denotes machines with the same qualifier, then those with none.
      return machine === id || !nodeQualified || machine!.key === id.key || isBare(machine!) ? group : NONE;
    }
    if (!nodeQualified) return shared ? group : group.slice();
    let all: number[];
    if (group.length <= FEW_SLOTS) {
      all = [];
      for (const i of group) if (keys[i]!.key === id.key) all.push(i);
      for (const i of group) if (isBare(keys[i]!)) all.push(i);
    } else {
      const split = this.#splitGroup(group);
      const same = split.byKey.get(id.key);
      // (qualified nodes of different keys that all denote only the bare machines share that list)
      if (shared && (same === undefined || split.bare.length === 0)) all = same ?? split.bare;
      else all = [...(same ?? []), ...split.bare];
    }
    // One slot is returned as its number, as from a group of one.
    return all.length === 0 ? NONE : all.length === 1 ? all[0]! : all;
  }

  /**
   * A large group split by key, made once and brought up to date with the slots added since
   * (groups only grow, at their end). One instance ID under many qualifiers
   * (`aws:///zone-1/i-1`, `aws:///zone-2/i-1`, …) made one group that every qualified node
   * scanned whole: n nodes against n machines took n² (20,000 of each: 6.6 s). Splitting the
   * whole group again after each add would be n² too for callers that add and look up in
   * turn (an informer's handler). Each list keeps the group's order, so the candidates are
   * the same.
   */
  #splitGroup(group: number[]): GroupSplit {
    let split = this.#splits.get(group);
    if (split === undefined) {
      split = { size: 0, byKey: new Map(), bare: [] };
      this.#splits.set(group, split);
    }
    const keys = this.#keys;
    for (let n = split.size; n < group.length; n++) {
      const i = group[n]!;
      const machine = keys[i]!;
      if (isBare(machine)) split.bare.push(i);
      else {
        const same = split.byKey.get(machine.key);
        if (same === undefined) split.byKey.set(machine.key, [i]);
        else same.push(i);
      }
    }
    split.size = group.length;
    return split;
  }

  /** The machines a single node providerID denotes (several means ambiguous). */
  lookup(nodeProviderID: string): M[] {
    const found = this.#candidates(this.#registry.identityKeys(nodeProviderID, this.#options));
    if (typeof found === 'number') return found === NONE ? [] : [this.#items[found]!];
    return found.map((i) => this.#items[i]!);
  }

  /** Matches every node against the indexed machines. */
  match<N>(nodes: Iterable<ProviderIDEntry<N>>): ProviderIDMatchReport<N, M> {
    const items = this.#items;
    const providerIDs = this.#providerIDs;
    const list = Array.isArray(nodes) ? (nodes as readonly ProviderIDEntry<N>[]) : Array.from(nodes);
    const unmatchedNodes: N[] = [];
    // What each node denotes: a slot, NONE, or (at most MULTI) the index MULTI - value of
    // its slot list in `multi`. Typed arrays: nothing per node for the collector to move.
    const claims = new Int32Array(list.length);
    // Each distinct slot list once, with how many nodes denote it. A node's candidates
    // depend on its key alone, so nodes of one key share one list (byKey): N nodes denoting
    // the same M machines made N lists of M, and as many claim counts and report arrays
    // (M × N; 20,000 of each: 400 million slots).
    const multi: number[][] = [];
    const multiClaims: number[] = [];
    const multiOf = new Map<number[], number>();
    const byKey = new Map<string, number[]>();
    // How many nodes claim each machine, by slot index.
    const claimCount = new Uint32Array(items.length);
    for (let i = 0; i < list.length; i++) {
      const node = list[i]!;
      const id = this.#registry.identityKeys(node.providerID, this.#options);
      // (no lookup at all until some node denotes several machines)
      const found =
        (byKey.size === 0 || id.blank ? undefined : byKey.get(id.key)) ?? this.#candidates(id, true);
      if (typeof found === 'number') {
        claims[i] = found;
        if (found === NONE) unmatchedNodes.push(node.item);
        else claimCount[found]!++;
        continue;
      }
      byKey.set(id.key, found);
      let m = multiOf.get(found);
      if (m === undefined) {
        m = multi.push(found) - 1;
        multiClaims.push(0);
        multiOf.set(found, m);
      }
      multiClaims[m]!++;
      claims[i] = MULTI - m;
    }
    for (let m = 0; m < multi.length; m++) for (const slot of multi[m]!) claimCount[slot]! += multiClaims[m]!;
    // Each distinct list's machines, made once and frozen: the groups of its nodes share it;
    // and one reason per providerID string (which determines the list).
    const multiMachines: M[][] = new Array(multi.length);
    const multiReasons = new Map<string, string>();

    // Sized for every node and cut to the pairs written: no copies while it grows.
    const matched: MatchedPair<N, M>[] = new Array(list.length);
    let paired = 0;
    const ambiguous: ProviderIDMatchReport<N, M>['ambiguous'] = [];
    // Nodes sharing a contested machine are grouped under that machine's first claim.
    const contested = new Map<number, { nodes: N[]; machines: M[]; reason: string }>();
    for (let i = 0; i < list.length; i++) {
      const found = claims[i]!;
      if (found === NONE) continue;
      const node = list[i]!;
      if (found <= MULTI) {
        const m = MULTI - found;
        const slots = multi[m]!;
        multiMachines[m] ??= Object.freeze(slots.map((slot) => items[slot]!)) as M[];
        let reason = multiReasons.get(node.providerID);
        if (reason === undefined) {
          reason = `node providerID ${quoteInput(node.providerID)} denotes ${slots.length} machines`;
          multiReasons.set(node.providerID, reason);
        }
        ambiguous.push({ nodes: [node.item], machines: multiMachines[m], reason });
        continue;
      }
      if (claimCount[found] === 1) {
        matched[paired++] = {
          node: node.item,
          machine: items[found]!,
          nodeProviderID: node.providerID,
          machineProviderID: providerIDs[found]!,
        };
        continue;
      }
      let group = contested.get(found);
      if (!group) {
        group = {
          nodes: [],
          machines: [items[found]!],
          reason: `several nodes denote the machine with providerID ${quoteInput(providerIDs[found]!)}`,
        };
        contested.set(found, group);
        ambiguous.push(group);
      }
      group.nodes.push(node.item);
    }
    matched.length = paired;
    const unmatchedMachines = [...this.#emptyMachines];
    for (let i = 0; i < items.length; i++) if (claimCount[i] === 0) unmatchedMachines.push(items[i]!);
    return { matched, unmatchedNodes, unmatchedMachines, ambiguous };
  }
}

// Claims that are not one slot (see match): none, or several.
const NONE = -1;
const MULTI = -2;

// An ID whose key has no qualifier.
const isBare = (id: IdentityKeys) => !id.qualified;
