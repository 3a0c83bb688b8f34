// Names and well-known values of `cluster.x-k8s.io/v1alpha2` (Cluster API v0.2.x).

export const GroupName = 'cluster.x-k8s.io';
export const Version = 'v1alpha2';
export const APIVersion = 'cluster.x-k8s.io/v1alpha2';
export type APIVersion = typeof APIVersion;

/** Every kind of the version, Lists included. v1alpha2 has no MachineClass. */
export const Kinds = [
  'Cluster',
  'ClusterList',
  'Machine',
  'MachineList',
  'MachineSet',
  'MachineSetList',
  'MachineDeployment',
  'MachineDeploymentList',
] as const;
export type Kind = (typeof Kinds)[number];

export const Labels = {
  /** On Machines, MachineSets and MachineDeployments: the Cluster (same namespace) they belong to. */
  clusterName: 'cluster.x-k8s.io/cluster-name',
  /** A Machine is control plane when this label has a non-empty value (examples use "true"). */
  controlPlane: 'cluster.x-k8s.io/control-plane',
  /** Added by the MachineDeployment controller to MachineSet selectors, templates and Machines. */
  machineTemplateHash: 'machine-template-hash',
} as const;

export const Annotations = {
  /**
   * On a Machine: delete it first when scaling down. The v0.2 controller still reads the
   * v1alpha1 key, although the Go comment names `cluster.x-k8s.io/delete-machine`.
   */
  deleteMachine: 'cluster.k8s.io/delete-machine',
  /** Skip draining the Node on delete. The doubled `.io.io` is upstream's spelling. */
  excludeNodeDraining: 'machine.cluster.x-k8s.io.io/exclude-node-draining',
  revision: 'machinedeployment.clusters.k8s.io/revision',
  revisionHistory: 'machinedeployment.clusters.k8s.io/revision-history',
  desiredReplicas: 'machinedeployment.clusters.k8s.io/desired-replicas',
  maxReplicas: 'machinedeployment.clusters.k8s.io/max-replicas',
  /** Defined in v0.2.11 for v1alpha3 conversions, unused by v0.2 itself. */
  conversionData: 'cluster.x-k8s.io/conversion-data',
} as const;

export const Finalizers = {
  cluster: 'cluster.cluster.x-k8s.io',
  machine: 'machine.cluster.x-k8s.io',
} as const;

/** `capierrors.MachineStatusError` values. The CRD accepts any string. */
export const MachineStatusErrors = [
  'InvalidConfiguration',
  'UnsupportedChange',
  'InsufficientResources',
  'CreateError',
  'UpdateError',
  'DeleteError',
  'JoinClusterTimeoutError',
] as const;
export type KnownMachineStatusError = (typeof MachineStatusErrors)[number];

/** `capierrors.ClusterStatusError` values. The CRD accepts any string. */
export const ClusterStatusErrors = [
  'InvalidConfiguration',
  'UnsupportedChange',
  'CreateError',
  'UpdateError',
  'DeleteError',
] as const;
export type KnownClusterStatusError = (typeof ClusterStatusErrors)[number];

/** `capierrors.MachineSetStatusError` values. The CRD accepts any string. */
export const MachineSetStatusErrors = ['InvalidConfiguration'] as const;
export type KnownMachineSetStatusError = (typeof MachineSetStatusErrors)[number];

/** MachineSet `spec.deletePolicy`: a closed enum in the CRD. Unset means Random. */
export const MachineSetDeletePolicies = ['Random', 'Newest', 'Oldest'] as const;
export type MachineSetDeletePolicy = (typeof MachineSetDeletePolicies)[number];

/** MachineDeployment `spec.strategy.type`. Go knows only RollingUpdate; the CRD accepts any string. */
export const MachineDeploymentStrategyTypes = ['RollingUpdate'] as const;
export type KnownMachineDeploymentStrategyType = (typeof MachineDeploymentStrategyTypes)[number];

/** `MachineAddressType` values. The CRD accepts any string. */
export const MachineAddressTypes = [
  'Hostname',
  'ExternalIP',
  'InternalIP',
  'ExternalDNS',
  'InternalDNS',
] as const;
export type KnownMachineAddressType = (typeof MachineAddressTypes)[number];

/**
 * Machine `status.phase` values (lowercase in v1alpha2). `deleted` is defined but never
 * set by the v0.2 controllers; `""` is "unknown". The CRD accepts any string.
 */
export const MachinePhases = [
  'pending',
  'provisioning',
  'provisioned',
  'running',
  'deleting',
  'deleted',
  'failed',
] as const;
export type KnownMachinePhase = (typeof MachinePhases)[number];

/** Cluster `status.phase` values (lowercase in v1alpha2). The CRD accepts any string. */
export const ClusterPhases = ['pending', 'provisioning', 'provisioned', 'deleting', 'failed'] as const;
export type KnownClusterPhase = (typeof ClusterPhases)[number];
