import type { JsonObject } from '@capi-kit/conversion';
import {
  ApiException,
  ApisApi,
  AuthorizationV1Api,
  CustomObjectsApi,
  type KubeConfig,
  type KubernetesObject,
  KubernetesObjectApi,
  PatchStrategy,
  setHeaderOptions,
  type V1APIResource,
} from '@kubernetes/client-node';
import { MigrateFailure } from './errors.js';
import { labelOf, type ObjectKey } from './object.js';

/** One write the migration makes, as the fault hook sees it. */
export interface Write {
  readonly verb: 'create' | 'patch' | 'patch status' | 'delete';
  readonly object: ObjectKey;
  /** 1-based count of writes made by this API, this one included. */
  readonly count: number;
}

/**
 * Called after every successful write that persists (not after dry runs). Tests inject crashes with it:
 * throwing (or rejecting: a returned promise is awaited) stops the migration as a crash at that point would.
 */
export type WriteHook = (write: Write) => unknown;

const PAGE_SIZE = 500;
/** 429 Too Many Requests (priority and fairness, or a CRD's storage being set up): retried after its Retry-After, this often. */
const MAX_ATTEMPTS = 10;
const MAX_RETRY_AFTER_MS = 2_000;

/**
 * Runs a request, again after a 429 as client-go does (its Retry-After, capped). Every other
 * answer, errors included, is final: a conflict or a refusal is for the caller to decide on.
 */
async function withRetries<T>(run: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await run();
    } catch (error) {
      if (!(error instanceof ApiException) || error.code !== 429 || attempt >= MAX_ATTEMPTS) throw error;
      const seconds = Number(error.headers?.['retry-after'] ?? 1);
      const delay = Math.min(
        MAX_RETRY_AFTER_MS,
        Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : 1000,
      );
      await new Promise((resolve) => setTimeout(resolve, delay));
    }
  }
}

/** Exposes client-node's discovery cache (one request per group version). */
class ObjectApi extends KubernetesObjectApi {
  resourceOf(apiVersion: string, kind: string): Promise<V1APIResource | undefined> {
    return this.resource(apiVersion, kind);
  }
}

function groupOf(apiVersion: string): string {
  return apiVersion.includes('/') ? apiVersion.slice(0, apiVersion.indexOf('/')) : '';
}

/** The server's own message from an error body, when it sent a Status. */
function serverMessage(error: ApiException<unknown>): string {
  const body = error.body;
  try {
    const parsed = typeof body === 'string' ? JSON.parse(body) : body;
    if (parsed && typeof parsed.message === 'string') return parsed.message;
  } catch {
    // not JSON: fall through to the raw text
  }
  return typeof body === 'string' && body !== '' ? body.slice(0, 500) : `HTTP ${error.code}`;
}

/**
 * The calls a migration makes, on any kind (Cluster API, provider and bootstrap kinds,
 * Secrets), through client-node. Every failure becomes a MigrateFailure naming the verb and
 * the resource, so a 403 reads "create machines.cluster.x-k8s.io in ns: forbidden …".
 */
export class ClusterApi {
  readonly #objects: ObjectApi;
  readonly #custom: CustomObjectsApi;
  readonly #apis: ApisApi;
  readonly #authorization: AuthorizationV1Api;
  #writes = 0;

  constructor(
    kubeConfig: KubeConfig,
    private readonly afterWrite?: WriteHook,
    /** Objects per list request (`limit`); the rest come page by page (`continue`). */
    private readonly pageSize = PAGE_SIZE,
  ) {
    this.#objects = kubeConfig.makeApiClient(ObjectApi);
    this.#custom = kubeConfig.makeApiClient(CustomObjectsApi);
    this.#apis = kubeConfig.makeApiClient(ApisApi);
    this.#authorization = kubeConfig.makeApiClient(AuthorizationV1Api);
  }

  /** `group/version` of every served API group version. */
  async servedGroupVersions(): Promise<Set<string>> {
    const groups = await this.#call('list', 'apigroups', () => this.#apis.getAPIVersions());
    return new Set(groups.groups.flatMap((g) => g.versions.map((v) => v.groupVersion)));
  }

