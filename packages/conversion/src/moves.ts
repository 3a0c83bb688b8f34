import {
  assign,
  clone,
  deepEqual,
  dotted,
  getPath,
  isObject,
  isPrefix,
  type Json,
  type JsonObject,
  type OwnedSet,
} from './path.js';
import type { Direction } from './versions.js';

/**
 * One row of a kind's field-move table: where a field lives in each version and how its
 * value changes on the way. Fields no row mentions keep their path and value (including
 * fields neither version knows: decoding never drops data).
 *
 * A row with only a `v1alpha1` path has no home in v1alpha2, and the reverse; such values
 * are dropped by the move and kept by the stash (stash.ts), never lost.
 */
export interface FieldMove {
  /** Dotted path in v1alpha1, relative to the table's root. */
  readonly v1alpha1?: string;
  /** Dotted path in v1alpha2, relative to the table's root. */
  readonly v1alpha2?: string;
  /**
   * Value transform going up; `undefined` writes nothing. `root` is the unmoved source object
   * at the table's root, for moves that depend on a sibling field. `unconverted` is given to
   * `nested` rows only (when the conversion reports).
   */
  readonly up?: MoveTransform;
  readonly down?: MoveTransform;
  /** Run the transform (with `undefined`) even when the source field is absent: it may add a value. */
  readonly evenIfAbsent?: Direction;
  /**
   * The transforms return `undefined` only for a value the target field cannot hold (a
   * duration that does not parse, a clusterctl `${VAR}`): such a value is reported as
   * `unconverted`, so the conversion can warn that the field is left out. (Without it,
   * `undefined` may also mean "unset", as a zero that stands for no value does.)
   */
  readonly strict?: boolean;
  /**
   * The transform converts values inside the field with rows of its own (each item of a
   * list, a health check's timeouts) and tells `unconverted` of each it could not convert,
   * so the conversion warns about those as it does about a `strict` row's field.
   */
  readonly nested?: boolean;
  /** Why the field moves or goes: shown in the report and in docs/conversion.md. */
  readonly note: string;
}

/**
 * Told of a value inside a `nested` row's field that has no form the target can hold: where
 * it was and where it would have gone, relative to the field (`[0].nodeDrainTimeout`,
 * `timeout`), in the report's path notation.
 */
export type UnconvertedSink = (from: string, to: string) => void;

export type MoveTransform = (
  value: Json | undefined,
  root: JsonObject,
  unconverted?: UnconvertedSink,
) => Json | undefined;

/** `outer` and a path relative to it (`[0].timeout`, `timeout`): one path in report notation. */
export function joinLabel(outer: string, inner: string): string {
  if (outer === '') return inner;
  return inner.startsWith('[') ? `${outer}${inner}` : `${outer}.${inner}`;
}

/** What one applied row did, for the conversion report. */
export interface AppliedMove {
  readonly from: string;
  /** Absent: the value has no home in the target version (it is in the stash). */
  readonly to?: string;
  readonly note: string;
  /** The value has no form `to` can hold (a `strict` row): `to` was not written; the stash keeps it. */
  readonly unconverted?: true;
}

function joinPath(prefix: string, path: string): string {
  return prefix === '' ? path : `${prefix}.${path}`;
}

/** A row as one direction and root prefix read it, with its paths parsed once. */
interface PreparedRow {
  readonly move: FieldMove;
  /** Where the row reads: the container path and the key in it (paths are keys only). */
  readonly fromParent: readonly string[] | undefined;
  readonly fromKey: string | undefined;
  /** `fromParent` as its own container path and key (undefined when it is the root). */
  readonly fromGrandparent: readonly string[] | undefined;
  readonly fromParentKey: string | undefined;
  /** Where the row writes. */
  readonly toParent: readonly string[] | undefined;
  readonly toKey: string | undefined;
  readonly inPlace: boolean;
  /** The row renames a key inside one container (below the root): see `removeKey`. */
  readonly renames: boolean;
  /**
   * What the report says when the row moves a value (`moveReport`, rows with a target) or
   * drops it: made once per row and frozen (`AppliedMove` is read-only), so reports share
   * them instead of allocating one per object.
   */
  readonly moveReport: AppliedMove | undefined;
  readonly dropReport: AppliedMove;
  /** A `strict` row whose transform had no value for `to`. */
  readonly unconvertedReport: AppliedMove | undefined;
  readonly transform: FieldMove['up'];
  readonly always: boolean;
  /**
   * Same path both ways and no transform: the row puts the value back where it was, reports
   * nothing (the value is unchanged) and is skipped.
   */
  readonly noop: boolean;
}

// Tables are module constants, so their prepared rows live as long as they do.
const preparedTables = new WeakMap<
  readonly FieldMove[],
  Record<Direction, Map<string, readonly PreparedRow[]>>
>();

