import { deepEqual, formatPath, getPath, isObject, isPrefix, type Json, type JsonObject } from '../path.js';
import type { StashEntry } from '../stash.js';
import type { StashRefusal } from '../stash-rules.js';
import type { Direction } from '../versions.js';

/**
 * A field that names another object (a reference, a ClusterClass name, a list of topologies
 * each naming its class), in the version a stash restores. Its rows move it, so stash-rules
 * let a stash restore under it; but a stash is data and never changes what an object points
 * at: the plain conversion writes what the field names, and no stash the conversion writes
 * has an entry that changes it (each row carries the names over unchanged, both ways). A
 * forged entry did: `{p: [spec, infrastructureRef, name], v: "evil", b: <current name>}`
 * applied, since its `base` matched, and renamed the reference.
 */
export interface GuardedField {
  readonly path: readonly string[];
  /**
   * The keys under `path` that name the object: no entry may write or remove under them.
   * (None for a leaf or a list: an entry cannot go through those.)
   */
  readonly keys: readonly string[];
  /**
   * One of `keys` a stash may give the field where the plain conversion wrote none (an entry
   * right under `path` without a `base`): the version part v1beta2 cannot hold, an apiVersion
   * going down (bound to the reference's group by the hop's finish), an apiGroup going up.
   */
  readonly fill?: string;
  /** What the field names, for an entry that writes it whole (or one of its parents). */
  readonly names: (value: unknown) => unknown;
}

/**
 * `names` of an object reference: its present `keys`, in that order (anything else as it is).
 * One holding none of them names nothing, as an absent one: rows may drop it (an empty
 * health check template is no health check going up), and a stash may keep it.
 */
export function namedBy(keys: readonly string[]): (value: unknown) => unknown {
  return (value) => {
    if (!isObject(value)) return value;
    const out: JsonObject = {};
    let some = false;
    for (const key of keys) {
      if (!Object.hasOwn(value, key)) continue;
      out[key] = value[key] as Json;
      some = true;
    }
    return some ? out : undefined;
  };
}

/** `names` of a list of topologies: each item's name and class (`more`: what else it names). */
export function topologiesNamedBy(more?: (item: JsonObject) => unknown): (value: unknown) => unknown {
  const own = namedBy(['name', 'class']);
  return itemsNamedBy((item) =>
    isObject(item) ? [own(item) ?? null, more === undefined ? null : (more(item) ?? null)] : item,
  );
}

/** `names` of a list whose items each name objects (`item`), in order. */
function itemsNamedBy(item: (value: unknown) => unknown): (value: unknown) => unknown {
  return (value) => (Array.isArray(value) ? value.map(item) : value);
}

/**
 * The check of a hop table (`HopTable.checkStash`): refuses (`stash-identity`) a stash entry
 * that would change what one of the fields guarded in its direction names. Static, like every
 * rule: it does not matter whether the entry's `base` matches the object.
 */
export function guardFields(
  guarded: Readonly<Record<Direction, readonly GuardedField[]>>,
): (entries: readonly StashEntry[], direction: Direction) => StashRefusal | undefined {
  return (entries, direction) => {
    const fields = guarded[direction];
    for (const entry of entries) {
      for (const field of fields) {
        const why = changes(entry, field);
        if (why !== undefined)
          return {
            code: 'stash-identity',
            path: formatPath(entry.path),
            message: `the stash would change ${why} of ${formatPath(field.path)}; a stash never changes what an object refers to`,
          };
      }
    }
    return undefined;
  };
}

/** What of `field` the entry changes (undefined: nothing). */
function changes(entry: StashEntry, field: GuardedField): string | undefined {
  const { path } = entry;
  if (path.length <= field.path.length) {
    if (!isPrefix(path, field.path)) return undefined;
    // The entry writes the field whole, or a parent holding it: what it names must not change.
    const rest = field.path.slice(path.length);
    const now = field.names(getPath(entry.base, rest));
    const then = field.names(getPath(entry.value, rest));
    return deepEqual(now, then) ? undefined : 'what it names';
  }
  if (!isPrefix(field.path, path)) return undefined;
  const key = path[field.path.length]!;
  if (!field.keys.includes(key)) return undefined;
  if (key === field.fill && path.length === field.path.length + 1 && entry.base === undefined)
    return undefined;
  return `the ${key}`;
}
