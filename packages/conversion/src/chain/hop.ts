import * as E from 'fp-ts/lib/Either.js';
import { type AppliedMove, applyMoves, type FieldMove } from '../moves.js';
import {
  clone,
  deletePath,
  formatPath,
  getPath,
  isObject,
  type Json,
  type JsonObject,
  ownPath,
} from '../path.js';
import { applyStash, diff, putStash, type StashEntry, takeStash } from '../stash.js';
import type { Direction } from '../versions.js';
import type { ChainKind, ChainVersion } from './versions.js';

/**
 * One row of a hop's field-move table, in the words of the hop: `lower` is the path in the
 * older version, `upper` in the newer one. Same meaning as the v1alpha1 ⇄ v1alpha2 rows
 * (moves.ts): a row with one side only is a field the other version cannot hold; it is
 * dropped by the move and kept by the stash.
 */
export interface HopMove {
  readonly lower?: string;
  readonly upper?: string;
  /** Value transform going up (older → newer); `undefined` writes nothing. */
  readonly up?: FieldMove['up'];
  readonly down?: FieldMove['down'];
  readonly evenIfAbsent?: Direction;
  /**
   * Where under this row a stash may restore, relative to the group (key arrays: keys may hold
   * dots). Default: the row's own paths. A row that rewrites a whole map (annotation renames)
   * names just the keys it renames, so a stash cannot add any other annotation.
   */
  readonly restorable?: readonly (readonly string[])[];
  readonly note: string;
}

/** A group of rows applied at `at` (`''`: the object; `spec.template`: a machine template). */
export interface HopGroup {
  readonly at: string;
  readonly moves: readonly FieldMove[];
  /**
   * The rows in reverse, for going down: rows may chain (one fills a field the next empties,
   * as v1beta2's conditions swap), so the way down undoes them last to first.
   */
  readonly movesDown: readonly FieldMove[];
  /** Paths (from the object's root) a stash may restore on this group's behalf. */
  readonly restorable: readonly (readonly string[])[];
}

export function hopGroup(at: string, rows: readonly HopMove[]): HopGroup {
  const base = at === '' ? [] : at.split('.');
  const restorable = rows.flatMap((row) =>
    row.restorable !== undefined
      ? row.restorable.map((p) => [...base, ...p])
      : [row.lower, row.upper].filter((p) => p !== undefined).map((p) => [...base, ...p.split('.')]),
  );
  const moves = hopMoves(rows);
  return { at, moves, movesDown: [...moves].reverse(), restorable };
}

/** The move engine speaks v1alpha1/v1alpha2 for "older"/"newer"; hop rows are mapped onto it once. */
export function hopMoves(rows: readonly HopMove[]): readonly FieldMove[] {
  return rows.map((row) => ({
    ...(row.lower === undefined ? {} : { v1alpha1: row.lower }),
    ...(row.upper === undefined ? {} : { v1alpha2: row.upper }),
    ...(row.up === undefined ? {} : { up: row.up }),
    ...(row.down === undefined ? {} : { down: row.down }),
    ...(row.evenIfAbsent === undefined ? {} : { evenIfAbsent: row.evenIfAbsent }),
    note: row.note,
  }));
}

/** Options a hop may need beyond its table. */
export interface HopOptions {
  /**
   * apiVersion of a reference's group and kind, for references the newer version keeps as
   * `{apiGroup, kind, name}` (v1beta2) and the older needs as `{apiVersion, kind, name}`.
   * Upstream reads it from the CRD's contract labels on the live cluster; here it is a plain
   * function so conversion stays offline and pure (see `contractVersionLookup`).
   */
  readonly referenceApiVersion?: (group: string, kind: string) => string | undefined;
}

/** One kind's conversion on one hop: row groups, each applied at a path of the object. */
export interface HopTable {
  readonly kind: ChainKind;
  readonly groups: readonly HopGroup[];
  /**
   * Work that needs more than a table row, after the moves and the stash have applied (e.g.
   * looking up a reference's apiVersion going down); may add warnings. The way back never
   * needs it, so what is stashed does not depend on the environment.
   */
  readonly finish?: (
    out: JsonObject,
    source: JsonObject,
    direction: Direction,
    options: HopOptions,
    warnings: string[],
  ) => void;
}

