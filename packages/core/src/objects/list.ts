import { isPlainObject } from './plain-object.js';

/**
 * A `v1 List`: what `kubectl get -o json` prints for several objects, and what JSON output
 * writes for several documents. It is a container, not an object of its own.
 */
export interface V1List<T = unknown> {
  readonly apiVersion: 'v1';
  readonly kind: 'List';
  readonly items: T;
}

export function isV1List(value: unknown): value is V1List {
  return isPlainObject(value) && value.apiVersion === 'v1' && value.kind === 'List';
}

/** Wraps values in a `v1 List`. */
export function v1List<T>(items: readonly T[]): V1List<readonly T[]> {
  return { apiVersion: 'v1', kind: 'List', items };
}

/**
 * The values a document stands for: a `v1 List`'s items, or the document itself. A List
 * whose `items` is not an array stands for itself, so that the caller reports it.
 */
export function expandV1List(value: unknown): readonly unknown[] {
  return isV1List(value) && Array.isArray(value.items) ? value.items : [value];
}
