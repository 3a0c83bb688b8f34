/**
 * The caches node groups read from. Cluster API kinds come from `@capi-kit/client`'s
 * informers (typed, indexed, relist on 410, restart after errors and silent watches).
 * Nodes, which that client does not cover, come from client-node's informer, restarted
 * here with back-off when its watch or list fails (client-node stops on any error but 410).
 */
import {
  AbortableWatch,
  abortableDelay,
  type CapiClient,
  type KnownApiVersion,
  type WatchedObjects,
} from '@capi-kit/client';
import { type KubeConfig, ListWatch } from '@kubernetes/client-node';
import { NodeGroupError } from './errors.js';
import { fromClientError } from './management-api.js';
import { type KubeObject, keyOf } from './objects.js';
import { signatureOf } from './signatures.js';

export interface ResourceCache<T extends KubeObject> {
  /** Every object in the cache. */
  list(): T[];
  /** One object by namespace and name (namespace `''` for cluster-scoped objects). */
  get(namespace: string, name: string): T | undefined;
  /** The last list or watch failure since the cache last synced, if any. */
  readonly lastError: unknown;
  /** Objects the cache holds apart because they do not decode (Cluster API kinds only). */
  invalid(): { readonly object: string; readonly message: string }[];
  stop(): Promise<void>;
}

/**
 * A cache of one Cluster API kind at one version from `@capi-kit/client`; resolves once
 * synced, rejects with an `api-error` when the first list is refused.
 */
export async function startCapiCache(
  client: CapiClient,
  apiVersion: string,
  kind: 'Machine' | 'MachineSet' | 'MachineDeployment',
  onChange: () => void,
): Promise<ResourceCache<KubeObject>> {
  const made = client.informer(apiVersion as KnownApiVersion, kind as never);
  if (made._tag === 'Left') throw fromClientError(made.left);
  const informer = made.right;
  let lastError: unknown;
  const changed = () => {
    lastError = undefined;
    onChange();
  };
  for (const event of ['add', 'delete', 'invalid'] as const) informer.on(event, changed);
  informer.on('update', (object, old) => {
    if (signatureOf(kind, object as KubeObject) !== signatureOf(kind, old as KubeObject)) changed();
  });
  informer.on('error', (error) => {
    lastError = fromClientError(error);
  });
  try {
    await informer.start();
  } catch (error) {
    informer.stop();
    throw error instanceof NodeGroupError ? error : fromClientError(error as never);
  }
  onChange();
  return {
    list: () => informer.list() as KubeObject[],
    get: (namespace, name) => informer.get(namespace, name) as KubeObject | undefined,
    get lastError() {
      return lastError;
    },
    invalid: () =>
      informer.invalid().map((u) => ({
        object: u.code === 'invalid-object' ? `${kind} ${u.namespace ?? ''}/${u.name ?? ''}` : kind,
        message: u.message,
      })),
    async stop() {
      informer.stop();
    },
  };
}

export interface CacheOptions {
  readonly kubeConfig: KubeConfig;
  /** The watch path, e.g. `/apis/cluster.x-k8s.io/v1alpha2/machines`. */
  readonly path: string;
  /** One full list; its items must be the cached kind (checked by the caller's typing only). */
  readonly list: () => Promise<{ readonly items: readonly unknown[]; readonly metadata?: unknown }>;
  /** Called after every add, update or delete, and after a relist. */
  readonly onChange: () => void;
}

/** What the Node cache watches: Nodes, which are cluster-scoped. */
const NODES: WatchedObjects = { apiVersion: 'v1', kind: 'Node', scope: 'cluster-scoped' };

const firstRetryMs = 500;
const maxRetryMs = 30_000;

/**
 * Starts the Node cache of one workload cluster and resolves once its first list has been
 * read; rejects when that first list fails (wrong credentials, unreachable), so a caller
 * never runs on an empty cache it believes synced.
 */
export async function startNodeCache<T extends KubeObject>(options: CacheOptions): Promise<ResourceCache<T>> {
  // Ends every watch request and reconnect delay of this cache when it stops: client-node's
  // stop() alone misses a watch still waiting for its response (see AbortableWatch).
  const abort = new AbortController();
  // biome-ignore lint/suspicious/noExplicitAny: client-node's informer wants its own object type
  const informer = new ListWatch<any>(
    options.path,
    // (an event about a namespaced object or another kind's ends the watch: MalformedWatchError)
    new AbortableWatch(options.kubeConfig, abort.signal, NODES),
    // biome-ignore lint/suspicious/noExplicitAny: as above
    options.list as any,
    false,
    undefined,
    undefined,
    { delayFn: abortableDelay(abort.signal) },
  );
  let stopped = false;
  let lastError: unknown;
  let retryMs = firstRetryMs;
  let timer: NodeJS.Timeout | undefined;
  const changed = () => {
    lastError = undefined;
    retryMs = firstRetryMs;
    options.onChange();
  };
  // client-node hands an update only the new object: remember each one's signature.
  const signatures = new Map<string, string>();
  const remember = (o: KubeObject) => {
    const key = keyOf(o);
    const signature = signatureOf('Node', o);
    const old = signatures.get(key);
    signatures.set(key, signature);
    return old !== signature;
  };
  informer.on('add', (o: KubeObject) => {
    remember(o);
    changed();
  });
  informer.on('update', (o: KubeObject) => {
    if (remember(o)) changed();
  });
  informer.on('delete', (o: KubeObject) => {
    signatures.delete(keyOf(o));
    changed();
  });
  let started = false;
  informer.on('error', (error: unknown) => {
    lastError = error;
    // Before the first sync the caller hears of the failure instead (see below).
    if (stopped || !started) return;
    // client-node's informer stops on any error but a 410; restart it, backing off.
    timer = setTimeout(() => {
      timer = undefined;
      if (!stopped) informer.start().catch(() => {});
    }, retryMs);
    timer.unref();
    retryMs = Math.min(retryMs * 2, maxRetryMs);
  });
  // client-node's start() resolves even when its list fails (it reports the failure to
  // the error callbacks), so the first failure is thrown here.
  await informer.start();
  if (lastError !== undefined) {
    stopped = true;
    abort.abort();
    await informer.stop();
    throw lastError;
  }
  started = true;
  options.onChange();
  return {
    list: () => informer.list() as T[],
    get: (namespace, name) => informer.get(name, namespace) as T | undefined,
    get lastError() {
      return lastError;
    },
    invalid: () => [],
    async stop() {
      stopped = true;
      if (timer !== undefined) clearTimeout(timer);
      abort.abort();
      await informer.stop();
    },
  };
}
