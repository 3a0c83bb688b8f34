import type { JsonObject } from '@capi-kit/conversion';
import {
  ApiException,
  AuthorizationV1Api,
  CustomObjectsApi,
  HttpMethod,
  type KubeConfig,
  type KubernetesObject,
  KubernetesObjectApi,
  PatchStrategy,
  type ResponseContext,
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

/** The type an answer is asked for as the server sent it (see ObjectApi.processResponse). */
const AS_SENT = 'capi-kit:as-sent';

/**
 * client-node's generic object API, with discovery and reads of the server's answers as it
 * sent them: client-node's typed decoding turns an answer of the wrong shape into objects
 * with fields missing (an HTML page into an empty list) or throws a TypeError. Each answer
 * is checked here and refused, naming what was expected and what was found.
 */
class ObjectApi extends KubernetesObjectApi {
  readonly #resources = new Map<string, V1APIResource[]>();

  /** A GET of `path`: the parsed JSON of a 2xx answer, the text of any other type; ApiException otherwise. */
  getAnswer(path: string, query: Readonly<Record<string, string>> = {}): Promise<unknown> {
    const context = this.configuration.baseServer.makeRequestContext(path, HttpMethod.GET);
    context.setHeaderParam('Accept', 'application/json, */*;q=0.8');
    for (const [name, value] of Object.entries(query)) context.setQueryParam(name, value);
    return this.requestPromise(context, AS_SENT) as Promise<unknown>;
  }

  // An answer asked for AS_SENT is parsed, not decoded: client-node's decoding reads a List
  // as an object (its metadata as an object's: `continue` dropped, a string made `{}`).
  protected override async processResponse<T extends KubernetesObject>(
    response: ResponseContext,
    type?: string,
  ): Promise<T> {
    const ok = response.httpStatusCode >= 200 && response.httpStatusCode <= 299;
    if (type !== AS_SENT || !ok) return super.processResponse<T>(response, type);
    const text = await response.body.text();
    const contentType = String(response.headers['content-type'] ?? '').toLowerCase();
    // (`application/json`, `application/merge-patch+json`, …: JSON; anything else is text)
    return (/^application\/([^;]*\+)?json\b/.test(contentType.trim()) ? JSON.parse(text) : text) as T;
  }

  /** client-node's discovery (also what read, create, patch and delete find their URL with), checked. */
  protected override async resource(apiVersion: string, kind: string): Promise<V1APIResource | undefined> {
    const cached = this.#resources.get(apiVersion)?.find((r) => r.kind === kind);
    if (cached !== undefined) return cached;
    const path = this.apiVersionPath(apiVersion);
    const answer = await this.getAnswer(path);
    const resources = checkedResources(answer, `get ${path}`);
    this.#resources.set(apiVersion, resources);
    return resources.find((r) => r.kind === kind);
  }

  resourceOf(apiVersion: string, kind: string): Promise<V1APIResource | undefined> {
    return this.resource(apiVersion, kind);
  }

  /** The path of a kind's collection, in a namespace or in all of them. */
  collectionPath(apiVersion: string, plural: string, namespace: string | undefined): string {
    const where = namespace === undefined ? '' : `/namespaces/${encodeURIComponent(namespace)}`;
    return `${this.apiVersionPath(apiVersion)}${where}/${encodeURIComponent(plural)}`;
  }
}

/** What a value of a server's answer is, for a message: `a string ("<html>…")`, `null`, `an array`. */
function describeFound(value: unknown): string {
  if (value === undefined) return 'missing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') {
    const text = value.length > 60 ? `${value.slice(0, 60)}…` : value;
    return `a string (${JSON.stringify(text)})`;
  }
  if (typeof value === 'object') return 'an object';
  return `${typeof value === 'number' ? 'the number' : `the ${typeof value}`} ${String(value)}`;
}