  /** The resource that serves `kind` in `apiVersion`, or undefined when none does. */
  async resource(apiVersion: string, kind: string): Promise<V1APIResource | undefined> {
    try {
      return await withRetries(() => this.#objects.resourceOf(apiVersion, kind));
    } catch (error) {
      // An unserved group version answers 404: the kind is simply not there.
      if (error instanceof ApiException && error.code === 404) return undefined;
      throw this.#failure(error, 'get', `${kind} (${apiVersion}) discovery`);
    }
  }

  /** Every object of a kind (all pages), in one namespace or all of them. */
  async list(apiVersion: string, kind: string, namespace?: string): Promise<JsonObject[]> {
    const resource = await this.#resourceName(apiVersion, kind);
    const core = groupOf(apiVersion) === '';
    const out: JsonObject[] = [];
    let token: string | undefined;
    do {
      const { items, next } = await this.#call('list', resource, () =>
        core
          ? this.#corePage(apiVersion, kind, namespace, token)
          : this.#customPage(apiVersion, kind, namespace, token),
      );
      // Lists leave apiVersion and kind off their items.
      for (const item of items) out.push({ ...item, apiVersion, kind });
      token = next;
    } while (token !== undefined);
    return out;
  }

  // A page of a core kind (Secrets, workloads), through client-node's typed list.
  async #corePage(
    apiVersion: string,
    kind: string,
    namespace: string | undefined,
    token: string | undefined,
  ) {
    const page = await this.#objects.list(
      apiVersion,
      kind,
      namespace,
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
      this.pageSize,
      token,
    );
    return { items: page.items.map(plain), next: page.metadata?._continue || undefined };
  }

  // A page of a custom resource, as the server sent it. (client-node's generic list reads a
  // custom List's metadata as an object's, which drops `continue`: every list would stop at
  // its first page, and a migration would silently leave the rest of the Machines behind.)
  async #customPage(
    apiVersion: string,
    kind: string,
    namespace: string | undefined,
    token: string | undefined,
  ) {
    const [group = '', version = ''] = apiVersion.split('/');
    const plural = (await this.resource(apiVersion, kind))?.name ?? `${kind.toLowerCase()}s`;
    const request = {
      group,
      version,
      plural,
      limit: this.pageSize,
      ...(token === undefined ? {} : { _continue: token }),
    };
    const raw: { items?: unknown[]; metadata?: { continue?: string } } =
      namespace === undefined
        ? await this.#custom.listCustomObjectForAllNamespaces({ ...request, resourcePlural: plural })
        : await this.#custom.listNamespacedCustomObject({ ...request, namespace });
    return {
      items: (raw.items ?? []).filter(isJsonObject),
      next: raw.metadata?.continue || undefined,
    };
  }

  async get(key: ObjectKey): Promise<JsonObject | undefined> {
    try {
      return plain(await withRetries(() => this.#objects.read(header(key))));
    } catch (error) {
      if (error instanceof ApiException && error.code === 404) return undefined;
      throw this.#failure(error, 'get', await this.#resourceName(key.apiVersion, key.kind), key);
    }
  }

  async create(object: JsonObject, key: ObjectKey, dryRun: boolean): Promise<JsonObject> {
    const created = await this.#call(
      'create',
      await this.#resourceName(key.apiVersion, key.kind),
      () => this.#objects.create(object as KubernetesObject, undefined, dryRun ? 'All' : undefined),
      key,
    );
    if (!dryRun) await this.#wrote('create', key);
    return plain(created);
  }

  /** A JSON merge patch of the object (RFC 7386). */
  async patch(key: ObjectKey, patch: JsonObject, dryRun: boolean): Promise<JsonObject> {
    const patched = await this.#call(
      'patch',
      await this.#resourceName(key.apiVersion, key.kind),
      () =>
        this.#objects.patch(
          withHeader(key, patch),
          undefined,
          dryRun ? 'All' : undefined,
          undefined,
          undefined,
          PatchStrategy.MergePatch,
        ),
      key,
    );
    if (!dryRun) await this.#wrote('patch', key);
    return plain(patched);
  }

  /** A merge patch of the status subresource: what a create leaves out. */
  async patchStatus(key: ObjectKey, status: JsonObject, dryRun: boolean): Promise<void> {
    const resource = await this.resource(key.apiVersion, key.kind);
    if (resource === undefined) {
      throw new MigrateFailure({
        code: 'api',
        verb: 'patch',
        resource: `${key.kind} (${key.apiVersion})`,
        message: `${key.kind} of ${key.apiVersion} is not served`,
      });
    }
    const [group = '', version = ''] = key.apiVersion.split('/');
    await this.#call(
      'patch',
      `${resource.name}/status.${group}`,
      () =>
        this.#custom.patchNamespacedCustomObjectStatus(
          {
            group,
            version,
            plural: resource.name,
            namespace: key.namespace ?? 'default',
            name: key.name,
            body: { status },
            ...(dryRun ? { dryRun: 'All' } : {}),
          },
          setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
        ),
      key,
    );
    if (!dryRun) await this.#wrote('patch status', key);
  }

  /**
   * Deletes the object only if it is still the one with `uid`, unchanged since
   * `resourceVersion` (preconditions: a 409 otherwise). Gone already is not an error.
   */
  async delete(key: ObjectKey, uid: string, resourceVersion: string): Promise<void> {
    try {
      await withRetries(() =>
        this.#objects.delete(header(key), undefined, undefined, undefined, undefined, undefined, {
          preconditions: { uid, resourceVersion },
        }),
      );
    } catch (error) {
      if (error instanceof ApiException && error.code === 404) return;
      throw this.#failure(error, 'delete', await this.#resourceName(key.apiVersion, key.kind), key);
    }
    await this.#wrote('delete', key);
  }

  /** Whether the current user may `verb` the resource (a SelfSubjectAccessReview). */
  async allowed(
    verb: string,
    apiVersion: string,
    plural: string,
    namespace: string | undefined,
    subresource?: string,
  ): Promise<boolean> {
    const review = await this.#call('create', 'selfsubjectaccessreviews.authorization.k8s.io', () =>
      this.#authorization.createSelfSubjectAccessReview({
        body: {
          spec: {
            resourceAttributes: {
              verb,
              group: groupOf(apiVersion),
              resource: plural,
              ...(subresource === undefined ? {} : { subresource }),
              ...(namespace === undefined ? {} : { namespace }),
            },
          },
        },
      }),
    );
    return review.status?.allowed === true;
  }

  async #resourceName(apiVersion: string, kind: string): Promise<string> {
    const group = groupOf(apiVersion);
    const resource = await this.resource(apiVersion, kind).catch(() => undefined);
    const plural = resource?.name ?? `${kind.toLowerCase()}s`;
    return group === '' ? plural : `${plural}.${group}`;
  }

  async #call<T>(verb: string, resource: string, run: () => Promise<T>, key?: ObjectKey): Promise<T> {
    try {
      return await withRetries(run);
    } catch (error) {
      throw this.#failure(error, verb, resource, key);
    }
  }

  #failure(error: unknown, verb: string, resource: string, key?: ObjectKey): MigrateFailure {
    if (error instanceof MigrateFailure) return error;
    const where = key === undefined ? '' : ` ${labelOf(key)}`;
    if (error instanceof ApiException) {
      return new MigrateFailure({
        code: 'api',
        status: error.code,
        verb,
        resource,
        message: `${verb} ${resource}${where}: ${error.code} ${serverMessage(error)}`,
      });
    }
    // fetch says only "fetch failed"; why (ECONNREFUSED, a timeout, a TLS error) is its cause.
    const cause = error instanceof Error ? (error as { cause?: unknown }).cause : undefined;
    const text = error instanceof Error ? error.message : String(error);
    const why = cause instanceof Error && cause.message !== '' ? `${text}: ${cause.message}` : text;
    return new MigrateFailure({
      code: 'api',
      verb,
      resource,
      message: `${verb} ${resource}${where}: ${why}`,
    });
  }

  async #wrote(verb: Write['verb'], object: ObjectKey): Promise<void> {
    this.#writes += 1;
    try {
      await this.afterWrite?.({ verb, object, count: this.#writes });
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      throw new MigrateFailure({
        code: 'interrupted',
        message: `stopped after write ${this.#writes} (${verb} ${labelOf(object)}): ${reason}`,
      });
    }
  }
}

function header(key: ObjectKey): KubernetesObject & { metadata: { name: string } } {
  return {
    apiVersion: key.apiVersion,
    kind: key.kind,
    metadata: { name: key.name, ...(key.namespace === undefined ? {} : { namespace: key.namespace }) },
  };
}

/** A patch body that also names the object (client-node finds the URL from it). */
function withHeader(key: ObjectKey, patch: JsonObject): KubernetesObject {
  const target = header(key);
  const metadata = typeof patch.metadata === 'object' && patch.metadata !== null ? patch.metadata : {};
  return { ...patch, ...target, metadata: { ...metadata, ...target.metadata } } as KubernetesObject;
}

/** client-node returns class instances (with Date objects) for core kinds: back to JSON. */
function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function plain(value: unknown): JsonObject {
  return JSON.parse(JSON.stringify(value)) as JsonObject;
}
