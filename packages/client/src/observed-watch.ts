import type { KubeConfig, Watch } from '@kubernetes/client-node';
import { AbortableWatch } from './abortable-watch.js';

/** What an informer learns from its watch connections. */
export interface WatchObserver {
  /** Anything arrived: an event, a bookmark, an error event. */
  readonly onActivity: () => void;
  /** An ADDED, MODIFIED or DELETED event arrived. */
  readonly onEvent: () => void;
  /** The server answered 410 Gone (in the stream or as the response status). */
  readonly onGone: () => void;
  /** A watch request is about to be sent (ListWatch has applied its list, if it made one). */
  readonly onWatchStarted: () => void;
  /** False once the informer has moved on to another ListWatch: then nothing connects. */
  readonly isCurrent: () => boolean;
}

/**
 * client-node's Watch as ListWatch uses it, plus what ListWatch does not do: it asks for
 * bookmarks (so a quiet watch still shows it is alive and its resourceVersion stays
 * fresh), tells the informer about activity, 410s and new connections, and ends its
 * requests when `signal` aborts (AbortableWatch).
 */
export class ObservedWatch extends AbortableWatch {
  readonly #observer: WatchObserver;

  constructor(kubeConfig: KubeConfig, observer: WatchObserver, signal: AbortSignal) {
    super(kubeConfig, signal);
    this.#observer = observer;
  }

  override async watch(
    path: string,
    queryParams: Record<string, string | number | boolean | undefined>,
    callback: Parameters<Watch['watch']>[2],
    done: Parameters<Watch['watch']>[3],
  ): Promise<AbortController> {
    // A ListWatch that was replaced while it was listing would otherwise go on to watch.
    if (!this.#observer.isCurrent()) return new AbortController();
    this.#observer.onWatchStarted();
    // A stream line that is not a watch event (a proxy's or an old server's plain answer,
    // `{"kind":"List",…}`) would reach ListWatch as an event without an object, which it
    // reads `.metadata` of in an async handler: an unhandled rejection that ends the process.
    // Such a stream is ended instead, as a failed watch: ListWatch relists and watches again.
    let malformed: string | undefined;
    let request: AbortController | undefined;
    request = await super.watch(
      path,
      { ...queryParams, allowWatchBookmarks: true },
      (phase, object, watchObject) => {
        if (malformed !== undefined) return;
        this.#observer.onActivity();
        malformed = malformedEvent(phase, object);
        if (malformed !== undefined) {
          request?.abort();
          return;
        }
        if (phase === 'ERROR' && object?.code === 410) this.#observer.onGone();
        else if (phase === 'ADDED' || phase === 'MODIFIED' || phase === 'DELETED') this.#observer.onEvent();
        callback(phase, object, watchObject);
      },
      (error) => {
        if (malformed !== undefined) return done(new MalformedWatchError(path, malformed));
        if (error && (error.statusCode === 410 || error.code === 410)) this.#observer.onGone();
        done(error);
      },
    );
    if (malformed !== undefined) request.abort();
    return request;
  }
}

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