/** A server's answer that is not the Kubernetes API answer asked for: an API error (exit 3 in the CLI). */
function malformed(
  request: string,
  what: string,
  path: string,
  expected: string,
  found: unknown,
): MigrateFailure {
  const [verb = request, ...rest] = request.split(' ');
  const where = path === '' ? 'the answer' : path;
  return new MigrateFailure({
    code: 'api',
    verb,
    resource: rest.join(' '),
    message: `${request}: the API server's answer is not ${what}: ${where} is ${describeFound(found)}, expected ${expected}`,
  });
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The resources of an APIResourceList (`/apis/<group>/<version>`), each with a string name and kind. */
function checkedResources(answer: unknown, request: string): V1APIResource[] {
  const what = 'an APIResourceList';
  if (!isRecord(answer)) throw malformed(request, what, '', 'an object', answer);
  const { resources } = answer;
  if (!Array.isArray(resources)) throw malformed(request, what, 'resources', 'an array', resources);
  for (const [i, resource] of resources.entries()) {
    if (!isRecord(resource)) throw malformed(request, what, `resources[${i}]`, 'an object', resource);
    for (const field of ['name', 'kind'] as const) {
      if (typeof resource[field] !== 'string')
        throw malformed(request, what, `resources[${i}].${field}`, 'a string', resource[field]);
    }
  }
  return resources as V1APIResource[];
}

/** `group/version` of every version of an APIGroupList (`/apis`). */
function checkedGroupVersions(answer: unknown, request: string): string[] {
  const what = 'an APIGroupList';
  if (!isRecord(answer)) throw malformed(request, what, '', 'an object', answer);
  const { groups } = answer;
  if (!Array.isArray(groups)) throw malformed(request, what, 'groups', 'an array', groups);
  const out: string[] = [];
  for (const [i, group] of groups.entries()) {
    if (!isRecord(group)) throw malformed(request, what, `groups[${i}]`, 'an object', group);
    const { versions } = group;
    if (!Array.isArray(versions))
      throw malformed(request, what, `groups[${i}].versions`, 'an array', versions);
    for (const [j, version] of versions.entries()) {
      const path = `groups[${i}].versions[${j}]`;
      if (!isRecord(version)) throw malformed(request, what, path, 'an object', version);
      if (typeof version.groupVersion !== 'string')
        throw malformed(request, what, `${path}.groupVersion`, 'a string', version.groupVersion);
      out.push(version.groupVersion);
    }
  }
  return out;
}

/** One page of a List: its items (each an object) and its continue token (a string, '' or none at the end). */
function checkedPage(answer: unknown, request: string): { items: JsonObject[]; next: string | undefined } {
  const what = 'a Kubernetes List';
  if (!isRecord(answer)) throw malformed(request, what, '', 'an object', answer);
  const { items, metadata } = answer;
  if (!Array.isArray(items)) throw malformed(request, what, 'items', 'an array', items);
  for (const [i, item] of items.entries()) {
    if (!isRecord(item)) throw malformed(request, what, `items[${i}]`, 'an object', item);
  }
  if (metadata !== undefined && !isRecord(metadata))
    throw malformed(request, what, 'metadata', 'an object', metadata);
  const token = metadata?.continue;
  if (token !== undefined && typeof token !== 'string')
    throw malformed(request, what, 'metadata.continue', 'a string', token);
  return { items: items as JsonObject[], next: token === undefined || token === '' ? undefined : token };
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
    this.#authorization = kubeConfig.makeApiClient(AuthorizationV1Api);
  }

  /** `group/version` of every served API group version. */
  async servedGroupVersions(): Promise<Set<string>> {
    const answer = await this.#call('list', 'apigroups', () => this.#objects.getAnswer('/apis'));
    return new Set(checkedGroupVersions(answer, 'list apigroups'));
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

  /**
   * Every object of a kind (all pages), in one namespace or all of them, as the server sent
   * them. (client-node's generic list reads a custom List's metadata as an object's, which
   * drops `continue`: every list would stop at its first page.) A page that is not a List, or
   * a continue token handed back again (a list that would never end), is refused.
   */
  async list(apiVersion: string, kind: string, namespace?: string): Promise<JsonObject[]> {
    const resource = await this.#resourceName(apiVersion, kind);
    const plural = (await this.resource(apiVersion, kind))?.name ?? `${kind.toLowerCase()}s`;
    const path = this.#objects.collectionPath(apiVersion, plural, namespace);
    const request = `list ${resource}`;
    const out: JsonObject[] = [];
    const seen = new Set<string>();
    let token: string | undefined;
    for (let page = 1; ; page++) {
      const query: Record<string, string> = {
        limit: String(this.pageSize),
        ...(token === undefined ? {} : { continue: token }),
      };
      const answer = await this.#call('list', resource, () => this.#objects.getAnswer(path, query));
      const { items, next } = checkedPage(answer, request);
      // Lists leave apiVersion and kind off their items.
      for (const item of items) out.push({ ...item, apiVersion, kind });
      if (next === undefined) return out;
      if (seen.has(next)) {
        throw new MigrateFailure({
          code: 'api',
          verb: 'list',
          resource,
          message: `${request}: the API server's answer is not a Kubernetes List: metadata.continue of page ${page} is a token an earlier page gave (${JSON.stringify(next.length > 60 ? `${next.slice(0, 60)}…` : next)}), expected a new one: the list would never end`,
        });
      }
      seen.add(next);
      token = next;
    }
  }

  async get(key: ObjectKey): Promise<JsonObject | undefined> {
    try {
      const read = await withRetries(() => this.#objects.read(header(key)));
      return objectAnswer(
        read,
        `get ${await this.#resourceName(key.apiVersion, key.kind)} ${labelOf(key)}`,
        key,
      );
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
    return objectAnswer(
      created,
      `create ${await this.#resourceName(key.apiVersion, key.kind)} ${labelOf(key)}`,
      key,
    );
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
    return objectAnswer(
      patched,
      `patch ${await this.#resourceName(key.apiVersion, key.kind)} ${labelOf(key)}`,
      key,
    );
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
    const answer: unknown = review;
    const request = 'create selfsubjectaccessreviews.authorization.k8s.io';
    const what = 'a SelfSubjectAccessReview';
    if (!isRecord(answer)) throw malformed(request, what, '', 'an object', answer);
    if (!isRecord(answer.status)) throw malformed(request, what, 'status', 'an object', answer.status);
    const { allowed } = answer.status;
    if (typeof allowed !== 'boolean') throw malformed(request, what, 'status.allowed', 'a boolean', allowed);
    return allowed;
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
    // (a 2xx answer client-node could not read: `application/json` that is not JSON)
    const text =
      error instanceof SyntaxError
        ? `the API server's answer is not JSON: ${error.message}`
        : error instanceof Error
          ? error.message
          : String(error);
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

/**
 * The object the server answered with, as JSON (client-node returns class instances, with
 * Date objects, for core kinds), when it is the object asked for: its apiVersion, kind, name
 * and namespace, and a uid. Anything else (a text page, `null`, `{}`, another object) is
 * refused. Apply makes the owner references of what it creates next from this answer's uid:
 * taken unchecked, an answer without one gave them `uid: ""` (refused by the server half way
 * through), and another object's answer made them name that object as their owner.
 */
function objectAnswer(value: unknown, request: string, key: ObjectKey): JsonObject {
  const json: unknown = value === undefined ? undefined : JSON.parse(JSON.stringify(value));
  const what = `the ${key.kind} asked for`;
  if (!isRecord(json)) throw malformed(request, what, '', 'an object', value);
  const metadata = json.metadata;
  if (!isRecord(metadata)) throw malformed(request, what, 'metadata', 'an object', metadata);
  const expected: readonly [string, unknown, string | undefined][] = [
    ['apiVersion', json.apiVersion, key.apiVersion],
    ['kind', json.kind, key.kind],
    ['metadata.name', metadata.name, key.name],
    ['metadata.namespace', metadata.namespace, key.namespace],
  ];
  for (const [path, found, wanted] of expected) {
    if (wanted !== undefined && found !== wanted)
      throw malformed(request, what, path, JSON.stringify(wanted), found);
  }
  if (typeof metadata.uid !== 'string' || metadata.uid === '')
    throw malformed(request, what, 'metadata.uid', 'a non-empty string', metadata.uid);
  return json as JsonObject;
}
