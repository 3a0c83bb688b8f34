import {
  type CustomObjectsApi,
  PatchStrategy,
  setHeaderOptions,
  type V1DeleteOptions,
  type Watch,
} from '@kubernetes/client-node';
import * as E from 'fp-ts/lib/Either.js';
import { decodeServed, type Unreadable } from './decode-served.js';
import {
  type ClientError,
  clientErrorFrom,
  describeRef,
  listPageProblem,
  malformedContinue,
  malformedList,
  nextContinue,
  type ObjectRef,
  wrongObject,
} from './errors.js';
import { malformedEvent, type WatchedObjects } from './malformed-watch.js';
import { pathProblem, shownValue } from './names.js';
import { invalidOption, PAGE_SIZE, stringOptionProblem, wholeNumberProblem } from './option-rules.js';
import type { ResourceInfo } from './resources.js';

/** What `list` returns: the objects that decode, and the ones that do not (raw, with errors). */
export interface ListResult<T> {
  readonly items: T[];
  /** Objects the server returned that do not decode: never dropped, each with its errors. */
  readonly invalid: Unreadable[];
  /** The list's resourceVersion: start a watch here to see every later change. */
  readonly resourceVersion: string;
}

export interface ListOptions {
  /** One namespace; all namespaces when absent. */
  readonly namespace?: string;
  readonly labelSelector?: string;
  readonly fieldSelector?: string;
  /**
   * Objects per request (`limit`); pages are followed with `continue` (default 500). A whole
   * number from 1 up: 0 (no limit to the server), fractions and the like are `invalid-option`.
   */
  readonly pageSize?: number;
}

/** A change seen by `watch`. `BOOKMARK` events carry only a resourceVersion. */
export type WatchEvent<T> =
  | { readonly type: 'ADDED' | 'MODIFIED' | 'DELETED'; readonly object: T }
  | { readonly type: 'INVALID'; readonly event: 'ADDED' | 'MODIFIED' | 'DELETED'; readonly error: Unreadable }
  | { readonly type: 'BOOKMARK'; readonly resourceVersion: string };

export interface WatchOptions {
  readonly namespace?: string;
  readonly labelSelector?: string;
  /** Start after this resourceVersion (from `list`); absent: from now, with synthetic ADDED events. */
  readonly resourceVersion?: string;
  readonly signal?: AbortSignal;
}

/** A running watch. `done` resolves when it ends: undefined when stopped, else why it ended. */
export interface WatchHandle {
  stop(): void;
  readonly done: Promise<ClientError | undefined>;
}

/** A JSON merge patch, a JSON patch, or a server-side apply configuration. */
export type Patch =
  | { readonly type: 'merge'; readonly patch: Record<string, unknown> }
  | { readonly type: 'json'; readonly patch: readonly JsonPatchOperation[] }
  | {
      readonly type: 'apply';
      /** The applied configuration: apiVersion, kind, metadata.name and the fields this manager owns. */
      readonly patch: Record<string, unknown>;
      /** Required by server-side apply: who owns the fields. */
      readonly fieldManager: string;
      /** Take over fields owned by other managers instead of failing with a conflict. */
      readonly force?: boolean;
    };

export interface JsonPatchOperation {
  readonly op: 'add' | 'remove' | 'replace' | 'move' | 'copy' | 'test';
  readonly path: string;
  readonly value?: unknown;
  readonly from?: string;
}

export interface WriteOptions {
  readonly fieldManager?: string;
  /** Ask the server to validate and answer without persisting. */
  readonly dryRun?: boolean;
}

export interface DeleteOptions {
  /** Delete only if the object still has this UID / resourceVersion (else `conflict`). */
  readonly preconditions?: { readonly uid?: string; readonly resourceVersion?: string };
  readonly propagationPolicy?: 'Foreground' | 'Background' | 'Orphan';
  readonly gracePeriodSeconds?: number;
  readonly dryRun?: boolean;
}

/** The scale subresource of a MachineSet or MachineDeployment. */
export interface Scale {
  readonly name: string;
  readonly namespace: string;
  /** `spec.replicas`: the desired count. */
  readonly replicas: number;
  /** `status.replicas`: the count the controller last observed. */
  readonly statusReplicas: number;
  /** `status.selector` as served (a label selector string), when the controller set one. */
  readonly selector?: string;
  /** Pass back to `setScale` so a change made since is not overwritten. */
  readonly resourceVersion: string;
}

