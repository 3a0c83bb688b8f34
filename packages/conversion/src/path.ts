import { formatJsonPath, isPlainObject, type JsonPath } from '@capi-kit/core/objects';

/**
 * Plain-JSON helpers for the field-move tables: objects are read and written by path, and
 * never mutated in place once handed back to a caller.
 */

/** A JSON value as it comes out of a YAML or JSON parser. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

/** A path into a document: object keys and array indexes. */
export type Path = JsonPath;

/** core's plain-object test, narrowed to the JSON this package handles. */
export const isObject: (value: unknown) => value is JsonObject = isPlainObject as (
  value: unknown,
) => value is JsonObject;

/** `spec.template.metadata.labels["cluster.k8s.io/cluster-name"]`, for messages and the report. */
export const formatPath: (path: Path) => string = formatJsonPath;

const dottedCache = new Map<string, string[]>();

/** Parses the dotted form used in the move tables (`spec.versions.kubelet`); cached, do not mutate. */
export function dotted(path: string): string[] {
  let parsed = dottedCache.get(path);
  if (parsed === undefined) {
    parsed = path === '' ? [] : path.split('.');
    if (dottedCache.size < 4096) dottedCache.set(path, parsed);
  }
  return parsed;
}

export function getPath(value: unknown, path: Path): unknown {
  let current: unknown = value;
  for (const part of path) {
    if (typeof part === 'number') {
      if (!Array.isArray(current)) return undefined;
      current = current[part];
    } else {
      if (!isObject(current)) return undefined;
      // Most rows ask for fields the object lacks: an absent field needs one lookup, and
      // only a present one is checked for being the object's own (not Object.prototype's).
      const next: unknown = current[part];
      if (next === undefined || !Object.hasOwn(current, part)) return undefined;
      current = next;
    }
  }
  return current;
}

/**
 * Sets `path` to `value` in `root` (mutating), creating intermediate objects as needed.
 * Returns false when a non-object is in the way (the value is then not written).
 */
export function setPath(root: JsonObject, path: Path, value: Json): boolean {
  if (path.length === 0) return false;
  let current: Json = root;
  for (let i = 0; i < path.length - 1; i++) {
    const part = path[i]!;
    const next = path[i + 1]!;
    if (Array.isArray(current) && typeof part === 'number') {
      if (current[part] === undefined) current[part] = typeof next === 'number' ? [] : {};
      current = current[part]!;
    } else if (isObject(current) && typeof part === 'string') {
      if (!Object.hasOwn(current, part)) assign(current, part, typeof next === 'number' ? [] : {});
      current = current[part]!;
    } else {
      return false;
    }
  }
  const last = path[path.length - 1]!;
  if (Array.isArray(current) && typeof last === 'number') current[last] = value;
  else if (isObject(current) && typeof last === 'string') assign(current, last, value);
  else return false;
  return true;
}

/**
 * Removes `path` from `root` (mutating). With `pruneEmptyParents`, objects left empty by
 * the removal go too, so taking `metadata.labels.x` away does not leave `labels: {}`.
 */
export function deletePath(root: JsonObject, path: Path, pruneEmptyParents = false): void {
  if (path.length === 0) return;
  // Only pruning needs the parents: the common case allocates nothing.
  const parents: Json[] | undefined = pruneEmptyParents ? [root] : undefined;
  let current: Json = root;
  for (let i = 0; i < path.length - 1; i++) {
    const part = path[i]!;
    const next: Json | undefined = Array.isArray(current)
      ? typeof part === 'number'
        ? current[part]
        : undefined
      : isObject(current) && typeof part === 'string' && Object.hasOwn(current, part)
        ? current[part]
        : undefined;
    if (next === undefined) return;
    current = next;
    parents?.push(current);
  }
  const last = path[path.length - 1]!;
  if (isObject(current) && typeof last === 'string') delete current[last];
  else if (Array.isArray(current) && typeof last === 'number') current.splice(last, 1);
  if (parents === undefined) return;
  for (let i = path.length - 1; i > 0; i--) {
    const node = parents[i];
    if (!isObject(node) || Object.keys(node).length > 0) break;
    const parent = parents[i - 1];
    const key = path[i - 1]!;
    if (isObject(parent) && typeof key === 'string') delete parent[key];
  }
}

/**
 * A deep copy of plain JSON data (much cheaper than structuredClone for small objects).
 * Each container is first copied shallowly (a spread copies an object's properties in one
 * step, an own `__proto__` key included, where adding them one by one reshapes the copy
 * at every key); then only its containers are replaced by their copies.
 */
