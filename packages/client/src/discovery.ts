import { ApisApi, CustomObjectsApi, type KubeConfig } from '@kubernetes/client-node';
import * as E from 'fp-ts/lib/Either.js';
import { type ClientError, clientErrorFrom } from './errors.js';
import { API_VERSIONS, CAPI_GROUPS, type CapiKind, KINDS, kindsOf } from './resources.js';

/** A Cluster API version the server serves and the client types. */
export interface ServedVersion {
  readonly apiVersion: string;
  /** The kinds of this version the server serves (a cluster may lack MachineDeployments). */
  readonly kinds: readonly CapiKind[];
  /** Whether it is the group's preferred version on this server. */
  readonly preferred: boolean;
}

/** A version served under a Cluster API group that this client has no codecs for. */
export interface UnknownVersion {
  readonly apiVersion: string;
  readonly message: string;
}

/** What the server serves of Cluster API. */
export interface Discovery {
  readonly served: readonly ServedVersion[];
  /** Reported, not fatal: typed access is only offered for `served`. */
  readonly unknown: readonly UnknownVersion[];
}

const pluralToKind = new Map<string, CapiKind>(
  (Object.entries(KINDS) as [CapiKind, { plural: string }][]).map(([kind, row]) => [row.plural, kind]),
);

/**
 * Asks the server which Cluster API groups and versions it serves (`/apis`), then which
 * kinds each known version serves (`/apis/<group>/<version>`).
 */
export async function discover(kubeConfig: KubeConfig): Promise<E.Either<ClientError, Discovery>> {
  const target = { apiVersion: 'v1', kind: 'APIGroupList' };
  let groups: Awaited<ReturnType<ApisApi['getAPIVersions']>>;
  try {
    groups = await kubeConfig.makeApiClient(ApisApi).getAPIVersions();
  } catch (error) {
    return E.left(clientErrorFrom(error, target, 'discover'));
  }
  const api = kubeConfig.makeApiClient(CustomObjectsApi);
  const served: ServedVersion[] = [];
  const unknown: UnknownVersion[] = [];
  for (const group of groups.groups ?? []) {
    if (!CAPI_GROUPS.includes(group.name)) continue;
    for (const version of group.versions ?? []) {
      const apiVersion = version.groupVersion;
      const known = API_VERSIONS.some((row) => row.apiVersion === apiVersion);
      if (!known) {
        unknown.push({
          apiVersion,
          message: `${apiVersion} is served but not typed by this client (it knows ${API_VERSIONS.map((r) => r.apiVersion).join(', ')})`,
        });
        continue;
      }
      let resources: Awaited<ReturnType<CustomObjectsApi['getAPIResources']>>;
      try {
        resources = await api.getAPIResources({ group: group.name, version: version.version });
      } catch (error) {
        return E.left(clientErrorFrom(error, { apiVersion, kind: 'APIResourceList' }, 'discover'));
      }
      const servedKinds = new Set(
        (resources.resources ?? []).map((r) => pluralToKind.get(r.name)).filter((k) => k !== undefined),
      );
      served.push({
        apiVersion,
        kinds: kindsOf(apiVersion).filter((kind) => servedKinds.has(kind)),
        preferred: group.preferredVersion?.groupVersion === apiVersion,
      });
    }
  }
  // Table order (oldest first), whatever order the server listed them in.
  const order = (v: string) => API_VERSIONS.findIndex((row) => row.apiVersion === v);
  served.sort((a, b) => order(a.apiVersion) - order(b.apiVersion));
  return E.right({ served, unknown });
}
