import { type KubeConfig, type V1Lease, Watch } from '@kubernetes/client-node';
import { pause } from './abortable-sleep.js';
import type { LeaseInspection } from './inspection.js';
import { leaseWatchEventProblem } from './lease-answer.js';
import { isTransientFailure, type LeaseApi, toWatchRequestError, unreadableAnswer } from './lease-api.js';

/** One change to a lease in the watched namespace. */
export interface LeaseChange {
  readonly type: 'added' | 'modified' | 'deleted';
  /** The node the lease belongs to, or undefined when its name is not a node lease in this layout. */
  readonly node: string | undefined;
  readonly leaseName: string;
  /** The lease as judged right after this change (state `absent` after a deletion). */
  readonly inspection: LeaseInspection;
}

export interface WatchLeasesParams {
  readonly kubeConfig: KubeConfig;
  readonly api: LeaseApi;
  readonly namespace: string;
  readonly retryPeriodMs: number;
  /** How long the server keeps each watch request open (1 to maxWatchTimeoutSeconds). */
  readonly timeoutSeconds: number;
  readonly signal: AbortSignal | undefined;
  readonly describe: (
    leaseName: string,
    lease: V1Lease | undefined,
  ) => { node: string | undefined; inspection: LeaseInspection };
}

/**
 * The server closes a watch after `timeoutSeconds`; keeping it under client-node's 30 s
 * inactivity timeout means a quiet namespace ends its watch cleanly and resumes from the
 * last resourceVersion instead of being aborted as an error.
 */
export const maxWatchTimeoutSeconds = 25;

/**
 * List, then watch from the list's resourceVersion; resume from the last seen version
 * when a watch ends; list again after an ERROR event (410 Gone) or when a watch request
 * failed, reporting only the differences. What ends the iterator, thrown from it after the
 * changes reported before it: an event that is not one about a lease in the namespace
 * (lease-answer.ts, `unreadable-lease`: nothing is reported on it), and any failure of a list
 * or watch request that asking again would not mend (isTransientFailure): a list answer that
 * is not a LeaseList of leases in the namespace (`unreadable-lease`), a 401, 403, 404 or
 * other 4xx refusal, the first list's as every later one's. What is retried after
 * `retryPeriodMs`, by listing again: a server that cannot be reached or does not answer in
 * time, a 5xx, 429, 408 or 410, a broken stream. (client-go's reflector reports each such
 * failure to an error handler and retries; this iterator has no handler to report to, so it
 * never goes quietly on past an answer it cannot use.)
 */
