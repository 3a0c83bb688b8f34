/**
 * `@capi-kit/autoscaler`: Cluster API node groups with cluster-autoscaler's semantics.
 *
 * - Pure functions with CA 1.20's rules: `parseScalingBounds`, `clusterNameOf`,
 *   `parseAutoDiscoverySpec`, `allowedByAutoDiscovery`, `nodeGroupBoundsOf`, the
 *   failed-machine placeholders and the annotation keys.
 * - Scale from zero (CA ≥ 1.25): `parseCapacityAnnotations`, `instanceCapacityOf`, `templateNodeOf`;
 *   from the infrastructure machine template's status: `infrastructureRefOf`,
 *   `templateStatusOf`, `annotationCapacityOf`, `withTemplateStatus`.
 * - `createNodeGroupProvider(options)`: node groups over live management and workload
 *   clusters (see docs/autoscaler.md).
 */
export {
  type AutoDiscoveryError,
  type AutoDiscoverySpec,
  allowedByAutoDiscovery,
  allowedByAutoDiscoverySpec,
  parseAutoDiscovery,
  parseAutoDiscoverySpec,
} from './auto-discovery.js';
export {
  annotationCapacityOf,
  type CapacityAnnotationError,
  capacityAnnotations,
  defaultMaxPods,
  type InstanceCapacity,
  instanceCapacityOf,
  parseCapacityAnnotations,
  type TemplateNode,
  type TemplateNodeInfo,
  type TemplateStatus,
  type TemplateTaint,
  templateNodeOf,
  withTemplateStatus,
} from './capacity.js';
export { clusterNameOf } from './cluster-name.js';
export { nodeGroupBoundsOf } from './eligibility.js';
export { NodeGroupError, type NodeGroupErrorCode } from './errors.js';
export {
  type InfrastructureRef,
  type InfrastructureTemplateError,
  infrastructureRefOf,
  templateStatusOf,
} from './infrastructure-template.js';
export {
  type AutoscalerKeys,
  allDeleteMachineAnnotations,
  autoscalerKeys,
  capiGroup,
  clusterNameLabels,
  deleteMachineAnnotationsByVersion,
  legacyCapiGroup,
  machineAnnotations,
  maxSizeAnnotations,
  minSizeAnnotations,
} from './keys.js';
export type { CapiApi } from './management-api.js';
export type { Maintenance, NodeGroup, NodeGroupInstance, NodeLike, NodeResolution } from './node-group.js';
export {
  createNodeGroupProvider,
  type LeaseGuardOptions,
  type NodeGroupProvider,
  type NodeGroupProviderOptions,
} from './node-group-provider.js';
export type { KubeObject, ObjectMeta, OwnerReference } from './objects.js';
export {
  failedMachineProviderID,
  isFailedMachineProviderID,
  machineKeyFromFailedProviderID,
} from './placeholders.js';
export {
  annotationPath,
  parseScalingBounds,
  type ScalingBounds,
  type ScalingBoundsError,
} from './scaling-bounds.js';
export {
  type GroupEntry,
  groupIdOf,
  type MatchedBy,
  type Problem,
  type ScalableKind,
  Snapshot,
  type SnapshotInput,
} from './snapshot.js';
export type { WorkloadOption } from './workloads.js';