/** Two adjacent versions of the chain and, per kind, how objects move between them. */
export interface Hop {
  readonly lower: ChainVersion;
  readonly upper: ChainVersion;
  readonly tables: Partial<Readonly<Record<ChainKind, HopTable>>>;
}

export type HopFailure = { readonly path?: string; readonly message: string };

/** What one hop did to one object (the chain merges these into one report). */
export interface HopResult {
  readonly object: JsonObject;
  readonly moves: readonly AppliedMove[];
  readonly stashed: readonly string[];
  readonly restored: readonly string[];
  readonly keptEdits: readonly string[];
  readonly warnings: readonly string[];
}

/** The plain moves of one hop, without stash: what a stash is computed against. */
export function plainHop(
  object: JsonObject,
  hop: Hop,
  table: HopTable,
  direction: Direction,
  applied: AppliedMove[] = [],
  share = false,
): JsonObject {
  const owned = share ? new WeakSet<object>() : undefined;
  const out = share ? { ...object } : clone(object);
  owned?.add(out);
  for (const group of table.groups) {
    const moves = direction === 'up' ? group.moves : group.movesDown;
    applyMoves(out, object, moves, direction, group.at, applied, owned);
    pruneEmptied(out, object, group, moves, direction, owned);
  }
  if (Object.hasOwn(out, 'apiVersion')) out.apiVersion = direction === 'up' ? hop.upper : hop.lower;
  return out;
}

/**
 * A field moved out of `status.v1beta2` or `spec.strategy.rollingUpdate` leaves its parent
 * empty; such parents go (down to the object's top-level keys), so the target holds no
 * `{}` the version does not know. A literal `{}` in the input is the stash's to keep.
 */
function pruneEmptied(
  out: JsonObject,
  source: JsonObject,
  group: HopGroup,
  moves: readonly FieldMove[],
  direction: Direction,
  owned: WeakSet<object> | undefined,
): void {
  const base = group.at === '' ? [] : group.at.split('.');
  for (const move of moves) {
    const from = direction === 'up' ? move.v1alpha1 : move.v1alpha2;
    const to = direction === 'up' ? move.v1alpha2 : move.v1alpha1;
    if (from === undefined || from === to) continue;
    const path = [...base, ...from.split('.')];
    if (getPath(source, path) === undefined) continue;
    for (let n = path.length - 1; n >= 2; n--) {
      const parent = path.slice(0, n);
      const value = getPath(out, parent);
      if (!isObject(value) || Object.keys(value).length > 0) break;
      if (owned !== undefined) ownPath(out, parent.slice(0, -1), owned);
      deletePath(out, parent);
    }
  }
}

/**
 * Converts one object one hop, losslessly: a stash the object carries for the hop's target
 * version is applied and consumed, and what the way back would lose is stashed. (The chain
 * hands over only a stash meant for this hop; see stack.ts.)
 */
export function convertHop(
  input: JsonObject,
  hop: Hop,
  table: HopTable,
  direction: Direction,
  options: HopOptions = {},
): E.Either<HopFailure, HopResult> {
  const from = direction === 'up' ? hop.lower : hop.upper;
  const to = direction === 'up' ? hop.upper : hop.lower;
  const taken = takeStash(input);
  if (E.isLeft(taken)) return E.left({ path: 'metadata.annotations', message: String(taken.left) });
  const { stash, rest } = taken.right;
  if (stash !== undefined && stash.restores !== to) {
    return E.left({
      path: 'metadata.annotations',
      message: `the conversion-data annotation restores ${stash.restores}, but this object converts to ${to}`,
    });
  }
  const moves: AppliedMove[] = [];
  const out = plainHop(rest, hop, table, direction, moves);
  let restored: StashEntry[] = [];
  let keptEdits: StashEntry[] = [];
  if (stash !== undefined) {
    const refusal = checkHopStash(stash.entries, table, rest);
    if (refusal !== undefined) return E.left(refusal);
    const result = applyStash(out, stash.entries);
    restored = result.applied;
    keptEdits = result.skipped;
  }
  const warnings: string[] = [];
  table.finish?.(out, rest, direction, options, warnings);
  const back = plainHop(out, hop, table, direction === 'up' ? 'down' : 'up', [], true);
  const entries = diff(rest, back);
  if (entries.length > 0) putStash(out, { restores: from, entries });
  return E.right({
    object: out,
    moves,
    stashed: entries.map((e) => formatPath(e.path)),
    restored: restored.map((e) => formatPath(e.path)),
    keptEdits: keptEdits.map((e) => formatPath(e.path)),
    warnings,
  });
}