function prepare(moves: readonly FieldMove[], direction: Direction, prefix: string): readonly PreparedRow[] {
  let byDirection = preparedTables.get(moves);
  if (byDirection === undefined) {
    byDirection = { up: new Map(), down: new Map() };
    preparedTables.set(moves, byDirection);
  }
  const byRoot = byDirection[direction];
  let rows = byRoot.get(prefix);
  if (rows === undefined) {
    rows = moves.map((move): PreparedRow => {
      const from = direction === 'up' ? move.v1alpha1 : move.v1alpha2;
      const to = direction === 'up' ? move.v1alpha2 : move.v1alpha1;
      const fromPath = from === undefined ? undefined : dotted(joinPath(prefix, from));
      const toPath = to === undefined ? undefined : dotted(joinPath(prefix, to));
      const fromLabel = from === undefined ? '(derived)' : joinPath(prefix, from);
      const toLabel = to === undefined ? undefined : joinPath(prefix, to);
      const fromParent = fromPath?.slice(0, -1);
      const toParent = toPath?.slice(0, -1);
      const transform = direction === 'up' ? move.up : move.down;
      return {
        move,
        moveReport:
          toLabel === undefined
            ? undefined
            : Object.freeze({ from: fromLabel, to: toLabel, note: move.note }),
        dropReport: Object.freeze({ from: fromLabel, note: move.note }),
        unconvertedReport:
          toLabel === undefined || move.strict !== true
            ? undefined
            : Object.freeze({ from: fromLabel, to: toLabel, note: move.note, unconverted: true as const }),
        fromParent,
        fromKey: fromPath?.at(-1),
        fromGrandparent: fromPath !== undefined && fromPath.length > 1 ? fromPath.slice(0, -2) : undefined,
        fromParentKey: fromPath !== undefined && fromPath.length > 1 ? fromPath.at(-2) : undefined,
        toParent,
        toKey: toPath?.at(-1),
        inPlace: from !== undefined && from === to,
        // (same container: parents of one length, one a prefix of the other, are equal)
        renames:
          from !== to &&
          fromParent !== undefined &&
          toParent !== undefined &&
          fromParent.length > 0 &&
          fromParent.length === toParent.length &&
          isPrefix(fromParent, toParent),
        transform,
        always: move.evenIfAbsent === direction,
        noop: from !== undefined && from === to && transform === undefined,
      };
    });
    byRoot.set(prefix, rows);
  }
  return rows;
}

/**
 * The plain object at `path` in `root`, or undefined when a key is missing or a value on the
 * way is not a plain object (what `getPath` answers for the container of a key-only path).
 */
function objectAt(root: JsonObject, path: readonly string[]): JsonObject | undefined {
  let current: JsonObject = root;
  for (let i = 0; i < path.length; i++) {
    const key = path[i]!;
    if (!Object.hasOwn(current, key)) return undefined;
    const next = current[key]!;
    if (next === null || typeof next !== 'object' || Array.isArray(next)) return undefined;
    current = next;
  }
  return current;
}

/**
 * The plain object at `path` in `out`, ready to be written: missing objects are created (as
 * `setPath` does) and, with `owned`, shared ones are copied into the result (as `ownPath`
 * does). Undefined when a non-object (an array, a scalar) is in the way: nothing is written.
 */
function writableObjectAt(
  out: JsonObject,
  path: readonly string[],
  owned: OwnedSet | undefined,
): JsonObject | undefined {
  let current: JsonObject = out;
  for (let i = 0; i < path.length; i++) {
    const key = path[i]!;
    let child: Json;
    if (!Object.hasOwn(current, key)) {
      child = {};
      assign(current, key, child);
      owned?.add(child);
    } else {
      child = current[key]!;
      if (child === null || typeof child !== 'object' || Array.isArray(child)) return undefined;
      if (owned !== undefined && !owned.has(child)) {
        child = { ...child };
        assign(current, key, child);
        owned.add(child);
      }
    }
    current = child;
  }
  return current;
}

/**
 * Removes the row's source key from `out` (every container on the way is a plain object: the
 * row just read the key there). The container is replaced by a copy without the key rather
 * than `delete`d from: V8 turns an object that loses a property other than its last into a
 * slow dictionary object, and every later read, copy and serialisation of it (the stash's
 * conversion back, `unshare`, the caller's JSON.stringify) pays for that.
 *
 * With `renamed` (a row that renames a key inside its container), the copy holds that value
 * under the row's target key where the source key was, so a round trip (`versions` →
 * `version` → `versions`) gives back the keys in their order; true when it did. Not when the
 * container already holds the target key: the row then writes it where it stands.
 */
function removeKey(out: JsonObject, row: PreparedRow, owned: OwnedSet | undefined, renamed?: Json): boolean {
  const key = row.fromKey!;
  const name = row.fromParentKey;
  if (name === undefined) {
    delete out[key]; // (the root itself cannot be replaced; no table moves a top-level key)
    return false;
  }
  const parent = writableObjectAt(out, row.fromGrandparent!, owned)!;
  const container = parent[name] as JsonObject;
  const rename = renamed !== undefined && !Object.hasOwn(container, row.toKey!);
  const copy: JsonObject = {};
  for (const k of Object.keys(container)) {
    if (k !== key) assign(copy, k, container[k]!);
    else if (rename) assign(copy, row.toKey!, renamed!);
  }
  assign(parent, name, copy);
  owned?.add(copy);
  return rename;
}

