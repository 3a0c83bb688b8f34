// Index buckets: most keys of a providerID index hold one item, so a bucket is the item
// itself until a second arrives, and a Set from then on (a Set keeps removal O(1) for keys
// with thousands of items, such as a cluster name). Items must not themselves be Sets.

/** One key's items: the only item, or a Set of them. */
export type Bucket<T> = T | Set<T>;

/** Adds `item` to the bucket filed under `key`. */
export function fileUnder<K, T>(map: Map<K, Bucket<T>>, key: K, item: T): void {
  const bucket = map.get(key);
  if (bucket === undefined) map.set(key, item);
  else if (bucket instanceof Set) bucket.add(item);
  else if (bucket !== item) map.set(key, new Set([bucket, item]));
}

/** Removes `item` from the bucket filed under `key`, and the bucket once empty. */
export function unfileFrom<K, T>(map: Map<K, Bucket<T>>, key: K, item: T): void {
  const bucket = map.get(key);
  if (bucket === undefined) return;
  if (!(bucket instanceof Set)) {
    if (bucket === item) map.delete(key);
    return;
  }
  bucket.delete(item);
  if (bucket.size === 1) map.set(key, bucket.values().next().value as T);
  else if (bucket.size === 0) map.delete(key);
}

/** The items filed under `key`. */
export function itemsUnder<K, T>(map: Map<K, Bucket<T>>, key: K): T[] {
  const bucket = map.get(key);
  return bucket === undefined ? [] : bucket instanceof Set ? [...bucket] : [bucket];
}
