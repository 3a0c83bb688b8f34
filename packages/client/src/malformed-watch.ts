import { shownValue } from './names.js';

/**
 * What client-node's `ListWatch` cannot take from a watch stream. A line that is not a watch
 * event (a proxy's or an old server's plain answer, `{"kind":"List",…}`) reaches it as an
 * event without an object, whose `.metadata` it reads in an async handler: an unhandled
 * rejection that ends the process. An event about an object the watch is not of (another
 * namespace's, another kind's, one without a name) it puts into its cache, and it watches on
 * from whatever `metadata.resourceVersion` an event carries. `AbortableWatch` ends such a
 * stream instead, as a failed watch, so the informer reports it and relists.
 *
 * (client-go's reflector checks each event's object against the type and GVK it expects too;
 * it reports a mismatch with HandleError and skips the event. Here the stream is ended: a
 * server or proxy that sends one wrong event is not trusted with the next.)
 */

/** A watch stream that sent something other than a watch event; the watch was ended. */
export class MalformedWatchError extends Error {
  override readonly name = 'MalformedWatchError';
  readonly code = 'malformed-watch-event';
  constructor(
    readonly path: string,
    readonly why: string,
  ) {
    super(`the watch of ${path} sent ${why}; it was ended, to list again`);
  }
}

/**
 * What a watch is of, so that each event's object can be checked to be one of them: its
 * `apiVersion` and `kind` (when the object says them) and where its objects are: one
 * namespace, every namespace (of a namespaced kind), or none (a cluster-scoped kind).
 */
export interface WatchedObjects {
  readonly apiVersion: string;
  readonly kind: string;
  readonly scope: { readonly namespace: string } | 'all-namespaces' | 'cluster-scoped';
}

const OBJECT_EVENTS = new Set(['ADDED', 'MODIFIED', 'DELETED', 'BOOKMARK']);

const isObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/**
 * Why `(phase, object)` is not a watch event ListWatch can take, if it is not: a line without
 * a type or an object, an event of a type a server does not send, or (ADDED, MODIFIED,
 * DELETED, BOOKMARK) an object without metadata or a non-empty string `metadata.resourceVersion`
 * (ListWatch watches on from it). An ADDED, MODIFIED or DELETED object also needs a non-empty
 * string `metadata.name` and a string `metadata.namespace` if any. Given `watched`, an object
 * (a bookmark's too) must be of its apiVersion and kind when it says one, and an ADDED,
 * MODIFIED or DELETED one in its namespace (in some namespace, in none).
 */
export function malformedEvent(
  phase: unknown,
  object: unknown,
  watched?: WatchedObjects,
): string | undefined {
  if (typeof phase !== 'string') return 'a line that is not a watch event (no "type")';
  if (phase !== 'ERROR' && !OBJECT_EVENTS.has(phase)) return `an event of unknown type ${shownValue(phase)}`;
  if (!isObject(object)) return `an event of type ${phase} without an object`;
  if (phase === 'ERROR') return undefined;
  const metadata = object.metadata;
  if (!isObject(metadata)) return `an event of type ${phase} whose object has no metadata`;
  const wrong = (field: string, found: unknown, wanted: string) =>
    `an event of type ${phase} whose object's ${field} is ${shownValue(found)}, not ${wanted}`;
  if (watched !== undefined) {
    if (object.apiVersion !== undefined && object.apiVersion !== watched.apiVersion)
      return wrong('apiVersion', object.apiVersion, JSON.stringify(watched.apiVersion));
    if (object.kind !== undefined && object.kind !== watched.kind)
      return wrong('kind', object.kind, JSON.stringify(watched.kind));
  }
  if (typeof metadata.resourceVersion !== 'string' || metadata.resourceVersion === '')
    return wrong('metadata.resourceVersion', metadata.resourceVersion, 'a non-empty string');
  // (a bookmark carries only a resourceVersion: no name, no namespace)
  if (phase === 'BOOKMARK') return undefined;
  if (typeof metadata.name !== 'string' || metadata.name === '')
    return wrong('metadata.name', metadata.name, 'a non-empty string');
  const namespace = metadata.namespace;
  const scope = watched?.scope;
  if (scope === undefined) {
    if (namespace !== undefined && typeof namespace !== 'string')
      return wrong('metadata.namespace', namespace, 'a string');
  } else if (scope === 'all-namespaces') {
    if (typeof namespace !== 'string' || namespace === '')
      return wrong('metadata.namespace', namespace, `a non-empty string (${watched?.kind} is namespaced)`);
  } else if (scope === 'cluster-scoped') {
    if (namespace !== undefined && namespace !== '')
      return wrong('metadata.namespace', namespace, `absent (${watched?.kind} is cluster-scoped)`);
  } else if (namespace !== scope.namespace) {
    return wrong(
      'metadata.namespace',
      namespace,
      `${JSON.stringify(scope.namespace)}, the namespace watched`,
    );
  }
  return undefined;
}
