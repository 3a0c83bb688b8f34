import {
  type KubeConfig,
  type KubernetesListObject,
  type KubernetesObject,
  ListWatch,
} from '@kubernetes/client-node';
import * as E from 'fp-ts/lib/Either.js';
import { abortableDelay } from './abortable-watch.js';
import type { Unreadable } from './decode-served.js';
import { type ClientError, clientErrorFrom } from './errors.js';
import { type InformerOptions, informerOptionsProblem } from './informer-options.js';
import { MalformedWatchError } from './malformed-watch.js';
import { type Bucket, fileUnder, itemsUnder, unfileFrom } from './multimap.js';
import { clusterNameOf, type ObjectWithMeta, objectKey, ownerUIDsOf, providerIDOf } from './object-facts.js';
import { ObservedWatch } from './observed-watch.js';
import { ProviderIDIdentityIndex } from './provider-identity.js';
import type { ResourceClient } from './resource-client.js';

export type { InformerOptions } from './informer-options.js';

/** What the informer did to keep its cache true, for logs and tests. */
export interface InformerStats {
  /** Full lists, the first included. */
  readonly lists: number;
  /** Watches the server refused as too old (410 Gone), each followed by a relist. */
  readonly gone: number;
  /** Restarts after errors (apiserver restarts, network errors, failed lists). */
  readonly reconnects: number;
  /** Restarts because the watch fell silent (see `silenceTimeoutMs`). */
  readonly silentRestarts: number;
}

type Handlers<T> = {
  add: (object: T) => void;
  update: (object: T, old: T) => void;
  delete: (object: T) => void;
  /** An object that does not decode arrived (or an object changed so that it no longer decodes). */
  invalid: (object: Unreadable) => void;
  /** The informer met an error and is recovering (it retries with back-off). */
  error: (error: ClientError) => void;
};

/** The built-in indexes. */
export type IndexName = 'clusterName' | 'ownerUID';

const DEFAULT_SILENCE_MS = 5 * 60_000;

/**
 * A typed, indexed cache of one kind at one version, kept by client-node's `ListWatch`
 * and made to recover from what ListWatch leaves to its caller:
 *
 * - 410 Gone: ListWatch relists by itself; the relist's deletions and changes reach the
 *   handlers, so the cache equals a fresh list afterwards.
 * - errors (apiserver restart, connection refused, failed list): ListWatch stops; the
 *   informer starts it again with jittered exponential back-off, resuming from the last
 *   resourceVersion (a 410 then relists).
 * - a silent watch (no event, bookmark or reconnect for `silenceTimeoutMs`): the watch is
 *   dropped and a fresh ListWatch relists; callbacks of the dropped one are ignored.
 *
 * Objects that do not decode are kept apart (`invalid()`), never dropped. Cached objects
 * are shared with handlers and indexes: treat them as read-only (copy before changing).
 */
