import * as E from 'fp-ts/lib/Either.js';
import { checkKeyPairRecords } from '../key-pairs.js';
import { type AppliedMove, type FieldMove, type MoveTransform, moveObject } from '../moves.js';
import {
  assign,
  deepEqual,
  deletePath,
  formatPath,
  getPath,
  isObject,
  type JsonObject,
  type OwnedSet,
  ownPath,
  unshare,
} from '../path.js';
import { checkSecretFieldRecords } from '../secret-fields.js';
import {
  applyStash,
  CONVERSION_DATA_ANNOTATION,
  checkWrittenStash,
  diff,
  putStash,
  type StashEntry,
  takeStash,
} from '../stash.js';
import {
  checkEntry,
  checkGenerated,
  partitionStashEntries,
  type StashRefusal,
  type StashRefusalCode,
  type StashRules,
} from '../stash-rules.js';
import type { Direction } from '../versions.js';
import type { ReferenceApiVersionLookup } from './contract.js';
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
  /** See `FieldMove.strict`: `undefined` from a transform means the value has no form there. */
  readonly strict?: boolean;
  /** See `FieldMove.nested`: the transform reports the values inside it that it left out. */
  readonly nested?: boolean;
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
  /** Fields only the older / only the newer version has (rows with one side). */
  readonly lowerOnly: readonly (readonly string[])[];
  readonly upperOnly: readonly (readonly string[])[];
}

export function hopGroup(at: string, rows: readonly HopMove[]): HopGroup {
  const base = at === '' ? [] : at.split('.');
  const restorable = rows.flatMap((row) =>
    row.restorable !== undefined
      ? row.restorable.map((p) => [...base, ...p])
      : [row.lower, row.upper].filter((p) => p !== undefined).map((p) => [...base, ...p.split('.')]),
  );
  const moves = hopMoves(rows);
  const oneSided = (side: 'lower' | 'upper') =>
    rows
      .filter((r) => r[side] !== undefined && r[side === 'lower' ? 'upper' : 'lower'] === undefined)
      .map((r) => [...base, ...r[side]!.split('.')]);
  return {
    at,
    moves,
    movesDown: [...moves].reverse(),
    restorable,
    lowerOnly: oneSided('lower'),
    upperOnly: oneSided('upper'),
  };
}

/** The move engine speaks v1alpha1/v1alpha2 for "older"/"newer"; hop rows are mapped onto it once. */
export function hopMoves(rows: readonly HopMove[]): readonly FieldMove[] {
  return rows.map((row) => ({
    ...(row.lower === undefined ? {} : { v1alpha1: row.lower }),
    ...(row.upper === undefined ? {} : { v1alpha2: row.upper }),
    ...(row.up === undefined ? {} : { up: row.up }),
    ...(row.down === undefined ? {} : { down: row.down }),
    ...(row.evenIfAbsent === undefined ? {} : { evenIfAbsent: row.evenIfAbsent }),
    ...(row.strict === undefined ? {} : { strict: row.strict }),
    ...(row.nested === undefined ? {} : { nested: row.nested }),
    note: row.note,
  }));
}

/** Options a hop may need beyond its table. */
export interface HopOptions {
  /**
   * apiVersion of a reference's group and kind, for references the newer version keeps as
   * `{apiGroup, kind, name}` (v1beta2) and the older needs as `{apiVersion, kind, name}`.
   * Upstream reads it from the CRD's contract labels on the live cluster; here it is a plain
   * function so conversion stays offline and pure: `referenceApiVersionsFromCrds` (contract.ts)
   * builds one from CRDs, `@capi-kit/client`'s `loadReferenceApiVersions` from a live cluster.
   */
  readonly referenceApiVersion?: ReferenceApiVersionLookup;
}