const PATCH_CONTENT_TYPES = {
  merge: PatchStrategy.MergePatch,
  json: PatchStrategy.JsonPatch,
  apply: PatchStrategy.ServerSideApply,
} as const;

const DEFAULT_PAGE_SIZE = 500;

/** Where an object given whole keeps its namespace and name. */
const METADATA = { namespace: 'metadata.namespace', name: 'metadata.name' } as const;

/** Where an object or collection lives, in client-node's CustomObjectsApi terms. */
interface Where {
  readonly group: string;
  readonly version: string;
  readonly plural: string;
  readonly namespace: string;
}

function scaleOf(raw: unknown, namespace: string, name: string): Scale {
  const scale = (raw ?? {}) as {
    metadata?: { resourceVersion?: string };
    spec?: { replicas?: number };
    status?: { replicas?: number; selector?: string };
  };
  return {
    name,
    namespace,
    replicas: scale.spec?.replicas ?? 0,
    statusReplicas: scale.status?.replicas ?? 0,
    ...(scale.status?.selector ? { selector: scale.status.selector } : {}),
    resourceVersion: scale.metadata?.resourceVersion ?? '',
  };
}

/**
 * An object's `metadata.namespace` and `metadata.name`, each absent when undefined or null
 * (JSON's "not set": the namespace is then `default`, the name generated). Any other value is
 * kept as it is, for `pathProblem` to refuse: a namespace of 7 or `true` was read as absent
 * and the object posted to `default`.
 */
function metaOfObject(object: unknown): { namespace?: unknown; name?: unknown } {
  const metadata = (object as { metadata?: { namespace?: unknown; name?: unknown } } | undefined)?.metadata;
  const present = (value: unknown) => value !== undefined && value !== null;
  return {
    ...(present(metadata?.namespace) ? { namespace: metadata?.namespace } : {}),
    ...(present(metadata?.name) ? { name: metadata?.name } : {}),
  };
}

/**
 * Why `list`/`listRaw` (`verb` 'list') or `watch` cannot send `options`, if it cannot, as
 * `invalid-option` naming the field. A `pageSize` of 0 reached the server as `limit=0`, "no
 * limit": the whole collection in one answer; 1.5 or -1 as a `limit` it refuses. A selector
 * or resourceVersion that is no string went out as its `String()` (`[object Object]`). The
 * namespace: '' is refused too, not read as "every namespace" (leave it out for that).
 */
function queryOptionsProblem(verb: 'list' | 'watch', options: unknown): ClientError | undefined {
  // (a JS caller's null, or a string, where the options go)
  if (typeof options !== 'object' || options === null)
    return invalidOption('options', `${verb} options ${shownValue(options)} are not an object`);
  const o = options as ListOptions & WatchOptions;
  if (o.namespace !== undefined) {
    const problem = pathProblem({ namespace: o.namespace });
    if (problem !== undefined) return problem;
  }
  const problems =
    verb === 'list'
      ? [
          stringOptionProblem('labelSelector', o.labelSelector),
          stringOptionProblem('fieldSelector', o.fieldSelector),
          wholeNumberProblem('pageSize', o.pageSize, PAGE_SIZE),
        ]
      : [
          stringOptionProblem('labelSelector', o.labelSelector),
          stringOptionProblem('resourceVersion', o.resourceVersion),
          o.signal === undefined || o.signal instanceof AbortSignal
            ? undefined
            : invalidOption('signal', `signal ${shownValue(o.signal)} is not an AbortSignal`),
        ];
  return problems.find((problem) => problem !== undefined);
}

/**
 * Typed access to one kind at one version on a management cluster. Every object read is
 * checked with core's codec; one that does not decode comes back raw with its errors
 * (`invalid-object`), never dropped. Every call resolves to an Either: nothing throws. A
 * namespace or name that is not one the API server allows is `invalid-option`, unsent, and
 * so is a list or watch option it cannot send (a `pageSize` of 0, a selector that is no string).
 */
export class ResourceClient<T> {
  readonly info: ResourceInfo;
  readonly #api: CustomObjectsApi;
  readonly #watch: Watch;

