/**
 * What client-node's `ListWatch` cannot take from a watch stream. A line that is not a watch
 * event (a proxy's or an old server's plain answer, `{"kind":"List",…}`) reaches it as an
 * event without an object, whose `.metadata` it reads in an async handler: an unhandled
 * rejection that ends the process. `AbortableWatch` ends such a stream instead, as a failed
 * watch, so the informer relists and watches again.
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

const OBJECT_EVENTS = new Set(['ADDED', 'MODIFIED', 'DELETED', 'BOOKMARK']);

/** Why `(phase, object)` is not a watch event ListWatch can take, if it is not. */
export function malformedEvent(phase: unknown, object: unknown): string | undefined {
  if (typeof phase !== 'string') return 'a line that is not a watch event (no "type")';
  if (object === null || typeof object !== 'object' || Array.isArray(object))
    return `an event of type ${phase} without an object`;
  if (!OBJECT_EVENTS.has(phase)) return undefined;
  const metadata = (object as { metadata?: unknown }).metadata;
  if (metadata === null || typeof metadata !== 'object' || Array.isArray(metadata))
    return `an event of type ${phase} whose object has no metadata`;
  return undefined;
}