export class Informer<T extends ObjectWithMeta> {
  readonly #source: ResourceClient<T>;
  readonly #kubeConfig: KubeConfig;
  readonly #options: InformerOptions;
  readonly #objects = new Map<string, T>();
  readonly #invalid = new Map<string, Unreadable>();
  // Index buckets hold cache keys. Removing an object from them reads the index values off
  // the cached object itself, so nothing per object is stored twice.
  readonly #indexes = new Map<IndexName, Map<string, Bucket<string>>>([
    ['clusterName', new Map()],
    ['ownerUID', new Map()],
  ]);
  readonly #providerIDs: ProviderIDIdentityIndex<string>;
  readonly #handlers: { [K in keyof Handlers<T>]: Set<Handlers<T>[K]> } = {
    add: new Set(),
    update: new Set(),
    delete: new Set(),
    invalid: new Set(),
    error: new Set(),
  };
  #stats = { lists: 0, gone: 0, reconnects: 0, silentRestarts: 0 };
  #listWatch: ListWatch<KubernetesObject> | undefined;
  /** Aborted when the current ListWatch is replaced or the informer stops: ends its requests and delays. */
  #listWatchAbort: AbortController | undefined;
  #generation = 0;
  #stopped = true;
  #listing = false;
  #waitingToRetry: ReturnType<typeof setTimeout> | undefined;
  #failures = 0;
  #lastActivity = 0;
  #silenceTimer: ReturnType<typeof setInterval> | undefined;
  #resolveSynced: () => void = () => {};
  #rejectSynced: (error: ClientError) => void = () => {};
  readonly #optionsProblem: ClientError | undefined;
  #synced = false;
  /**
   * Resolves once the first full list is in the cache; rejects if it is refused (401, 403,
   * 404, a 400 for a label selector the server cannot parse) or the options cannot be used.
   */
  readonly synced: Promise<void>;

  constructor(source: ResourceClient<T>, kubeConfig: KubeConfig, options: InformerOptions = {}) {
    this.#source = source;
    this.#kubeConfig = kubeConfig;
    this.#options = options;
    this.#optionsProblem = informerOptionsProblem(options);
    this.#providerIDs = new ProviderIDIdentityIndex(options.providerIDRegistry);
    this.synced = new Promise<void>((resolve, reject) => {
      this.#resolveSynced = resolve;
      this.#rejectSynced = reject;
    });
    // A caller that only uses handlers must not see an unhandled rejection.
    this.synced.catch(() => {});
  }

  /** The kind and version cached. */
  get info() {
    return this.#source.info;
  }

  get stats(): InformerStats {
    return { ...this.#stats };
  }

  /** Starts listing and watching; resolves like `synced`. */
  start(): Promise<void> {
    if (this.#optionsProblem !== undefined) {
      // (made with `new`, not through `client.informer`, which refuses such options up front)
      this.#rejectSynced(this.#optionsProblem);
      return this.synced;
    }
    if (!this.#stopped) return this.synced;
    this.#stopped = false;
    const silence = this.#options.silenceTimeoutMs ?? DEFAULT_SILENCE_MS;
    this.#silenceTimer = setInterval(
      () => this.#checkSilence(silence),
      Math.max(50, Math.min(silence / 4, 10_000)),
    );
    this.#silenceTimer.unref();
    this.#begin();
    return this.synced;
  }

  /** Stops watching; the cache keeps what it holds. */
  stop(): void {
    this.#stopped = true;
    this.#generation++;
    if (this.#silenceTimer !== undefined) clearInterval(this.#silenceTimer);
    if (this.#waitingToRetry !== undefined) clearTimeout(this.#waitingToRetry);
    this.#waitingToRetry = undefined;
    void this.#listWatch?.stop();
    this.#listWatch = undefined;
    this.#listWatchAbort?.abort();
    this.#listWatchAbort = undefined;
  }

  /** Registers a handler; returns a function that removes it. */
  on<K extends keyof Handlers<T>>(event: K, handler: Handlers<T>[K]): () => void {
    this.#handlers[event].add(handler);
    return () => {
      this.#handlers[event].delete(handler);
    };
  }

  get(namespace: string, name: string): T | undefined {
    return this.#objects.get(`${namespace}/${name}`);
  }

  /** Every cached object (of one namespace, if given) that decodes. */
  list(namespace?: string): T[] {
    const all = [...this.#objects.values()];
    return namespace === undefined ? all : all.filter((o) => o.metadata?.namespace === namespace);
  }

  /** Cached objects that do not decode, raw, with their errors. */
  invalid(): Unreadable[] {
    return [...this.#invalid.values()];
  }

  get size(): number {
    return this.#objects.size;
  }

  /**
   * Objects by a built-in index: `clusterName` (a Cluster's name, `spec.clusterName`, or
   * the cluster-name label of either version) or `ownerUID` (any ownerReference's UID).
   */
  byIndex(index: IndexName, key: string): T[] {
    const buckets = this.#indexes.get(index);
    if (buckets === undefined) return [];
    return itemsUnder(buckets, key)
      .map((k) => this.#objects.get(k))
      .filter((o) => o !== undefined);
  }

  /**
   * Objects whose `spec.providerID` denotes the same instance as `providerID` (by identity,
   * not string equality; see ProviderIDIdentityIndex.lookup). Several means ambiguous.
   */
  byProviderID(providerID: string): T[] {
    return this.#providerIDs
      .lookup(providerID)
      .map((k) => this.#objects.get(k))
      .filter((o) => o !== undefined);
  }

  /** Drops the watch and relists now (what the silence detector does). */
  restart(): void {
    if (this.#stopped) return;
    void this.#listWatch?.stop();
    this.#begin();
  }

  // --- ListWatch plumbing ---------------------------------------------------------------

  #path(): string {
    const { group, version, plural } = this.#source.info;
    const ns = this.#options.namespace;
    return ns === undefined
      ? `/apis/${group}/${version}/${plural}`
      : `/apis/${group}/${version}/namespaces/${encodeURIComponent(ns)}/${plural}`;
  }

  /** A fresh ListWatch (relists first); callbacks of any earlier one are ignored from now on. */
  #begin(): void {
    const generation = ++this.#generation;
    this.#listWatchAbort?.abort();
    const abort = new AbortController();
    this.#listWatchAbort = abort;
    const current = () => generation === this.#generation && !this.#stopped;
    this.#lastActivity = performance.now();
    const watch = new ObservedWatch(
      this.#kubeConfig,
      {
        isCurrent: current,
        onActivity: () => {
          if (!current()) return;
          this.#lastActivity = performance.now();
        },
        onEvent: () => {
          if (current()) this.#failures = 0;
        },
        onGone: () => {
          if (current()) this.#stats.gone++;
        },
        onWatchStarted: () => {
          if (!current()) return;
          this.#lastActivity = performance.now();
          if (!this.#synced) {
            this.#synced = true;
            this.#resolveSynced();
          }
        },
      },
      abort.signal,
      // (an event about another namespace's or kind's object ends the watch: MalformedWatchError)
      {
        apiVersion: this.#source.info.apiVersion,
        kind: this.#source.info.kind,
        scope:
          this.#options.namespace === undefined ? 'all-namespaces' : { namespace: this.#options.namespace },
      },
    );
    const listWatch = new ListWatch<KubernetesObject>(
      this.#path(),
      watch,
      () => this.#list(current),
      false,
      this.#options.labelSelector,
      undefined,
      { delayFn: abortableDelay(abort.signal) },
    );
    listWatch.on('add', (raw) => current() && this.#apply(raw));
    listWatch.on('update', (raw) => current() && this.#apply(raw));
    listWatch.on('delete', (raw) => current() && this.#remove(objectKey(raw as ObjectWithMeta)));
    listWatch.on('error', (error) => current() && this.#onError(error, listWatch));
    this.#listWatch = listWatch;
    void listWatch.start();
  }

  /** ListWatch's list function: every page, through the typed client's raw list. */
  async #list(current: () => boolean): Promise<KubernetesListObject<KubernetesObject>> {
    this.#listing = true;
    try {
      const items: KubernetesObject[] = [];
      const listed = await this.#source.listRaw(
        {
          ...(this.#options.namespace === undefined ? {} : { namespace: this.#options.namespace }),
          ...(this.#options.labelSelector === undefined
            ? {}
            : { labelSelector: this.#options.labelSelector }),
          ...(this.#options.pageSize === undefined ? {} : { pageSize: this.#options.pageSize }),
        },
        (item) => items.push(item as KubernetesObject),
      );
      if (E.isLeft(listed)) throw new ListFailed(listed.left);
      if (current()) {
        this.#stats.lists++;
        this.#failures = 0;
        // An earlier ListWatch's objects that this list no longer has are gone: a fresh
        // ListWatch only reports deletions of objects it knew itself.
        const fresh = new Set(items.map((item) => objectKey(item as ObjectWithMeta)));
        for (const key of [...this.#objects.keys(), ...this.#invalid.keys()])
          if (!fresh.has(key)) this.#remove(key);
      }
      return { metadata: { resourceVersion: listed.right.resourceVersion }, items };
    } finally {
      this.#listing = false;
    }
  }

  #onError(error: unknown, listWatch: ListWatch<KubernetesObject>): void {
    const failure =
      error instanceof ListFailed ? error.error : clientErrorFrom(error, this.#target(), 'watch');
    if (
      !this.#synced &&
      (failure.code === 'unauthorized' ||
        failure.code === 'forbidden' ||
        failure.code === 'not-found' ||
        // (a label selector the server cannot parse: every relist gets the same 400)
        (failure.code === 'api' && failure.status === 400))
    ) {
      // The first list was refused: waiting will not help. Report and stop.
      this.stop();
      this.#rejectSynced(failure);
      return;
    }
    for (const handler of this.#handlers.error) handler(failure);
    const { initialMs = 500, maxMs = 30_000 } = this.#options.backoff ?? {};
    const delay = Math.min(maxMs, initialMs * 2 ** this.#failures) * (0.5 + Math.random() / 2);
    this.#failures++;
    this.#stats.reconnects++;
    const generation = this.#generation;
    this.#waitingToRetry = setTimeout(() => {
      this.#waitingToRetry = undefined;
      if (generation !== this.#generation || this.#stopped) return;
      this.#lastActivity = performance.now();
      // A stream that sent what no server sends is not trusted up to where it went wrong:
      // relist, as client-go's reflector does after a watch that ended in an error.
      if (error instanceof MalformedWatchError) return this.#begin();
      // The failed request has ended, so the same ListWatch can go on from its
      // resourceVersion (a 410 there makes it relist).
      void listWatch.start();
    }, delay);
  }

  #checkSilence(silenceMs: number): void {
    if (this.#stopped || this.#listing || this.#waitingToRetry !== undefined) return;
    if (performance.now() - this.#lastActivity < silenceMs) return;
    this.#stats.silentRestarts++;
    this.restart();
  }

  #target() {
    return {
      apiVersion: this.#source.info.apiVersion,
      kind: this.#source.info.kind,
      ...(this.#options.namespace === undefined ? {} : { namespace: this.#options.namespace }),
    };
  }

  // --- cache and indexes --------------------------------------------------------------

  #apply(raw: KubernetesObject): void {
    const key = objectKey(raw as ObjectWithMeta);
    const decoded = this.#source.decode(raw);
    if (E.isLeft(decoded)) {
      const old = this.#objects.get(key);
      if (old !== undefined) this.#unindex(key, old);
      this.#objects.delete(key);
      this.#invalid.set(key, decoded.left);
      for (const handler of this.#handlers.invalid) handler(decoded.left);
      return;
    }
    const object = decoded.right;
    this.#invalid.delete(key);
    const old = this.#objects.get(key);
    if (old !== undefined && old.metadata?.resourceVersion === object.metadata?.resourceVersion) return;
    if (old !== undefined) this.#unindex(key, old);
    this.#objects.set(key, object);
    this.#index(key, object);
    if (old === undefined) for (const handler of this.#handlers.add) handler(object);
    else for (const handler of this.#handlers.update) handler(object, old);
  }

  #remove(key: string): void {
    this.#invalid.delete(key);
    const old = this.#objects.get(key);
    if (old === undefined) return;
    this.#objects.delete(key);
    this.#unindex(key, old);
    for (const handler of this.#handlers.delete) handler(old);
  }

  #index(key: string, object: T): void {
    const clusterName = clusterNameOf(object);
    if (clusterName !== undefined) fileUnder(this.#indexes.get('clusterName')!, clusterName, key);
    for (const uid of ownerUIDsOf(object)) fileUnder(this.#indexes.get('ownerUID')!, uid, key);
    this.#providerIDs.add(key, providerIDOf(object));
  }

  /** Takes `key` out of the buckets `object` (as cached) was filed in. */
  #unindex(key: string, object: T): void {
    const clusterName = clusterNameOf(object);
    if (clusterName !== undefined) unfileFrom(this.#indexes.get('clusterName')!, clusterName, key);
    for (const uid of ownerUIDsOf(object)) unfileFrom(this.#indexes.get('ownerUID')!, uid, key);
    this.#providerIDs.remove(key, providerIDOf(object));
  }
}

/** A list that failed, carried through ListWatch's error callback with its ClientError (and its code). */
class ListFailed extends Error {
  readonly code: ClientError['code'];
  constructor(readonly error: ClientError) {
    super(error.message);
    this.code = error.code;
  }
}