/** One kind's conversion on one hop: row groups, each applied at a path of the object. */
export interface HopTable {
  readonly kind: ChainKind;
  readonly groups: readonly HopGroup[];
  /**
   * Work that needs more than a table row, after the moves and the stash have applied (e.g.
   * looking up a reference's apiVersion going down); may add warnings. The way back never
   * needs it, so what is stashed does not depend on the environment. `out` is built
   * copy-on-write over `source`: own the containers on a path (`ownPath` with `owned`)
   * before writing there.
   */
  readonly finish?: (
    out: JsonObject,
    source: JsonObject,
    direction: Direction,
    options: HopOptions,
    warnings: string[],
    owned: OwnedSet,
  ) => void;
  /**
   * Checks a stash's entries beyond stash-rules' path rules, before any applies: what the
   * hop's references name (reference-guard.ts). A refusal refuses the stash.
   */
  readonly checkStash?: (entries: readonly StashEntry[], direction: Direction) => StashRefusal | undefined;
  /**
   * Stash entries that belong to more than their own path (a v1beta1 reference's `uid`
   * belongs to the object the reference names, which v1beta2 keeps as `{apiGroup, kind,
   * name}`). `bind` runs on the entries a hop in `direction` is about to stash, with the
   * object it made, and may give them a `base` recording what they belong to; `unbind` runs
   * on a stash's entries once they are checked, before they apply, with the object being
   * converted: it returns the entries that still apply, as `applyStash` reads them, and warns
   * about the ones it leaves out. Like `finish`, neither may change the object.
   */
  readonly stashBinding?: {
    readonly bind: (entries: StashEntry[], out: JsonObject, direction: Direction) => StashEntry[];
    readonly unbind: (
      entries: readonly StashEntry[],
      source: JsonObject,
      direction: Direction,
      warnings: string[],
    ) => readonly StashEntry[];
  };
}

/** Two adjacent versions of the chain and, per kind, how objects move between them. */
export interface Hop {
  readonly lower: ChainVersion;
  readonly upper: ChainVersion;
  readonly tables: Partial<Readonly<Record<ChainKind, HopTable>>>;
}

export type HopFailure = {
  readonly code?: StashRefusalCode;
  readonly path?: string;
  readonly message: string;
};

/** What one hop did to one object (the chain merges these into one report). */
export interface HopResult {
  readonly object: JsonObject;
  readonly moves: readonly AppliedMove[];
  readonly stashed: readonly string[];
  readonly restored: readonly string[];
  readonly keptEdits: readonly string[];
  readonly warnings: readonly string[];
}

/**
 * The plain moves of one hop, without stash: what a stash is computed against. With `owned`,
 * the result is copy-on-write over `object` (see moveObject); without `applied`, nothing is
 * reported.
 */
export function plainHop(
  object: JsonObject,
  hop: Hop,
  table: HopTable,
  direction: Direction,
  applied?: AppliedMove[],
  owned?: OwnedSet,
): JsonObject {
  return moveObject(object, table.groups, direction, direction === 'up' ? hop.upper : hop.lower, {
    applied,
    owned,
    afterGroup: pruneEmptied,
  });
}

/**
 * A row table applied inside one field's value (a topology's health check, each item of a
 * list of machine deployment topologies), as the `up`/`down` of the row that moves that field.
 * Rows use paths relative to the value; parents the moves empty are pruned as on objects.
 * With `dropEmpty` (a struct of `omitzero` structs, such as a health check), every empty
 * object left in the result is dropped, and an empty result writes nothing: there `{}` means
 * the same as absent (a literal `{}` in the input is the stash's to keep, as everywhere).
 */
export function nestedRows(
  rows: readonly HopMove[],
  dropEmpty = false,
): Required<Pick<HopMove, 'up' | 'down' | 'nested'>> {
  const groups = [hopGroup('', rows)];
  const run =
    (direction: Direction): MoveTransform =>
    (value, _root, unconverted) => {
      if (!isObject(value)) return value;
      // (reported only to pass on what the `strict` rows inside could not convert)
      const applied: AppliedMove[] | undefined = unconverted === undefined ? undefined : [];
      const out = moveObject(value, groups, direction, undefined, { afterGroup: pruneEmptied, applied });
      for (const move of applied ?? []) if (move.unconverted === true) unconverted!(move.from, move.to!);
      return dropEmpty ? withoutEmptyObjects(out) : out;
    };
  return { up: run('up'), down: run('down'), nested: true };
}

