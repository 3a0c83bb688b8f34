import { isObject, type JsonObject, stashedFor, V1ALPHA1 } from '@capi-kit/conversion';
import type { ClusterApi } from './cluster-api.js';
import { keyOf, metadataOf, uidOf } from './object.js';

/**
 * The v1alpha1 kinds a migration reads, in the order their objects are converted and
 * created (owners before what they own). MachineClasses are read so the objects that use
 * them convert; v1alpha2 has no such kind, so none is created.
 */
export const SOURCE_KINDS = [
  'Cluster',
  'MachineClass',
  'MachineDeployment',
  'MachineSet',
  'Machine',
] as const;
export type SourceKind = (typeof SOURCE_KINDS)[number];

/** Where to look: one namespace, or every namespace. */
export type Scope = { readonly namespace: string } | { readonly allNamespaces: true };

/** What a management cluster holds of v1alpha1, and the Secrets that belong to its Clusters. */
export interface Inventory {
  /** v1alpha1 objects, by kind in SOURCE_KINDS order. */
  readonly objects: readonly JsonObject[];
  /** Secrets tied to a v1alpha1 Cluster, with the Cluster's name. */
  readonly secrets: readonly { readonly secret: JsonObject; readonly cluster: string }[];
  /** Secrets only named like a Cluster's (`<cluster>-…`): reported, never re-owned. */
  readonly lookalikes?: readonly { readonly secret: JsonObject; readonly cluster: string }[];
}

/** A DNS-1123 label, as the API server requires of a namespace's name. */
const NAMESPACE_NAME = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;

/**
 * Why a scope cannot be used, or undefined. The namespace goes into every request path:
 * `..` would address the cluster-wide collection (every namespace), `a/b` another resource,
 * and `''` no namespace at all. A scope is one namespace or every namespace, never both,
 * and `allNamespaces` must be `true` (`false` is not a namespace either).
 */
export function scopeProblem(scope: unknown): { path: string; message: string } | undefined {
  if (typeof scope !== 'object' || scope === null)
    return { path: 'scope', message: 'scope must be { namespace } or { allNamespaces: true }' };
  const { namespace, allNamespaces } = scope as { namespace?: unknown; allNamespaces?: unknown };
  const hasNamespace = Object.hasOwn(scope, 'namespace');
  if (hasNamespace && Object.hasOwn(scope, 'allNamespaces'))
    return { path: 'scope', message: 'scope gives both namespace and allNamespaces: give one' };
  if (hasNamespace) {
    if (typeof namespace === 'string' && namespace.length <= 63 && NAMESPACE_NAME.test(namespace))
      return undefined;
    return {
      path: 'scope.namespace',
      message: `scope.namespace ${JSON.stringify(namespace) ?? String(namespace)} is not a namespace name (lowercase letters, digits and '-', at most 63 characters, starting and ending with a letter or digit)`,
    };
  }
  if (allNamespaces === true) return undefined;
  return {
    path: 'scope.allNamespaces',
    message: `scope.allNamespaces must be true (got ${JSON.stringify(allNamespaces) ?? String(allNamespaces)}); for one namespace give scope.namespace`,
  };
}

/** The namespace of a one-namespace scope; undefined for every namespace. */
export function namespaceOf(scope: Scope): string | undefined {
  return 'namespace' in scope ? scope.namespace : undefined;
}

/** Service-account tokens belong to the namespace's service accounts, never to a Cluster. */
const SKIPPED_SECRET_TYPES = new Set(['kubernetes.io/service-account-token']);

/** The Secrets Cluster API keeps for a Cluster: `<cluster>-<purpose>`. */
export const CLUSTER_SECRET_PURPOSES = ['kubeconfig', 'ca', 'etcd', 'proxy', 'sa', 'apiserver-etcd-client'];

/**
 * The Clusters a Secret is judged against, indexed once: per namespace, their names and
 * their UIDs. Judging each Secret against the whole list instead costs secrets × clusters,
 * minutes for a management cluster with thousands of Clusters in one namespace.
 */
export interface ClusterIndex {
  /** namespace → Cluster names. */
  readonly names: ReadonlyMap<unknown, ReadonlySet<string>>;
  /** namespace → Cluster UID → Cluster name. */
  readonly uids: ReadonlyMap<unknown, ReadonlyMap<string, string>>;
}

export function clusterIndex(clusters: readonly JsonObject[]): ClusterIndex {
  const names = new Map<unknown, Set<string>>();
  const uids = new Map<unknown, Map<string, string>>();
  for (const cluster of clusters) {
    const namespace = metadataOf(cluster).namespace;
    const name = keyOf(cluster).name;
    const uid = uidOf(cluster);
    if (!names.has(namespace)) names.set(namespace, new Set());
    names.get(namespace)!.add(name);
    if (uid === undefined) continue;
    if (!uids.has(namespace)) uids.set(namespace, new Map());
    // (the first of a UID wins, as a search of the list would find it)
    if (!uids.get(namespace)!.has(uid)) uids.get(namespace)!.set(uid, name);
  }
  return { names, uids };
}

