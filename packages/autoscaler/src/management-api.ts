/**
 * The management-cluster calls node groups make: which Cluster API version is served,
 * lists for the caches, the scale subresource, and Machine reads and replaces. Every
 * failure becomes a NodeGroupError naming the operation and the server's own words.
 */
import { type CapiClient, type ClientError, connect } from '@capi-kit/client';
import { isPlainObject } from '@capi-kit/core/objects';
import {
  ApiException,
  ApisApi,
  CustomObjectsApi,
  type KubeConfig,
  type V1APIGroup,
} from '@kubernetes/client-node';
import { apiGroupsAnswer, objectAnswer, scaleAnswer } from './answers.js';
import { NodeGroupError } from './errors.js';
import type { InfrastructureRef } from './infrastructure-template.js';
import { templatePluralOf } from './infrastructure-template.js';
import { capiGroup, legacyCapiGroup } from './keys.js';
import type { KubeObject } from './objects.js';
import type { ScalableKind } from './snapshot.js';

/** The served Cluster API group and version, and whether it serves MachineDeployments. */
export interface CapiApi {
  readonly group: string;
  readonly version: string;
  /** `group/version`. */
  readonly apiVersion: string;
  readonly machineDeployments: boolean;
}

const plurals: Readonly<Record<ScalableKind | 'Machine', string>> = {
  Machine: 'machines',
  MachineSet: 'machinesets',
  MachineDeployment: 'machinedeployments',
};

/** The autoscaling/v1 Scale fields used here. */
export interface Scale {
  readonly metadata?: { readonly resourceVersion?: string };
  readonly spec?: { readonly replicas?: number };
  readonly status?: unknown;
}

export const statusOf = (error: unknown): number | undefined =>
  error instanceof ApiException
    ? error.code
    : error instanceof NodeGroupError
      ? error.details.status
      : undefined;

export const isConflict = (error: unknown) => statusOf(error) === 409;
export const isNotFound = (error: unknown) => statusOf(error) === 404;

function serverMessage(body: unknown): string | undefined {
  let parsed = body;
  if (typeof body === 'string') {
    try {
      parsed = JSON.parse(body);
    } catch {
      return body.trim() === '' ? undefined : body.slice(0, 500);
    }
  }
  return isPlainObject(parsed) && typeof parsed.message === 'string' ? parsed.message : undefined;
}

/** Runs one API call; any failure becomes an `api-error` naming `operation`. */
export async function apiCall<T>(operation: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof NodeGroupError) throw error;
    if (error instanceof ApiException) {
      const detail = serverMessage(error.body) ?? `HTTP ${error.code}`;
      throw new NodeGroupError(
        'api-error',
        `${operation}: ${detail} (HTTP ${error.code})`,
        { status: error.code },
        {
          cause: error,
        },
      );
    }
    const cause = error instanceof Error && error.cause instanceof Error ? ` (${error.cause.message})` : '';
    const text = error instanceof Error ? error.message : String(error);
    throw new NodeGroupError(
      'api-error',
      `${operation}: cannot reach the API server: ${text}${cause}`,
      {},
      {
        cause: error,
      },
    );
  }
}

/** A `@capi-kit/client` error as a NodeGroupError (`api-error`, with the HTTP status). */
export function fromClientError(error: ClientError): NodeGroupError {
  return new NodeGroupError('api-error', error.message, {
    status: 'status' in error ? error.status : undefined,
  });
}

const hasScalables = (kinds: readonly string[]) => kinds.includes('Machine') && kinds.includes('MachineSet');

/**
 * Connects with `@capi-kit/client` and picks the Cluster API version to use:
 * `apiVersion` when given, else the preferred version of `cluster.x-k8s.io`, else of
 * `cluster.k8s.io` (v0.1). Whether it serves MachineDeployments comes from discovery, as
 * in cluster-autoscaler ≥ 1.19: without them only MachineSets are groups.
 */
export async function resolveCapiApi(
  kubeConfig: KubeConfig,
  apiVersion?: string,
): Promise<{ capi: CapiApi; client: CapiClient }> {
  if (apiVersion !== undefined) {
    const slash = apiVersion.indexOf('/');
    if (slash <= 0 || slash === apiVersion.length - 1 || apiVersion.indexOf('/', slash + 1) >= 0)
      throw new NodeGroupError(
        'invalid-options',
        `apiVersion must be GROUP/VERSION (got ${JSON.stringify(apiVersion)})`,
        { path: 'apiVersion' },
      );
  }
  const connected = await connect(kubeConfig);
  if (connected._tag === 'Left') throw fromClientError(connected.left);
  const client = connected.right;
  const { served } = client.discovery;
  const chosen =
    apiVersion !== undefined
      ? served.find((v) => v.apiVersion === apiVersion)
      : // Per group, the preferred version first; only versions serving Machines and
        // MachineSets qualify (a group may hold just Clusters, e.g. mid-migration).
        [capiGroup, legacyCapiGroup]
          .map((group) =>
            served
              .filter((v) => v.apiVersion.startsWith(`${group}/`) && hasScalables(v.kinds))
              .sort((a, b) => Number(b.preferred) - Number(a.preferred)),
          )
          .map((versions) => versions[0])
          .find((v) => v !== undefined);
  if (chosen === undefined || !hasScalables(chosen.kinds)) {
    const list = served.map((v) => v.apiVersion).join(', ') || 'none';
    throw new NodeGroupError(
      'api-error',
      apiVersion !== undefined
        ? `the management cluster does not serve Machines and MachineSets at ${apiVersion} (Cluster API versions served: ${list})`
        : served.length === 0
          ? `the management cluster serves no Cluster API group (neither ${capiGroup} nor ${legacyCapiGroup})`
          : `the management cluster serves no Cluster API version with both Machines and MachineSets (served: ${list})`,
    );
  }
  const [group, version] = chosen.apiVersion.split('/') as [string, string];
  return {
    capi: {
      group,
      version,
      apiVersion: chosen.apiVersion,
      machineDeployments: chosen.kinds.includes('MachineDeployment'),
    },
    client,
  };
}

