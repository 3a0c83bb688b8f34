import { type KubeConfig, Watch } from '@kubernetes/client-node';
import { MalformedWatchError, malformedEvent, type WatchedObjects } from './malformed-watch.js';

type WatchCallback = Parameters<Watch['watch']>[2];
type WatchDone = Parameters<Watch['watch']>[3];

/**
 * client-node's `Watch`, with one signal that ends every watch request it starts, whenever
 * the signal aborts: before the request (none is sent), while it waits for the response
 * (aborted as soon as it has one) or while it streams. A stream that sends something other
 * than watch events, or (given `watched`) an event about an object the watch is not of (another
 * namespace's, another kind's), is ended with a `MalformedWatchError` (see malformed-watch.ts).
 *
 * client-node's `ListWatch.stop()` aborts only the request it already holds. It holds one
 * from when the server has answered the watch until the stream ends, so a stop() that comes
 * between its list and that answer, or during its reconnect delay, leaves a watch open that
 * nothing will close but the server or client-node's 30 s inactivity timeout; that connection
 * keeps the process alive. Aborting the signal ends it instead.
 */
export class AbortableWatch extends Watch {
  readonly #signal: AbortSignal;
  readonly #watched: WatchedObjects | undefined;

  /** `watched`: what every watch started here is of (without it, events of any kind and namespace pass). */
  constructor(kubeConfig: KubeConfig, signal: AbortSignal, watched?: WatchedObjects) {
    super(kubeConfig);
    this.#signal = signal;
    this.#watched = watched;
  }

  override async watch(
    path: string,
    queryParams: Record<string, string | number | boolean | undefined>,
    callback: WatchCallback,
    done: WatchDone,
  ): Promise<AbortController> {
    const signal = this.#signal;
    const watched = this.#watched;
    if (signal.aborted) {
      const none = new AbortController();
      none.abort();
      return none;
    }
    let ended = false;
    let abort: (() => void) | undefined;
    // The first line that is not a watch event of what is watched ends the stream (see malformed-watch.ts).
    let malformed: string | undefined;
    let request: AbortController | undefined;
    request = await super.watch(
      path,
      queryParams,
      (phase, object, watchObject) => {
        if (malformed !== undefined) return;
        malformed = malformedEvent(phase, object, watched);
        if (malformed === undefined) callback(phase, object, watchObject);
        else request?.abort();
      },
      (error) => {
        ended = true;
        if (abort !== undefined) signal.removeEventListener('abort', abort);
        done(malformed === undefined ? error : new MalformedWatchError(path, malformed));
      },
    );
    if (signal.aborted || malformed !== undefined) request.abort();
    else if (!ended) {
      abort = () => request.abort();
      signal.addEventListener('abort', abort, { once: true });
    }
    return request;
  }
}

/**
 * A reconnect delay for client-node's `ListWatch` (its `delayFn` option) that ends early, and
 * quietly, when `signal` aborts: the delay's timer would otherwise keep a stopped process
 * alive for up to 30 s. (It resolves rather than rejects: ListWatch does not catch there.
 * What follows the delay is a watch, which an `AbortableWatch` on the same signal skips.)
 */
export function abortableDelay(signal: AbortSignal): (ms: number) => Promise<void> {
  return (ms) =>
    new Promise((resolve) => {
      if (signal.aborted) return resolve();
      const finish = () => {
        clearTimeout(timer);
        signal.removeEventListener('abort', finish);
        resolve();
      };
      const timer = setTimeout(finish, ms);
      signal.addEventListener('abort', finish, { once: true });
    });
}
