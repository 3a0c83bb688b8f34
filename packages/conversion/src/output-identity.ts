import { formatObjectName, objectName } from '@capi-kit/core/objects';
import { deepEqual, isObject, type JsonObject } from './path.js';
import { apiGroup } from './versions.js';

/**
 * Which object a converted output is on the API server: group, kind, namespace and name.
 * Two outputs with one identity are one object written twice, and whichever comes later
 * wins on apply, so a converter must write identical ones once and refuse different ones
 * (a Secret made for each of two same-named Clusters would hand one the other's password).
 * `undefined` for what has no such identity: no name, no apiVersion, or a List.
 */
function outputIdentity(value: unknown): string | undefined {
  if (!isObject(value)) return undefined;
  const { kind, name, namespace } = objectName(value);
  const apiVersion = value.apiVersion;
  if (
    kind === undefined ||
    name === undefined ||
    typeof apiVersion !== 'string' ||
    apiVersion === '' ||
    kind.endsWith('List')
  )
    return undefined;
  return `${apiGroup(apiVersion)}|${kind}|${namespace ?? ''}|${name}`;
}

/** `Secret ns/name would be written twice, with different content (also by <first>)`. */
export function writtenTwiceMessage(value: unknown, first: string): string {
  return `${formatObjectName(objectName(value))} would be written twice, with different content (also by ${first})`;
}

/**
 * The outputs written so far, by identity, so that each object is written once. `add` says
 * whether to write `value` (`'new'`), skip it as the same object again (`'again'`: a manifest
 * that already holds what a plug-in makes, a List holding one item twice), or refuse it as a
 * different object of an identity already written, and by whom (`origin`).
 */
export class WrittenOutputs<O> {
  readonly #seen = new Map<string, { readonly value: JsonObject; readonly origin: O }>();

  add(value: JsonObject, origin: O): 'new' | 'again' | { readonly conflict: O } {
    const key = outputIdentity(value);
    if (key === undefined) return 'new';
    const first = this.#seen.get(key);
    if (first === undefined) {
      this.#seen.set(key, { value, origin });
      return 'new';
    }
    return deepEqual(first.value, value) ? 'again' : { conflict: first.origin };
  }
}