  constructor(api: CustomObjectsApi, watch: Watch, info: ResourceInfo) {
    this.#api = api;
    this.#watch = watch;
    this.info = info;
  }

  #ref(namespace?: string, name?: string): ObjectRef {
    return {
      apiVersion: this.info.apiVersion,
      kind: this.info.kind,
      ...(namespace === undefined ? {} : { namespace }),
      ...(name === undefined ? {} : { name }),
    };
  }

  #where(namespace: string): Where {
    const { group, version, plural } = this.info;
    return { group, version, plural, namespace };
  }

  /** Decodes an object the server returned (after a read or a write). */
  decode(raw: unknown): E.Either<Unreadable, T> {
    return decodeServed<T>(this.info.codec, raw, this.info.apiVersion, this.info.kind);
  }

  async #call<R>(
    verb: string,
    ref: ObjectRef,
    request: () => Promise<unknown>,
    read: (raw: unknown) => E.Either<ClientError, R>,
    problem: ClientError | undefined,
  ): Promise<E.Either<ClientError, R>> {
    if (problem !== undefined) return E.left(problem);
    let raw: unknown;
    try {
      raw = await request();
    } catch (error) {
      return E.left(clientErrorFrom(error, ref, verb));
    }
    return read(raw);
  }

  /** The object, decoded; an answer that is not the object asked for is `malformed-object`. */
  get(namespace: string, name: string): Promise<E.Either<ClientError, T>> {
    return this.#getAnswer(namespace, name, (raw) => this.decode(raw));
  }

  /** The object exactly as served, not decoded (but the object asked for: see `get`). */
  getRaw(namespace: string, name: string): Promise<E.Either<ClientError, unknown>> {
    return this.#getAnswer(namespace, name, (raw) => E.right(raw));
  }

  /** A get whose answer, once it is the object asked for (`wrongObject`), `read` reads. */
  #getAnswer<R>(
    namespace: string,
    name: string,
    read: (raw: unknown) => E.Either<ClientError, R>,
  ): Promise<E.Either<ClientError, R>> {
    const ref = this.#ref(namespace, name);
    return this.#call(
      'get',
      ref,
      () => this.#api.getNamespacedCustomObject({ ...this.#where(namespace), name }),
      (raw) => {
        const wrong = wrongObject(raw, ref);
        return wrong === undefined ? read(raw) : E.left(wrong);
      },
      pathProblem({ namespace, name }),
    );
  }

  /** Lists every page (`limit` + `continue`) and decodes each item. */
  async list(options: ListOptions = {}): Promise<E.Either<ClientError, ListResult<T>>> {
    const items: T[] = [];
    const invalid: Unreadable[] = [];
    const listed = await this.listRaw(options, (item) => {
      const decoded = this.decode(item);
      if (E.isRight(decoded)) items.push(decoded.right);
      else invalid.push(decoded.left);
    });
    return E.isLeft(listed)
      ? listed
      : E.right({ items, invalid, resourceVersion: listed.right.resourceVersion });
  }

  /**
   * Lists every page (`limit` + `continue`) and hands each item, as served, to `onItem`.
   * Resolves to the list's resourceVersion.
   */
  async listRaw(
    options: ListOptions,
    onItem: (item: unknown) => void,
  ): Promise<E.Either<ClientError, { resourceVersion: string }>> {
    const problem = queryOptionsProblem('list', options);
    if (problem !== undefined) return E.left(problem);
    const { group, version, plural } = this.info;
    const ref = this.#ref(options.namespace);
    let resourceVersion = '';
    let continueToken: string | undefined;
    // Every token followed: a server (or a proxy) that hands one back again made a list that
    // never ended, fetching the same pages for ever (and growing `list`'s items with them).
    const followed = new Set<string>();
    let pages = 0;
    do {
      const page = {
        group,
        version,
        plural,
        limit: options.pageSize ?? DEFAULT_PAGE_SIZE,
        ...(continueToken === undefined ? {} : { _continue: continueToken }),
        ...(options.labelSelector === undefined ? {} : { labelSelector: options.labelSelector }),
        ...(options.fieldSelector === undefined ? {} : { fieldSelector: options.fieldSelector }),
      };
      let raw: { items?: unknown[]; metadata?: { resourceVersion?: string; continue?: string } };
      try {
        raw =
          options.namespace === undefined
            ? await this.#api.listCustomObjectForAllNamespaces({ ...page, resourcePlural: plural })
            : await this.#api.listNamespacedCustomObject({ ...page, namespace: options.namespace });
      } catch (error) {
        return E.left(clientErrorFrom(error, ref, 'list'));
      }
      const problem = listPageProblem(raw);
      if (problem !== undefined) return E.left(malformedList(ref, problem));
      for (const item of raw.items ?? []) onItem(item);
      pages++;
      resourceVersion = raw.metadata?.resourceVersion ?? resourceVersion;
      const next = nextContinue(raw.metadata?.continue, followed);
      if ('problem' in next) return E.left(malformedContinue(ref, pages, next.problem));
      continueToken = next.next;
    } while (continueToken !== undefined);
    return E.right({ resourceVersion });
  }

  /**
   * Watches changes (one connection; no relist or reconnect: use an informer for a cache
   * that recovers). Bookmarks are requested and passed on.
   *
   * Each event is checked as an informer's is (`malformedEvent`, malformed-watch.ts): one that
   * is not about what is watched (an object of another namespace, kind or apiVersion, without
   * a `metadata.name`, a `metadata.resourceVersion` that is no non-empty string, a bookmark
   * without one, an event of an unknown type, a line without a type) ends the watch: nothing
   * of it or after it reaches `onEvent`, and `done` resolves to a `malformed-watch-event`
   * ClientError naming why. (A line that is no JSON at all client-node drops before it gets here.)
   *
   * The options are checked first (`done` resolves to `invalid-option`, nothing sent). When
   * client-node fails before it sends the request (no current cluster in the kubeconfig, a
   * server URL it cannot parse, credentials it cannot get, such as a failing exec plug-in),
   * `done` resolves to `unreachable` with its message, as every other failure: the returned
   * promise never rejects.
   *
   * The abort listener added to `options.signal` is removed whenever the watch ends (stopped,
   * aborted, ended by the server or an error, or failed before sending), so one long-lived
   * signal can serve any number of watches.
   */
  async watch(options: WatchOptions, onEvent: (event: WatchEvent<T>) => void): Promise<WatchHandle> {
    const problem = queryOptionsProblem('watch', options);
    if (problem !== undefined) return { stop: () => {}, done: Promise.resolve(problem) };
    const { group, version, plural } = this.info;
    const path =
      options.namespace === undefined
        ? `/apis/${group}/${version}/${plural}`
        : `/apis/${group}/${version}/namespaces/${encodeURIComponent(options.namespace)}/${plural}`;
    const ref = this.#ref(options.namespace);
    const watched: WatchedObjects = {
      apiVersion: this.info.apiVersion,
      kind: this.info.kind,
      scope: options.namespace === undefined ? 'all-namespaces' : { namespace: options.namespace },
    };
    const signal = options.signal;
    let stopped = false;
    let finish: (result: ClientError | undefined) => void = () => {};
    const done = new Promise<ClientError | undefined>((resolve) => {
      // (every end goes through here: the abort listener leaves with it, whatever ended the watch)
      finish = (result) => {
        signal?.removeEventListener('abort', stop);
        resolve(result);
      };
    });
    let controller: AbortController | undefined;
    const stop = () => {
      stopped = true;
      controller?.abort();
      finish(undefined);
    };
    signal?.addEventListener('abort', stop, { once: true });
    const query = {
      allowWatchBookmarks: true,
      ...(options.resourceVersion === undefined ? {} : { resourceVersion: options.resourceVersion }),
      ...(options.labelSelector === undefined ? {} : { labelSelector: options.labelSelector }),
    };
    try {
      controller = await this.#watch.watch(
        path,
        query,
        (type, object) => {
          if (stopped) return;
          // (the first event that is not about what is watched ends the watch, unseen)
          const why = malformedEvent(type, object, watched);
          if (why !== undefined) {
            stopped = true;
            controller?.abort();
            finish({
              code: 'malformed-watch-event',
              target: ref,
              message: `watch ${describeRef(ref)}: the watch stream sent ${why}; the watch was ended`,
            });
            return;
          }
          if (type === 'BOOKMARK') {
            onEvent({ type, resourceVersion: String(object?.metadata?.resourceVersion ?? '') });
          } else if (type === 'ERROR') {
            const status = typeof object?.code === 'number' ? object.code : 500;
            stopped = true;
            controller?.abort();
            finish(clientErrorFrom({ code: status, body: object }, ref, 'watch'));
          } else if (type === 'ADDED' || type === 'MODIFIED' || type === 'DELETED') {
            const decoded = this.decode(object);
            onEvent(
              E.isRight(decoded)
                ? { type, object: decoded.right }
                : { type: 'INVALID', event: type, error: decoded.left },
            );
          }
        },
        (error) => {
          if (stopped) return;
          stopped = true;
          finish(error ? clientErrorFrom(error, ref, 'watch') : undefined);
        },
      );
    } catch (error) {
      // client-node threw before sending: no current cluster, a server URL it cannot parse,
      // credentials it cannot get. `unreachable`, as `get` or `list` on the same kubeconfig
      // answer (clientErrorFrom): the request was never answered, and the cause is no option
      // of this call (`invalid-option` names what the call was given; the kubeconfig was
      // given to `connect`), nor always the caller's config (an exec plug-in can fail for a
      // while). A signal aborted meanwhile, or before, makes it a stop.
      if (signal?.aborted) stop();
      else {
        stopped = true;
        finish(clientErrorFrom(error, ref, 'watch'));
      }
      return { stop, done };
    }
    if (signal?.aborted) stop();
    // (ended before client-node handed back its controller: by an ERROR or a malformed event)
    else if (stopped) controller.abort();
    return { stop, done };
  }

  create(object: T, options: WriteOptions = {}): Promise<E.Either<ClientError, T>> {
    const meta = metaOfObject(object);
    // (no name: the server generates one from generateName)
    const problem = pathProblem(meta, METADATA);
    if (problem !== undefined) return Promise.resolve(E.left(problem));
    const { namespace, name } = meta as { namespace?: string; name?: string };
    return this.#call(
      'create',
      this.#ref(namespace, name),
      () =>
        this.#api.createNamespacedCustomObject({
          ...this.#where(namespace ?? 'default'),
          body: object,
          ...writeParams(options),
        }),
      (raw) => this.decode(raw),
      undefined, // (checked above)
    );
  }

  /** PUT of the whole object; its `metadata.resourceVersion` guards against lost updates. */
  replace(object: T, options: WriteOptions = {}): Promise<E.Either<ClientError, T>> {
    const meta = metaOfObject(object);
    // (a name is needed: without one the PUT went to the collection)
    const problem = pathProblem({ ...meta, name: meta.name }, METADATA);
    if (problem !== undefined) return Promise.resolve(E.left(problem));
    const { namespace, name } = meta as { namespace?: string; name: string };
    return this.#call(
      'replace',
      this.#ref(namespace, name),
      () =>
        this.#api.replaceNamespacedCustomObject({
          ...this.#where(namespace ?? 'default'),
          name,
          body: object,
          ...writeParams(options),
        }),
      (raw) => this.decode(raw),
      undefined, // (checked above)
    );
  }

  /** Merge patch, JSON patch or server-side apply of the object (not its status). */
  patch(namespace: string, name: string, patch: Patch, options: WriteOptions = {}) {
    return this.#patch('patch', namespace, name, patch, options, (params, headers) =>
      this.#api.patchNamespacedCustomObject(params, headers),
    );
  }

  /** The same on the `status` subresource (what controllers write). */
  patchStatus(namespace: string, name: string, patch: Patch, options: WriteOptions = {}) {
    return this.#patch('patch status of', namespace, name, patch, options, (params, headers) =>
      this.#api.patchNamespacedCustomObjectStatus(params, headers),
    );
  }

  #patch(
    verb: string,
    namespace: string,
    name: string,
    patch: Patch,
    options: WriteOptions,
    send: (
      params: Where & { name: string; body: unknown },
      headers: ReturnType<typeof setHeaderOptions>,
    ) => Promise<unknown>,
  ): Promise<E.Either<ClientError, T>> {
    const fieldManager = patch.type === 'apply' ? patch.fieldManager : options.fieldManager;
    return this.#call(
      verb,
      this.#ref(namespace, name),
      () =>
        send(
          {
            ...this.#where(namespace),
            name,
            body: patch.patch,
            ...writeParams({ ...options, ...(fieldManager === undefined ? {} : { fieldManager }) }),
            ...(patch.type === 'apply' && patch.force ? { force: true } : {}),
          },
          setHeaderOptions('Content-Type', PATCH_CONTENT_TYPES[patch.type]),
        ),
      (raw) => this.decode(raw),
      pathProblem({ namespace, name }),
    );
  }

  /** Deletes, optionally only if the object still has the given UID / resourceVersion. */
  delete(namespace: string, name: string, options: DeleteOptions = {}): Promise<E.Either<ClientError, void>> {
    const body: V1DeleteOptions = {
      ...(options.preconditions === undefined ? {} : { preconditions: { ...options.preconditions } }),
      ...(options.propagationPolicy === undefined ? {} : { propagationPolicy: options.propagationPolicy }),
      ...(options.gracePeriodSeconds === undefined ? {} : { gracePeriodSeconds: options.gracePeriodSeconds }),
      ...(options.dryRun ? { dryRun: ['All'] } : {}),
    };
    return this.#call(
      'delete',
      this.#ref(namespace, name),
      () => this.#api.deleteNamespacedCustomObject({ ...this.#where(namespace), name, body }),
      () => E.right(undefined),
      pathProblem({ namespace, name }),
    );
  }

  #scaleRef(namespace: string, name: string): E.Either<ClientError, ObjectRef> {
    const ref = this.#ref(namespace, name);
    if (this.info.scale) return E.right(ref);
    return E.left({ code: 'not-served', target: ref, message: `${this.info.kind} has no scale subresource` });
  }

  /** The scale subresource (MachineSet, MachineDeployment). */
  async getScale(namespace: string, name: string): Promise<E.Either<ClientError, Scale>> {
    const ref = this.#scaleRef(namespace, name);
    if (E.isLeft(ref)) return ref;
    return this.#call(
      'get scale of',
      ref.right,
      () => this.#api.getNamespacedCustomObjectScale({ ...this.#where(namespace), name }),
      (raw) => E.right(scaleOf(raw, namespace, name)),
      pathProblem({ namespace, name }),
    );
  }

  /**
   * Sets `spec.replicas` through the scale subresource. `resourceVersion` (from `getScale`
   * or the object) is required: if the object changed since, the server refuses with
   * `conflict` and nothing is written.
   */
  async setScale(
    namespace: string,
    name: string,
    change: { readonly replicas: number; readonly resourceVersion: string },
  ): Promise<E.Either<ClientError, Scale>> {
    const ref = this.#scaleRef(namespace, name);
    if (E.isLeft(ref)) return ref;
    const problem = pathProblem({ namespace, name });
    if (problem !== undefined) return E.left(problem);
    if (!Number.isSafeInteger(change.replicas) || change.replicas < 0 || change.replicas > 2 ** 31 - 1) {
      return E.left({
        code: 'precondition-failed',
        target: ref.right,
        message: `replicas must be a whole number from 0 to 2147483647 (got ${change.replicas})`,
      });
    }
    if (change.resourceVersion === '') {
      return E.left({
        code: 'precondition-failed',
        target: ref.right,
        message: 'setScale needs the resourceVersion the new replica count was decided from',
      });
    }
    const body = {
      apiVersion: 'autoscaling/v1',
      kind: 'Scale',
      metadata: { name, namespace, resourceVersion: change.resourceVersion },
      spec: { replicas: change.replicas },
    };
    return this.#call(
      'set scale of',
      ref.right,
      () => this.#api.replaceNamespacedCustomObjectScale({ ...this.#where(namespace), name, body }),
      (raw) => E.right(scaleOf(raw, namespace, name)),
      undefined, // (checked above, before the replica count)
    );
  }
}

function writeParams(options: WriteOptions) {
  return {
    ...(options.fieldManager === undefined ? {} : { fieldManager: options.fieldManager }),
    ...(options.dryRun ? { dryRun: 'All' } : {}),
  };
}

/** Builds a typed client for one row of the kind/version table. */
export function resourceClient<T>(
  api: CustomObjectsApi,
  watch: Watch,
  info: ResourceInfo,
): ResourceClient<T> {
  return new ResourceClient<T>(api, watch, info);
}
