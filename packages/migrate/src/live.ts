import type { JsonObject } from '@capi-kit/conversion';
import type { ClusterApi } from './cluster-api.js';
import { CONCURRENCY, forEachConcurrently } from './concurrency.js';
import { identity, keyOf, type ObjectKey } from './object.js';

/** What one list request reads: a kind, in one namespace or (undefined) in every namespace. */
export type ListRequest = Pick<ObjectKey, 'apiVersion' | 'kind' | 'namespace'>;

/** Every object the requests list, one list per distinct kind and namespace, several at once. */
export async function listKinds(api: ClusterApi, requests: readonly ListRequest[]): Promise<JsonObject[]> {
  const lists = new Map<string, ListRequest>();
  for (const request of requests)
    lists.set(`${request.apiVersion}|${request.kind}|${request.namespace ?? ''}`, request);
  const out: JsonObject[] = [];
  await forEachConcurrently([...lists.values()], CONCURRENCY, async ({ apiVersion, kind, namespace }) => {
    // (not `push(...items)`: spreading 100,000s of arguments overflows the stack)
    for (const object of await api.list(apiVersion, kind, namespace)) out.push(object);
  });
  return out;
}

/**
 * The live objects among `keys`, by identity, read with one list per kind and namespace
 * instead of one get per object: a 500-Machine migration reads its ~1,500 objects with
 * a handful of requests.
 */
export async function readLive(
  api: ClusterApi,
  keys: readonly ObjectKey[],
): Promise<Map<string, JsonObject>> {
  const wanted = new Set(keys.map(identity));
  const live = new Map<string, JsonObject>();
  for (const object of await listKinds(api, keys)) {
    const id = identity(keyOf(object));
    if (wanted.has(id)) live.set(id, object);
  }
  return live;
}