export class ManagementApi {
  readonly #api: CustomObjectsApi;
  readonly #apis: ApisApi;

  constructor(
    readonly kubeConfig: KubeConfig,
    readonly capi: CapiApi,
  ) {
    this.#api = kubeConfig.makeApiClient(CustomObjectsApi);
    this.#apis = kubeConfig.makeApiClient(ApisApi);
  }

  /**
   * The infrastructure machine template a reference names, in its namespace. The resource is
   * the kind lower-cased plus `s`, as cluster-autoscaler; with `apiGroup` (v1beta2) the
   * group's preferred version is read from discovery first (upstream's
   * getKindPreferredVersion). Failures are `api-error`s with the status (404 when the
   * template or its kind is not served, 403 without get on it).
   */
  async getInfrastructureTemplate(ref: InfrastructureRef): Promise<KubeObject> {
    const what = `get ${ref.kind} ${ref.namespace}/${ref.name}`;
    let group: string;
    let version: string;
    if (ref.apiGroup !== undefined) {
      group = ref.apiGroup;
      const discover = `${what}: discover the preferred version of ${group}`;
      const groups = apiGroupsAnswer(
        await apiCall(discover, () => this.#apis.getAPIVersions()),
        discover,
      ) as readonly (V1APIGroup | undefined)[];
      const preferred = groups.find((g) => g?.name === group)?.preferredVersion?.version;
      if (preferred === undefined)
        throw new NodeGroupError('api-error', `${what}: the API group ${group} is not served`, {
          status: 404,
        });
      version = preferred;
    } else {
      [group, version] = ref.apiVersion!.split('/') as [string, string];
    }
    const template = await apiCall(what, () =>
      this.#api.getNamespacedCustomObject({
        group,
        version,
        plural: templatePluralOf(ref.kind),
        namespace: ref.namespace,
        name: ref.name,
      }),
    );
    // (its status is the capacity of the group's new nodes: another template's is not)
    return objectAnswer(
      template,
      what,
      { apiVersion: `${group}/${version}`, kind: ref.kind, namespace: ref.namespace, name: ref.name },
      { uid: true },
    );
  }

  #target(kind: ScalableKind | 'Machine', namespace: string, name: string) {
    const { group, version } = this.capi;
    return { group, version, plural: plurals[kind], namespace, name };
  }

  /**
   * The scale of `kind` `namespace`/`name`, checked to be it (scaleAnswer): its replicas are
   * decided on and written back, conditional on its resourceVersion.
   */
  async getScale(kind: ScalableKind, namespace: string, name: string): Promise<Scale> {
    const request = `get scale of ${kind} ${namespace}/${name}`;
    const scale = await apiCall(request, () =>
      this.#api.getNamespacedCustomObjectScale(this.#target(kind, namespace, name)),
    );
    return scaleAnswer(scale, request, namespace, name) as Scale;
  }

  /** Replaces the scale; the Scale's resourceVersion is the precondition (409 when stale). */
  replaceScale(kind: ScalableKind, namespace: string, name: string, scale: Scale): Promise<Scale> {
    return apiCall(`update scale of ${kind} ${namespace}/${name}`, () =>
      this.#api.replaceNamespacedCustomObjectScale({ ...this.#target(kind, namespace, name), body: scale }),
    );
  }

  /**
   * The Machine `namespace`/`name`, checked to be it, with a uid and a resourceVersion
   * (objectAnswer): it is compared with the Machine resolved, then marked for deletion.
   */
  async getMachine(namespace: string, name: string): Promise<KubeObject> {
    const request = `get Machine ${namespace}/${name}`;
    const machine = await apiCall(request, () =>
      this.#api.getNamespacedCustomObject(this.#target('Machine', namespace, name)),
    );
    return objectAnswer(
      machine,
      request,
      { apiVersion: this.capi.apiVersion, kind: 'Machine', namespace, name },
      { uid: true },
    );
  }

  /** Replaces a Machine; its resourceVersion is the precondition (409 when stale). */
  replaceMachine(namespace: string, name: string, machine: KubeObject): Promise<KubeObject> {
    return apiCall(`update Machine ${namespace}/${name}`, () =>
      this.#api.replaceNamespacedCustomObject({ ...this.#target('Machine', namespace, name), body: machine }),
    );
  }
}