function withoutEmptyObjects(value: JsonObject): JsonObject | undefined {
  const out: JsonObject = {};
  for (const [key, v] of Object.entries(value)) {
    const kept = isObject(v) ? withoutEmptyObjects(v) : v;
    if (kept !== undefined) assign(out, key, kept);
  }
  return Object.keys(out).length === 0 ? undefined : out;
}

/**
 * A field moved out of `status.v1beta2` or `spec.strategy.rollingUpdate` leaves its parent
 * empty; such parents go (up to and including `spec` / `status`: v1beta2 refuses an empty
 * `status`), so the target holds no `{}` the version does not know. A literal `{}` in the input is the stash's to keep.
 */
function pruneEmptied(
  out: JsonObject,
  source: JsonObject,
  group: HopGroup,
  moves: readonly FieldMove[],
  direction: Direction,
  owned: OwnedSet | undefined,
): void {
  for (const parents of movedFieldParents(moves, direction, group.at)) {
    // (the last entry is the moved field itself)
    if (getPath(source, parents[parents.length - 1]!) === undefined) continue;
    for (let n = parents.length - 2; n >= 0; n--) {
      const parent = parents[n]!;
      const value = getPath(out, parent);
      if (!isObject(value) || Object.keys(value).length > 0) break;
      if (owned !== undefined) ownPath(out, parent.slice(0, -1), owned);
      deletePath(out, parent);
    }
  }
}

/**
 * For each row that moves a field away (a source path, and another target or none): the
 * prefixes of its source path below `at`, shortest first (`['spec']`, `['spec', 'strategy']`,
 * …, the field's own path last). Made once per table, direction and root: pruning runs after
 * every group of every hop, and splitting paths there was a fifth of a chain conversion.
 */
function movedFieldParents(
  moves: readonly FieldMove[],
  direction: Direction,
  at: string,
): readonly Prefixes[] {
  let byRoot = movedFieldParentsCache.get(moves);
  if (byRoot === undefined) {
    byRoot = new Map();
    movedFieldParentsCache.set(moves, byRoot);
  }
  const key = `${direction} ${at}`;
  let prepared = byRoot.get(key);
  if (prepared === undefined) {
    const base = at === '' ? [] : at.split('.');
    const list: Prefixes[] = [];
    for (const move of moves) {
      const from = direction === 'up' ? move.v1alpha1 : move.v1alpha2;
      const to = direction === 'up' ? move.v1alpha2 : move.v1alpha1;
      if (from === undefined || from === to) continue;
      const path = [...base, ...from.split('.')];
      list.push(path.map((_, i) => path.slice(0, i + 1)));
    }
    prepared = list;
    byRoot.set(key, prepared);
  }
  return prepared;
}

/** The prefixes of one path, shortest first. */
type Prefixes = readonly (readonly string[])[];