/** Paths no stash may touch whatever the table says: identity, kind, owners. */
const IDENTITY_PATHS: readonly (readonly string[])[] = [
  ['apiVersion'],
  ['kind'],
  ['metadata', 'name'],
  ['metadata', 'generateName'],
  ['metadata', 'namespace'],
  ['metadata', 'uid'],
  ['metadata', 'ownerReferences'],
];

function under(prefix: readonly string[], path: readonly string[]): boolean {
  return prefix.length <= path.length && prefix.every((p, i) => p === path[i]);
}

const restorableCache = new WeakMap<HopTable, readonly (readonly string[])[]>();
function restorablePaths(table: HopTable): readonly (readonly string[])[] {
  let paths = restorableCache.get(table);
  if (paths === undefined) {
    paths = table.groups.flatMap((g) => g.restorable);
    restorableCache.set(table, paths);
  }
  return paths;
}

/**
 * The stash is data anyone who can annotate the object wrote: an entry may restore only a
 * field this hop moves or drops, never identity or owners, and a `namespace` it writes must
 * be the object's own.
 */
export function checkHopStash(
  entries: readonly StashEntry[],
  table: HopTable,
  object: JsonObject,
): HopFailure | undefined {
  const namespace = getPath(object, ['metadata', 'namespace']);
  const allowed = restorablePaths(table);
  for (const entry of entries) {
    const refuse = (path: readonly string[], why: string): HopFailure => ({
      path: formatPath(path),
      message: `conversion stash refused: ${why}`,
    });
    // Every leaf the entry writes or removes (an entry for `spec.bootstrap` may carry `data`).
    const leaves = [...leafPaths(entry.value, entry.path), ...leafPaths(entry.base, entry.path)];
    if (leaves.length === 0) leaves.push(entry.path);
    for (const leaf of leaves) {
      if (IDENTITY_PATHS.some((p) => under(p, leaf)))
        return refuse(leaf, 'a stash never changes identity, kind or owners');
      if (!allowed.some((p) => under(p, leaf))) {
        return refuse(
          leaf,
          'this conversion neither moves nor drops the field, so a stash has nothing to restore there',
        );
      }
    }
    const bad = foreignNamespace(entry.value, entry.path, namespace);
    if (bad !== undefined) {
      return refuse(
        entry.path,
        `a stash never points a reference into another namespace (${JSON.stringify(bad)})`,
      );
    }
  }
  return undefined;
}

function leafPaths(
  value: Json | undefined,
  at: readonly string[],
  out: (readonly string[])[] = [],
): (readonly string[])[] {
  if (value === undefined) return out;
  if (!isObject(value) || Object.keys(value).length === 0) {
    out.push(at);
    return out;
  }
  for (const key of Object.keys(value)) leafPaths(value[key], [...at, key], out);
  return out;
}

function foreignNamespace(value: Json | undefined, path: readonly string[], own: unknown): Json | undefined {
  if (value === undefined) return undefined;
  if (path[path.length - 1] === 'namespace') return value === own ? undefined : value;
  if (isObject(value)) {
    for (const key of Object.keys(value)) {
      const bad = foreignNamespace(value[key], [...path, key], own);
      if (bad !== undefined) return bad;
    }
  }
  return undefined;
}
