import { joinLabel, type MoveTransform, type UnconvertedSink } from '../../moves.js';
import { assign, getPath, isObject, type Json, type JsonObject } from '../../path.js';
import type { HopMove } from '../hop.js';

/** A row for a field only the newer version of a hop has: dropped going down, kept by the stash. */
export const added = (upper: string, note = 'no field in the older version'): HopMove => ({ upper, note });

/** A row for a field only the older version has: dropped going up, kept by the stash. */
export const removed = (lower: string, note = 'no field in the newer version'): HopMove => ({ lower, note });

/** A field that moved (same value, new path). */
export const moved = (lower: string, upper: string, note: string): HopMove => ({ lower, upper, note });

/**
 * Renames keys of an annotation map, both ways. A renamed key never overwrites a key the map
 * already has under the new name (that one wins; the stash keeps the other).
 */
export function annotationRenames(
  pairs: readonly (readonly [lower: string, upper: string])[],
  note: string,
): HopMove {
  const up = new Map(pairs.map(([l, u]) => [l, u]));
  const down = new Map(pairs.map(([l, u]) => [u, l]));
  const rename = (renames: Map<string, string>) => (value: Json | undefined) => {
    if (!isObject(value)) return value;
    if (!Object.keys(value).some((k) => renames.has(k))) return value;
    const out: JsonObject = {};
    for (const [key, v] of Object.entries(value)) {
      const target = renames.get(key);
      assign(out, target !== undefined && !Object.hasOwn(value, target) ? target : key, v);
    }
    return out;
  };
  return {
    lower: 'metadata.annotations',
    upper: 'metadata.annotations',
    up: rename(up),
    down: rename(down),
    restorable: pairs.flatMap(([l, u]) => [
      ['metadata', 'annotations', l],
      ['metadata', 'annotations', u],
    ]),
    note,
  };
}

/** A string label of the object at `path` (labels map), when non-empty. */
export function labelAt(root: JsonObject, path: readonly string[], key: string): string | undefined {
  const value = getPath(root, [...path, key]);
  return typeof value === 'string' && value !== '' ? value : undefined;
}

const at = (index: number, inner: string) => joinLabel(`[${index}]`, inner);

type ItemTransform = (item: JsonObject, root: JsonObject, unconverted?: UnconvertedSink) => Json | undefined;

/**
 * A transform of each object item of a list (timeouts → …Seconds, a topology's rows); what
 * an item's transform could not convert is passed on under the item's index.
 */
export function mapItems(transform: ItemTransform): MoveTransform {
  return (value, root, unconverted) => {
    if (!Array.isArray(value)) return value;
    return value.map((item, i) => {
      if (!isObject(item)) return item;
      const inItem = unconverted && ((from: string, to: string) => unconverted(at(i, from), at(i, to)));
      // (a transform with nothing to write leaves the item as it was)
      return transform(item, root, inItem) ?? item;
    });
  };
}

/** `group/version` → `group` (`''` for the core group's `v1`). */
export function groupOf(apiVersion: unknown): string | undefined {
  if (typeof apiVersion !== 'string' || apiVersion === '') return undefined;
  const slash = apiVersion.indexOf('/');
  return slash === -1 ? '' : apiVersion.slice(0, slash);
}