const NO_NAMES: ReadonlySet<string> = new Set();

/**
 * The Cluster a Secret belongs to: the one it names in an ownerReference, else the one it is
 * a Cluster API Secret of by name (`prod-eu-kubeconfig` is `prod-eu`'s), else the one the
 * conversion made it for (a vSphere Cluster's credentials: `<cluster>-…` holding
 * `conversion.capi-kit.dev-for`, which a re-run finds owned by the new Cluster). Re-owning makes
 * the Secret go when the Cluster is deleted, so a Secret merely named `<cluster>-…` (an
 * application's `prod-eu-db-password`) is not the Cluster's: see `namedLikeCluster`. Given
 * the Clusters as a list, it indexes them first: to judge many Secrets, pass `clusterIndex(clusters)`.
 */
export function owningCluster(
  secret: JsonObject,
  clusters: readonly JsonObject[] | ClusterIndex,
): string | undefined {
  const index = Array.isArray(clusters) ? clusterIndex(clusters) : (clusters as ClusterIndex);
  const metadata = metadataOf(secret);
  const uids = index.uids.get(metadata.namespace);
  const refs = Array.isArray(metadata.ownerReferences) ? metadata.ownerReferences.filter(isObject) : [];
  for (const ref of refs) {
    const owner = typeof ref.uid === 'string' ? uids?.get(ref.uid) : undefined;
    if (owner !== undefined) return owner;
  }
  const name = String(metadata.name ?? '');
  const names = index.names.get(metadata.namespace) ?? NO_NAMES;
  for (const purpose of CLUSTER_SECRET_PURPOSES) {
    const cluster = name.endsWith(`-${purpose}`) ? name.slice(0, -(purpose.length + 1)) : undefined;
    if (cluster !== undefined && names.has(cluster)) return cluster;
  }
  const madeFor = stashedFor(secret.data);
  if (madeFor !== undefined && names.has(madeFor) && name.startsWith(`${madeFor}-`)) return madeFor;
  return undefined;
}

/** The Cluster whose name is the longest `<cluster>-` prefix of the Secret's name, if any. */
export function namedLikeCluster(
  secret: JsonObject,
  clusters: readonly JsonObject[] | ClusterIndex,
): string | undefined {
  const index = Array.isArray(clusters) ? clusterIndex(clusters) : (clusters as ClusterIndex);
  const metadata = metadataOf(secret);
  const name = String(metadata.name ?? '');
  const names = index.names.get(metadata.namespace) ?? NO_NAMES;
  // Every `-` of the name ends a candidate prefix; the last one that names a Cluster is the longest.
  for (let at = name.lastIndexOf('-'); at >= 0; at = at === 0 ? -1 : name.lastIndexOf('-', at - 1)) {
    if (names.has(name.slice(0, at))) return name.slice(0, at);
  }
  return undefined;
}

/** Reads every v1alpha1 object in scope and the Secrets of their Clusters. */
export async function readInventory(api: ClusterApi, scope: Scope): Promise<Inventory> {
  const namespace = namespaceOf(scope);
  const objects: JsonObject[] = [];
  for (const kind of SOURCE_KINDS) {
    const items = await api.list(V1ALPHA1, kind, namespace);
    items.sort((a, b) => label(a).localeCompare(label(b)));
    // (not `push(...items)`: spreading 100,000s of arguments overflows the stack)
    for (const item of items) objects.push(item);
  }
  const clusters = objects.filter((o) => o.kind === 'Cluster');
  const index = clusterIndex(clusters);
  const secrets: { secret: JsonObject; cluster: string }[] = [];
  const lookalikes: { secret: JsonObject; cluster: string }[] = [];
  const namespaces = [...new Set(clusters.map((c) => String(metadataOf(c).namespace ?? 'default')))].sort();
  for (const ns of namespaces) {
    for (const secret of await api.list('v1', 'Secret', ns)) {
      if (SKIPPED_SECRET_TYPES.has(String(secret.type ?? ''))) continue;
      const cluster = owningCluster(secret, index);
      if (cluster !== undefined) secrets.push({ secret, cluster });
      else {
        const like = namedLikeCluster(secret, index);
        if (like !== undefined) lookalikes.push({ secret, cluster: like });
      }
    }
  }
  secrets.sort((a, b) => label(a.secret).localeCompare(label(b.secret)));
  lookalikes.sort((a, b) => label(a.secret).localeCompare(label(b.secret)));
  return { objects, secrets, lookalikes };
}

function label(object: JsonObject): string {
  const key = keyOf(object);
  return `${key.namespace ?? ''}/${key.name}`;
}
