// For properties that a conversion never writes its input and shares nothing with it.

/** Freezes `value` and everything in it: a write to it then throws (modules are strict). */
export function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object') {
    for (const child of Object.values(value)) deepFreeze(child);
    Object.freeze(value);
  }
  return value;
}

/** Every object and array in `value` (itself included), by identity. */
export function containers(value: unknown, into: Set<object> = new Set()): Set<object> {
  if (value !== null && typeof value === 'object') {
    into.add(value);
    for (const child of Object.values(value)) containers(child, into);
  }
  return into;
}