// Tables are module constants, so their prepared paths live as long as they do.
const movedFieldParentsCache = new WeakMap<readonly FieldMove[], Map<string, readonly Prefixes[]>>();

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
  if (E.isLeft(taken)) return taken;
  const { stash, rest } = taken.right;
  if (stash !== undefined && stash.restores !== to) {
    return E.left({
      path: 'metadata.annotations',
      message: `the conversion-data annotation restores ${stash.restores}, but this object converts to ${to}`,
    });
  }
  // As convertKind does (convert.ts): the result is built copy-on-write over `rest`, so the
  // conversion back below shares every untouched subtree with `rest` and the diff skips
  // them; `unshare` then copies the rest once.
  const owned = new Set<object>();
  const fresh = new Set<object>();
  const moves: AppliedMove[] = [];
  const out = plainHop(rest, hop, table, direction, moves, owned);
  let restored: StashEntry[] = [];
  let keptEdits: StashEntry[] = [];
  const namespace = getPath(rest, ['metadata', 'namespace']);
  const objectNamespace = typeof namespace === 'string' && namespace !== '' ? namespace : undefined;
  const warnings = unconvertedWarnings(moves);
  if (stash !== undefined) {
    // The stash is data from whoever could annotate the object: checked whole before any of it applies.
    const rules = hopStashRules(table, direction);
    for (const entry of stash.entries) {
      const refusal = checkEntry(entry, rules, objectNamespace);
      if (refusal !== undefined) return E.left(stashRefused(refusal));
    }
    const guarded = table.checkStash?.(stash.entries, direction);
    if (guarded !== undefined) return E.left(stashRefused(guarded));
    if (stash.generated !== undefined && stash.generated.length > 0) {
      const refusal = checkGenerated(stash.generated, rules);
      if (refusal !== undefined) return E.left(stashRefused(refusal));
    }
    // Only the v1alpha1 ↔ v1alpha2 conversion moves key pairs and credentials into Secrets.
    const secretRefusal =
      checkKeyPairRecords(stash.keyPairs, undefined) ??
      checkSecretFieldRecords(stash.secretFields, undefined);
    if (secretRefusal !== undefined) return E.left(stashRefused(secretRefusal));
    const entries = table.stashBinding?.unbind(stash.entries, rest, direction, warnings) ?? stash.entries;
    const result = applyStash(out, entries, owned, fresh);
    restored = result.applied;
    keptEdits = result.skipped;
  }
  if (table.finish !== undefined) {
    table.finish(out, rest, direction, options, warnings, owned);
    // A finish may take back what the stash put (a stashed reference apiVersion of another
    // group): the report lists as restored only what the object still holds.
    restored = restored.filter((e) => e.value === undefined || deepEqual(getPath(out, e.path), e.value));
  }
  const reverse = direction === 'up' ? 'down' : 'up';
  // (read once by diff, then dropped: it shares structure with `out` and `rest`)
  const back = plainHop(out, hop, table, reverse, undefined, new Set<object>());
  const differences = diff(rest, back);
  const all = table.stashBinding?.bind(differences, out, direction) ?? differences;
  unshare(out, owned, fresh);
  // What no stash may carry is not written into one (it would be refused on the way back):
  // it is reported as lost instead.
  const { kept: entries, refused } = partitionStashEntries(
    all,
    hopStashRules(table, reverse),
    objectNamespace,
  );
  for (const refusal of refused)
    warnings.push(`${refusal.path} is not kept for the way back: ${refusal.message}`);
  if (entries.length > 0) {
    putStash(out, { restores: from, entries });
    const written = checkWrittenStash(out, entries);
    if (E.isLeft(written)) return written;
  }
  return E.right({
    object: out,
    moves,
    stashed: entries.map((e) => formatPath(e.path)),
    restored: restored.map((e) => formatPath(e.path)),
    keptEdits: keptEdits.map((e) => formatPath(e.path)),
    warnings,
  });
}

/** A warning for each value a `strict` row could not convert (a duration that is a `${VAR}`). */
export function unconvertedWarnings(moves: readonly AppliedMove[]): string[] {
  return moves.flatMap((m) =>
    m.unconverted === true
      ? [
          `${m.from}: the value has no form ${m.to} can hold, so that field is left out; the stash keeps the value for the way back`,
        ]
      : [],
  );
}

export function stashRefused(refusal: StashRefusal): HopFailure {
  return {
    code: refusal.code,
    path: refusal.path,
    message: `conversion stash (${CONVERSION_DATA_ANNOTATION}) refused: ${refusal.message}`,
  };
}

const rulesCache = new WeakMap<HopTable, Record<Direction, StashRules>>();

/**
 * What a stash applied on this hop in `direction` may touch (stash-rules.ts): the fields the
 * rows move or drop; and bootstrap data only where the target version has the field and the
 * source cannot hold it (v1alpha4 → v1alpha3), never where it would be an injection.
 */
export function hopStashRules(table: HopTable, direction: Direction): StashRules {
  let rules = rulesCache.get(table);
  if (rules === undefined) {
    const allowed = table.groups.flatMap((g) => g.restorable);
    rules = {
      up: { allowed, generated: [], exempt: table.groups.flatMap((g) => g.upperOnly) },
      down: { allowed, generated: [], exempt: table.groups.flatMap((g) => g.lowerOnly) },
    };
    rulesCache.set(table, rules);
  }
  return rules[direction];
}
