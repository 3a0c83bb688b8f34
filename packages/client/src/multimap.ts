/** Adds `item` to the set filed under `key`. */
export function fileUnder<K, T>(map: Map<K, Set<T>>, key: K, item: T): void {
  let set = map.get(key);
  if (set === undefined) {
    set = new Set();
    map.set(key, set);
  }
  set.add(item);
}

/** Removes `item` from the set filed under `key`, and the set once empty. */
export function unfileFrom<K, T>(map: Map<K, Set<T>>, key: K, item: T): void {
  const set = map.get(key);
  if (set === undefined) return;
  set.delete(item);
  if (set.size === 0) map.delete(key);
}