export function watchLeases(params: WatchLeasesParams): AsyncIterableIterator<LeaseChange> {
  const { api, namespace, describe } = params;
  const operation = `watch leases in ${namespace}`;
  const stop = new AbortController();
  const onOuterAbort = () => stop.abort();
  params.signal?.addEventListener('abort', onOuterAbort, { once: true });
  if (params.signal?.aborted) stop.abort();

  const queue: LeaseChange[] = [];
  let failure: unknown;
  let finished = false;
  let wake: (() => void) | undefined;
  const notify = () => {
    const resolve = wake;
    wake = undefined;
    resolve?.();
  };
  /** Lease name → resourceVersion of what has been reported. */
  const known = new Map<string, string>();

  const emit = (type: LeaseChange['type'], leaseName: string, lease: V1Lease | undefined) => {
    if (lease === undefined) known.delete(leaseName);
    else known.set(leaseName, lease.metadata?.resourceVersion ?? '');
    queue.push({ type, leaseName, ...describe(leaseName, lease) });
    notify();
  };

  const relist = async (): Promise<string | undefined> => {
    const list = await api.list(namespace, stop.signal);
    const present = new Set<string>();
    for (const lease of list.items) {
      const name = lease.metadata?.name ?? '';
      present.add(name);
      const previous = known.get(name);
      if (previous === undefined) emit('added', name, lease);
      else if (previous !== lease.metadata?.resourceVersion) emit('modified', name, lease);
    }
    for (const name of [...known.keys()]) if (!present.has(name)) emit('deleted', name, undefined);
    return list.metadata?.resourceVersion;
  };

  /** One watch stream; resolves to the version to resume from, or undefined to re-list. */
  const watchOnce = (resourceVersion: string) =>
    new Promise<string | undefined>((resolve, reject) => {
      let last: string | undefined = resourceVersion;
      new Watch(params.kubeConfig)
        .watch(
          `/apis/coordination.k8s.io/v1/namespaces/${encodeURIComponent(namespace)}/leases`,
          { resourceVersion, allowWatchBookmarks: true, timeoutSeconds: params.timeoutSeconds },
          (phase: string, object: V1Lease, event: unknown) => {
            // (client-node swallows what its callback throws, and hands on the lines of the
            // stream read after a stop)
            if (stop.signal.aborted) return;
            const problem = leaseWatchEventProblem(event, namespace);
            if (problem !== undefined) {
              // Like a failed first list: thrown from the iterator once the changes before it
              // are out; the stream and the loop stop.
              failure = unreadableAnswer(
                operation,
                'a watch event on a Lease in the namespace',
                problem,
                200,
              );
              stop.abort();
              notify();
              return;
            }
            if (phase === 'BOOKMARK') {
              last = object.metadata?.resourceVersion ?? last;
            } else if (phase === 'ERROR') {
              last = undefined; // 410 Gone or another error: start over with a list
            } else {
              const name = object.metadata?.name ?? '';
              last = object.metadata?.resourceVersion ?? last;
              if (phase === 'DELETED') emit('deleted', name, undefined);
              else emit(known.has(name) ? 'modified' : 'added', name, object);
            }
          },
          (error: unknown) =>
            error && !stop.signal.aborted ? reject(toWatchRequestError(error, operation)) : resolve(last),
        )
        .then(
          (controller) => {
            if (stop.signal.aborted) controller.abort();
            else stop.signal.addEventListener('abort', () => controller.abort(), { once: true });
          },
          (error: unknown) => reject(toWatchRequestError(error, operation)),
        );
    });

  const run = async () => {
    let resourceVersion: string | undefined;
    let listedOnce = false;
    while (!stop.signal.aborted) {
      try {
        if (resourceVersion === undefined) {
          resourceVersion = await relist();
          listedOnce = true;
        }
        if (resourceVersion !== undefined) {
          const startedMs = performance.now();
          resourceVersion = await watchOnce(resourceVersion);
          // A stream the server ends at once (an error event, a proxy closing it) must not
          // turn into a tight list/watch loop.
          if (performance.now() - startedMs < 1000) {
            await pause(params.retryPeriodMs, stop.signal);
          }
        }
      } catch (error) {
        if (stop.signal.aborted) break;
        // The first list's failure, whatever it is, and a later list's or watch's that asking
        // again would not mend (a malformed LeaseList, a 403 after an RBAC change): retrying
        // it would watch nothing for ever while the caller believes it is watching.
        if (!listedOnce || !isTransientFailure(error)) {
          failure = error;
          break;
        }
        // Connection refused while the API server restarts, a broken stream, a 5xx: retry
        // later and re-list, so that nothing missed in between goes unreported.
        resourceVersion = undefined;
        await pause(params.retryPeriodMs, stop.signal);
      }
    }
    finished = true;
    params.signal?.removeEventListener('abort', onOuterAbort);
    notify();
  };
  void run();

  const iterator: AsyncIterableIterator<LeaseChange> = {
    async next(): Promise<IteratorResult<LeaseChange>> {
      for (;;) {
        const change = queue.shift();
        if (change !== undefined) return { value: change, done: false };
        if (failure !== undefined) {
          const error = failure;
          failure = undefined;
          finished = true;
          throw error;
        }
        if (finished || stop.signal.aborted) return { value: undefined, done: true };
        await new Promise<void>((resolve) => {
          wake = resolve;
        });
      }
    },
    async return(): Promise<IteratorResult<LeaseChange>> {
      stop.abort();
      queue.length = 0;
      return { value: undefined, done: true };
    },
    [Symbol.asyncIterator]() {
      return iterator;
    },
  };
  return iterator;
}
