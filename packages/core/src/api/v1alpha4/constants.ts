// Names and well-known values of `cluster.x-k8s.io/v1alpha4` (Cluster API v0.4.x).

export const GroupName = 'cluster.x-k8s.io';
export const Version = 'v1alpha4';
export const APIVersion = 'cluster.x-k8s.io/v1alpha4';
export type APIVersion = typeof APIVersion;

/** Every kind of the version this package types, Lists included. ClusterClass and MachinePool pass through as unknown kinds. */
export const Kinds = [
  'Cluster',
  'ClusterList',
  'Machine',
  'MachineList',
  'MachineSet',
  'MachineSetList',
  'MachineDeployment',
  'MachineDeploymentList',
  'MachineHealthCheck',
  'MachineHealthCheckList',
] as const;
export type Kind = (typeof Kinds)[number];

export const Labels = {
  /** Copied from `spec.clusterName` by the defaulting webhooks; `spec.clusterName` is authoritative. */
  clusterName: 'cluster.x-k8s.io/cluster-name',
  /** A Machine is control plane when this label is present, whatever its value. */
  controlPlane: 'cluster.x-k8s.io/control-plane',
  /** On Machines a MachineSet created: the MachineSet's name. */
  machineSetName: 'cluster.x-k8s.io/set-name',
  /** On MachineSets and Machines of a MachineDeployment: its name. */
  machineDeploymentName: 'cluster.x-k8s.io/deployment-name',
  /** Added by the MachineDeployment controller to MachineSet selectors, templates and Machines. */
  machineTemplateHash: 'machine-template-hash',
} as const;

export const Annotations = {
  /** On a Machine: delete it first when scaling down; counts when merely present. */
  deleteMachine: 'cluster.x-k8s.io/delete-machine',
  /** Pauses reconciliation of the object it is on (with Cluster `spec.paused` for a whole cluster). */
  paused: 'cluster.x-k8s.io/paused',
  /** Skip draining the Node on delete (v1alpha2 spelled it `machine.cluster.x-k8s.io.io/…`). */
  excludeNodeDraining: 'machine.cluster.x-k8s.io/exclude-node-draining',
  revision: 'machinedeployment.clusters.x-k8s.io/revision',
  revisionHistory: 'machinedeployment.clusters.x-k8s.io/revision-history',
  desiredReplicas: 'machinedeployment.clusters.x-k8s.io/desired-replicas',
  maxReplicas: 'machinedeployment.clusters.x-k8s.io/max-replicas',
  /** Written on down-converted objects: the hub object without metadata, as JSON. */
  conversionData: 'cluster.x-k8s.io/conversion-data',
} as const;

export const Finalizers = {
  cluster: 'cluster.cluster.x-k8s.io',
  machine: 'machine.cluster.x-k8s.io',
  /** Topology-owned MachineDeployments and MachineSets (new in v0.4). */
  machineDeploymentTopology: 'machinedeployment.topology.cluster.x-k8s.io',
  machineSetTopology: 'machineset.topology.cluster.x-k8s.io',
} as const;

/** Machine `status.phase` values (capitalised from v1alpha3). The CRD accepts any string. */
export const MachinePhases = [
  'Pending',
  'Provisioning',
  'Provisioned',
  'Running',
  'Deleting',
  'Deleted',
  'Failed',
  'Unknown',
] as const;
export type KnownMachinePhase = (typeof MachinePhases)[number];

/** Cluster `status.phase` values. The CRD accepts any string. */
export const ClusterPhases = [
  'Pending',
  'Provisioning',
  'Provisioned',
  'Deleting',
  'Failed',
  'Unknown',
] as const;
export type KnownClusterPhase = (typeof ClusterPhases)[number];

/** MachineDeployment `status.phase` values (new in v1alpha3). The CRD accepts any string. */
export const MachineDeploymentPhases = ['ScalingUp', 'ScalingDown', 'Running', 'Failed', 'Unknown'] as const;
export type KnownMachineDeploymentPhase = (typeof MachineDeploymentPhases)[number];

/** Condition types of v0.4.8 (`condition_consts.go`). The CRD accepts any string. */
export const ConditionTypes = [
  'Ready',
  'InfrastructureReady',
  'ControlPlaneReady',
  'BootstrapReady',
  'DrainingSucceeded',
  'PreDrainDeleteHookSucceeded',
  'PreTerminateDeleteHookSucceeded',
  'HealthCheckSucceeded',
  'OwnerRemediated',
  'RemediationAllowed',
  'NodeHealthy',
  'ControlPlaneInitialized',
  'VolumeDetachSucceeded',
  'Available',
  'MachinesCreated',
  'MachinesReady',
  'Resized',
] as const;
export type KnownConditionType = (typeof ConditionTypes)[number];

/** CAPI condition `severity` (`""` when the status is True). The CRD accepts any string. */
export const ConditionSeverities = ['Error', 'Warning', 'Info', ''] as const;
export type KnownConditionSeverity = (typeof ConditionSeverities)[number];

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

/** MachineSet `spec.deletePolicy`: a closed enum in the CRD. Unset means Random. */
export const MachineSetDeletePolicies = ['Random', 'Newest', 'Oldest'] as const;
export type MachineSetDeletePolicy = (typeof MachineSetDeletePolicies)[number];

/** MachineDeployment `spec.strategy.type`: a closed enum in the CRD (OnDelete is new in v1alpha4). */
export const MachineDeploymentStrategyTypes = ['RollingUpdate', 'OnDelete'] as const;
export type MachineDeploymentStrategyType = (typeof MachineDeploymentStrategyTypes)[number];

/** `MachineAddressType` values. The CRD accepts any string. */
export const MachineAddressTypes = [
  'Hostname',
  'ExternalIP',
  'InternalIP',
  'ExternalDNS',
  'InternalDNS',
] as const;
export type KnownMachineAddressType = (typeof MachineAddressTypes)[number];
