import { formatJsonPath } from '@capi-kit/core/objects';
import * as E from 'fp-ts/lib/Either.js';
import { type ConversionError, erroneousObject } from './errors.js';

/**
 * What an object too deep to convert gets instead of an exception. The conversion's walks
 * (copy, diff, the checks) recurse, and an object can nest deeper than the stack allows:
 * the API server stores JSON up to 10,000 levels deep, and a free-form field
 * (`spec.topology.variables[].value`, a providerSpec) may hold any of it. Counting every
 * object's depth first would cost each conversion a whole walk more; catching the
 * overflow costs nothing until it happens, and then the object is measured without
 * recursion to say where it nests.
 */

/** V8's "Maximum call stack size exceeded". */
export function isStackOverflow(error: unknown): boolean {
  return error instanceof RangeError && /call stack/i.test(error.message);
}

/** Segments of the deepest path shown in the error (the rest is elided). */
const SHOWN_SEGMENTS = 8;

/** How deep `value` nests, and the path to its deepest value; no recursion. */
export function deepestPath(value: unknown): { depth: number; path: (string | number)[] } {
  // Each node keeps its parent's index and its own key, so the path is rebuilt only once.
  const nodes: { value: unknown; depth: number; parent: number; key: string | number }[] = [
    { value, depth: 0, parent: -1, key: '' },
  ];
  let deepest = 0;
  for (let i = 0; i < nodes.length; i++) {
    const { value: v, depth } = nodes[i]!;
    if (depth > nodes[deepest]!.depth) deepest = i;
    if (v === null || typeof v !== 'object') continue;
    if (Array.isArray(v)) {
      for (let k = 0; k < v.length; k++) nodes.push({ value: v[k], depth: depth + 1, parent: i, key: k });
    } else {
      for (const k of Object.keys(v)) {
        nodes.push({ value: (v as Record<string, unknown>)[k], depth: depth + 1, parent: i, key: k });
      }
    }
  }
  const path: (string | number)[] = [];
  for (let i = deepest; nodes[i]!.parent !== -1; i = nodes[i]!.parent) path.push(nodes[i]!.key);
  return { depth: nodes[deepest]!.depth, path: path.reverse() };
}

/** The error for `value` when a conversion of it overflowed the stack. */
export function tooDeepError(value: unknown): ConversionError {
  const { depth, path } = deepestPath(value);
  const shown = formatJsonPath(path.slice(0, SHOWN_SEGMENTS));
  return {
    code: 'too-deep',
    ...erroneousObject(value),
    ...(shown === '' ? {} : { path: path.length > SHOWN_SEGMENTS ? `${shown}…` : shown }),
    message: `nests ${depth} levels deep, too deep to convert`,
  };
}

/**
 * For an entry point's `catch`: a stack overflow while converting `value` becomes
 * `tooDeepError(value)`; anything else is a defect, and is thrown on.
 */
export function tooDeepOrRethrow(value: unknown, error: unknown): E.Either<ConversionError, never> {
  if (!isStackOverflow(error)) throw error;
  return E.left(tooDeepError(value));
}
