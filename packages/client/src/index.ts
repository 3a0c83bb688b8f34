/**
 * `@capi-kit/client`: typed, version-aware access to live Cluster API management clusters
 * on `@kubernetes/client-node`. See docs/client.md.
 *
 * - `connect(kubeConfig)` → `Either<ClientError, CapiClient>`: discovery of the served
 *   Cluster API versions, `resource(apiVersion, kind)` for typed get/list/watch/create/
 *   replace/patch/apply/delete/scale, `view(kind, { as })` to read any served version as one.
 * - Every error is a `ClientError` tagged `code`; objects that do not decode are returned
 *   raw with their JSON-path errors (`invalid-object`), never dropped.
 */

export { AbortableWatch, abortableDelay } from './abortable-watch.js';
export { type CapiClient, type ConnectOptions, connect } from './client.js';
export { loadReferenceApiVersions } from './contract-lookup.js';
export type { Unreadable } from './decode-served.js';
export {
  type ClusterDescription,
  type DescribeClusterOptions,
  type DescribedGroup,
  type DescribedMachine,
  describeCluster,
  type OwnerName,
  type Problem,
} from './describe.js';
export { type Discovery, discover, type ServedVersion, type UnknownVersion } from './discovery.js';
export { type ClientError, describeRef, type InvalidObject, type ObjectRef } from './errors.js';
export { type IndexName, Informer, type InformerOptions, type InformerStats } from './informer.js';
export { selects } from './label-selector.js';
export { MalformedWatchError, type WatchedObjects } from './malformed-watch.js';
export {
  CLUSTER_NAME_LABELS,
  clusterNameOf,
  type ObjectWithMeta,
  objectKey,
  ownerUIDsOf,
  providerIDOf,
} from './object-facts.js';
export { phaseOf } from './phase.js';
export { ProviderIDIdentityIndex } from './provider-identity.js';
export {
  type DeleteOptions,
  type JsonPatchOperation,
  type ListOptions,
  type ListResult,
  type Patch,
  ResourceClient,
  type Scale,
  type WatchEvent,
  type WatchHandle,
  type WatchOptions,
  type WriteOptions,
} from './resource-client.js';
export {
  API_VERSIONS,
  type ApiVersionRow,
  CAPI_GROUPS,
  type CapiKind,
  KINDS,
  type KindOf,
  type KnownApiVersion,
  type ObjectOf,
  type ResourceInfo,
  resourceInfo,
} from './resources.js';
export {
  contextFieldProblem,
  currentUserProblem,
  everyContextProblem,
  type KubeConfigContexts,
  serverUrlProblem,
} from './served-kubeconfig.js';
export { VersionView, type ViewListResult } from './version-view.js';
export {
  type ClusterRef,
  KUBECONFIG_SECRET_KEY,
  kubeconfigSecretName,
  type WorkloadKubeConfigError,
  workloadKubeConfig,
} from './workload.js';
