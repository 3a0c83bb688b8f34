import { isObject, type JsonObject } from '@capi-kit/conversion';
import { firstDifference } from './object.js';

/** Top-level fields that are not the object's content: identity, server metadata, status. */
const NOT_CONTENT = new Set(['apiVersion', 'kind', 'metadata', 'status']);

/**
 * Fields of a planned object that must be the same live: what the migration wrote. That is
 * the labels and every top-level field of the create request: `spec` of the Cluster API and
 * provider objects, `type` and `data` of a key-pair Secret (a key rotated in v1alpha1 after
 * `apply` must stop `prune`, which would delete its only copy).
 */
function comparedPaths(planned: JsonObject): string[] {
  return ['metadata.labels', ...Object.keys(planned).filter((key) => !NOT_CONTENT.has(key))];
}

function at(object: JsonObject, path: string): unknown {
  let value: unknown = object;
  for (const part of path.split('.'))
    value = isObject(value as JsonObject) ? (value as JsonObject)[part] : undefined;
  return value;
}

/**
 * Where a live object differs from what the migration writes for it (`metadata.labels.x`,
 * `spec.replicas`, `data`): the first differing path under each compared field. Fields the
 * server or a controller added are not differences. Empty when the live object holds
 * everything the migration wrote.
 */
export function contentDifferences(planned: JsonObject, live: JsonObject): string[] {
  const out: string[] = [];
  for (const path of comparedPaths(planned)) {
    const expected = at(planned, path);
    if (expected === undefined) continue;
    const difference = firstDifference(expected as JsonObject, at(live, path) as JsonObject | undefined);
    if (difference !== undefined) out.push(`${path}${difference === '.' ? '' : `.${difference}`}`);
  }
  return out;
}

/**
 * A Machine's live `status.nodeRef` when it names another Node than the one its v1alpha1
 * source names (`Node "name" (uid "uid")`, the live one first), or undefined. v0.2 never
 * replaces a nodeRef once set (it re-derives one only when empty), and deleting a Machine
 * deletes the Node it names: a nodeRef to another Node is never the migration's.
 */
export function nodeRefDifference(
  plannedStatus: JsonObject | undefined,
  live: JsonObject,
): { readonly live: string; readonly source: string } | undefined {
  const want = isObject(plannedStatus?.nodeRef) ? plannedStatus.nodeRef : undefined;
  const have = isObject(live.status) && isObject(live.status.nodeRef) ? live.status.nodeRef : undefined;
  if (want === undefined || have === undefined) return undefined;
  if (have.name === want.name && (have.uid === undefined || want.uid === undefined || have.uid === want.uid))
    return undefined;
  const text = (ref: JsonObject) => `${JSON.stringify(ref.name)} (uid ${JSON.stringify(ref.uid)})`;
  return { live: text(have), source: text(want) };
}
