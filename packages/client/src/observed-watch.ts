import type { KubeConfig, Watch } from '@kubernetes/client-node';
import { AbortableWatch } from './abortable-watch.js';
import type { WatchedObjects } from './malformed-watch.js';

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
 * requests when `signal` aborts, or at a line that is not a watch event of `watched`
 * (AbortableWatch).
 */
export class ObservedWatch extends AbortableWatch {
  readonly #observer: WatchObserver;

  constructor(
    kubeConfig: KubeConfig,
    observer: WatchObserver,
    signal: AbortSignal,
    watched?: WatchedObjects,
  ) {
    super(kubeConfig, signal, watched);
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
    return super.watch(
      path,
      { ...queryParams, allowWatchBookmarks: true },
      (phase, object, watchObject) => {
        this.#observer.onActivity();
        if (phase === 'ERROR' && object?.code === 410) this.#observer.onGone();
        else if (phase === 'ADDED' || phase === 'MODIFIED' || phase === 'DELETED') this.#observer.onEvent();
        callback(phase, object, watchObject);
      },
      (error) => {
        if (error && (error.statusCode === 410 || error.code === 410)) this.#observer.onGone();
        done(error);
      },
    );
  }
}