export function clone<T extends Json>(value: T): T {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) {
    const out = value.slice();
    for (let i = 0; i < out.length; i++) {
      const v = out[i];
      if (v !== null && typeof v === 'object') out[i] = clone(v);
    }
    return out as T;
  }
  const out: JsonObject = { ...(value as JsonObject) };
  for (const key of Object.keys(out)) {
    const v = out[key]!;
    // (`out` has every key as an own data property, `__proto__` too: plain assignment
    // writes that property, never the prototype)
    if (v !== null && typeof v === 'object') out[key] = clone(v);
  }
  return out as T;
}

/**
 * Sets an own property, even `__proto__` (a manifest may hold such a key; plain assignment
 * would change the object's prototype instead).
 */
export function assign(target: JsonObject, key: string, value: Json): void {
  if (key === '__proto__') {
    Object.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true });
  } else {
    target[key] = value;
  }
}

export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== typeof b || a === null || b === null || typeof a !== 'object') return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!deepEqual(a[i], b[i])) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  const ak = Object.keys(a as object);
  const bo = b as Record<string, unknown>;
  if (ak.length !== Object.keys(bo).length) return false;
  for (const key of ak) {
    if (!Object.hasOwn(bo, key) || !deepEqual((a as Record<string, unknown>)[key], bo[key])) return false;
  }
  return true;
}

export function isPrefix(prefix: Path, path: Path): boolean {
  if (prefix.length > path.length) return false;
  for (let i = 0; i < prefix.length; i++) if (prefix[i] !== path[i]) return false;
  return true;
}

/**
 * The containers a copy-on-write result owns (see ownPath): a `WeakSet` or, for a result
 * built and finished in one call, a plain `Set` (cheaper to fill and to ask).
 */
export interface OwnedSet {
  has(value: object): boolean;
  add(value: object): unknown;
}

/**
 * Copy-on-write: makes every container on `path` (the containers holding its last segment
 * included) an object of the result, copying shared ones shallowly. Objects in `owned`
 * already belong to the result. Lets a throw-away conversion share everything it does not
 * touch with its input. `length` stops after that many segments (the parent of a path
 * without slicing it).
 */
export function ownPath(root: JsonObject, path: Path, owned: OwnedSet, length = path.length): void {
  let current: Json = root;
  for (let i = 0; i < length; i++) {
    const part = path[i]!;
    const container = current as Record<string | number, Json>;
    const child: Json | undefined = container[part];
    if (child === null || typeof child !== 'object') return;
    // Of what plain objects and arrays inherit, only `__proto__` is an object (functions are
    // not): only that key needs the own-property check.
    if (part === '__proto__' && !Object.hasOwn(container, part)) return;
    let mine: Json = child;
    if (!owned.has(child)) {
      mine = Array.isArray(child) ? [...child] : { ...child };
      if (Array.isArray(container) && typeof part === 'number') container[part] = mine;
      else assign(container as JsonObject, String(part), mine);
      owned.add(mine);
    }
    current = mine;
  }
}

/**
 * Finishes a copy-on-write result (see ownPath): every container of `node` that `owned` does
 * not hold may still be the input's, and is replaced by a deep copy, so the result shares
 * nothing with its input. Owned containers are already the result's and are only walked;
 * `fresh` ones (made for the result alone, such as values just parsed from a stash) are kept
 * whole. Costs one copy of what the result holds, never of what the conversion dropped.
 */
export function unshare(node: JsonObject | Json[], owned: OwnedSet, fresh?: ReadonlySet<object>): void {
  // (an empty `fresh` is no `fresh`: one lookup fewer for every shared container)
  if (fresh !== undefined && fresh.size === 0) fresh = undefined;
  if (Array.isArray(node)) {
    for (let i = 0; i < node.length; i++) {
      const child = node[i];
      if (child === null || typeof child !== 'object') continue;
      if (owned.has(child)) unshare(child, owned, fresh);
      else if (fresh === undefined || !fresh.has(child)) node[i] = clone(child);
    }
    return;
  }
  for (const key of Object.keys(node)) {
    const child = node[key];
    if (child === null || typeof child !== 'object') continue;
    if (owned.has(child)) unshare(child, owned, fresh);
    // (`key` is an own data property of `node`, `__proto__` too: plain assignment writes it)
    else if (fresh === undefined || !fresh.has(child)) node[key] = clone(child);
  }
}