/**
 * Applies a move table, in place, to `out` at `prefix` (`''` for the object itself,
 * `spec.template` for a MachineSet's machine template). `source` is the unmoved object the
 * transforms may consult. Rows whose source field is absent do nothing and are not reported.
 * With `owned`, `out` shares structure with `source` and is copied on write. Without
 * `applied`, nothing is reported (and in-place rows are not compared to find out whether
 * they changed something): for conversions read and thrown away.
 *
 * Each row reaches its field through the container path prepared once (`objectAt`,
 * `writableObjectAt`), the same walks `getPath`, `ownPath`, `deletePath` and `setPath` make
 * for key-only paths, without their per-segment index checks.
 */
export function applyMoves(
  out: JsonObject,
  source: JsonObject,
  moves: readonly FieldMove[],
  direction: Direction,
  prefix = '',
  applied?: AppliedMove[],
  owned?: OwnedSet,
): void {
  const root = prefix === '' ? source : getPath(source, dotted(prefix));
  if (!isObject(root)) return;
  for (const row of prepare(moves, direction, prefix)) {
    if (row.noop) continue;
    // Rows run in order, each on the result of the ones before it, so rows can chain.
    let value: Json | undefined;
    if (row.fromKey !== undefined) {
      const parent = objectAt(out, row.fromParent!);
      if (parent !== undefined && Object.hasOwn(parent, row.fromKey)) value = parent[row.fromKey];
    }
    if (value === undefined && !row.always) continue;
    const moved =
      row.toKey === undefined
        ? undefined
        : row.transform === undefined
          ? value
          : row.transform(value, root, row.move.nested === true ? innerSink(row, applied) : undefined);
    // A row that rewrites a field in place keeps the key where it was (stable output order).
    // (`value` defined: every container on the way is a plain object, so this finds it.)
    if (value !== undefined && !(row.inPlace && moved !== undefined)) {
      if (removeKey(out, row, owned, row.renames ? moved : undefined)) {
        applied?.push(row.moveReport!);
        continue;
      }
    }
    if (row.toKey === undefined || moved === undefined) {
      if (value !== undefined) applied?.push(row.unconvertedReport ?? row.dropReport);
      continue;
    }
    const target = writableObjectAt(out, row.toParent!, owned);
    if (target !== undefined) assign(target, row.toKey, moved);
    // Rows that rewrite a field in place are reported only when they changed something.
    if (applied !== undefined && (!row.inPlace || !deepEqual(value, moved))) {
      applied.push(row.moveReport!);
    }
  }
}

/** Reports, as `row`'s own, the values its transform could not convert inside its field. */
function innerSink(row: PreparedRow, applied: AppliedMove[] | undefined): UnconvertedSink | undefined {
  if (applied === undefined || row.moveReport === undefined) return undefined;
  const { from, to, note } = row.moveReport;
  return (innerFrom, innerTo) =>
    applied.push({ from: joinLabel(from, innerFrom), to: joinLabel(to!, innerTo), note, unconverted: true });
}

/** Rows applied at `at` (`''`: the object); `movesDown`, when given, is their order going down. */
export interface MoveGroup {
  readonly at: string;
  readonly moves: readonly FieldMove[];
  readonly movesDown?: readonly FieldMove[];
}

export interface MoveObjectOptions<G extends MoveGroup> {
  /** Collects what moved (without it, nothing is reported). */
  readonly applied?: AppliedMove[];
  /**
   * Copy-on-write into this set: the result shares what the rows leave alone with the input
   * (for results read and thrown away, never handed to a caller). Without it, a deep copy.
   */
  readonly owned?: OwnedSet;
  /** Runs after each group (the chain's hops prune the parents the group emptied). */
  readonly afterGroup?: (
    out: JsonObject,
    object: JsonObject,
    group: G,
    moves: readonly FieldMove[],
    direction: Direction,
    owned: OwnedSet | undefined,
  ) => void;
}

/**
 * The plain moves of a whole table on one object, without stash or plug-ins: the v1alpha1 ⇄
 * v1alpha2 kinds (convert.ts) and every hop of the chain (chain/hop.ts) go through here.
 * `apiVersion`, when given, replaces the object's own (when it has one).
 */
export function moveObject<G extends MoveGroup>(
  object: JsonObject,
  groups: readonly G[],
  direction: Direction,
  apiVersion: string | undefined,
  options: MoveObjectOptions<G> = {},
): JsonObject {
  const { applied, owned, afterGroup } = options;
  const out = owned === undefined ? clone(object) : { ...object };
  owned?.add(out);
  for (const group of groups) {
    const moves = direction === 'down' ? (group.movesDown ?? group.moves) : group.moves;
    applyMoves(out, object, moves, direction, group.at, applied, owned);
    afterGroup?.(out, object, group, moves, direction, owned);
  }
  if (apiVersion !== undefined && Object.hasOwn(out, 'apiVersion')) out.apiVersion = apiVersion;
  return out;
}
