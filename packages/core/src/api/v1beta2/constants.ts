// Names and well-known values of `cluster.x-k8s.io/v1beta2` (Cluster API v1.11+; schema as
// of v1.14.0).

export const GroupName = 'cluster.x-k8s.io';
export const Version = 'v1beta2';
export const APIVersion = 'cluster.x-k8s.io/v1beta2';
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
  /** On control-plane Machines: the name of the control plane object. */
  controlPlaneName: 'cluster.x-k8s.io/control-plane-name',
  /** On Machines a MachineSet created: the MachineSet's name. */
  machineSetName: 'cluster.x-k8s.io/set-name',
  /** On MachineSets and Machines of a MachineDeployment: its name. */
  machineDeploymentName: 'cluster.x-k8s.io/deployment-name',
  /** Added by the MachineDeployment controller to MachineSet selectors, templates and Machines. */
  machineTemplateHash: 'machine-template-hash',
} as const;

/** The `revision-history` annotation of earlier versions was dropped with v1beta2 (v1.11). */
export const Annotations = {
  /** On a Machine: delete it first when scaling down; counts when merely present. */
  deleteMachine: 'cluster.x-k8s.io/delete-machine',
  /** Pauses reconciliation of the object it is on (with Cluster `spec.paused` for a whole cluster). */
  paused: 'cluster.x-k8s.io/paused',
  /** Skip draining the Node on delete. */
  excludeNodeDraining: 'machine.cluster.x-k8s.io/exclude-node-draining',
  revision: 'machinedeployment.clusters.x-k8s.io/revision',
  desiredReplicas: 'machinedeployment.clusters.x-k8s.io/desired-replicas',
  maxReplicas: 'machinedeployment.clusters.x-k8s.io/max-replicas',
  /** Written on objects down-converted to v1beta1: the v1beta2 object without metadata, as JSON. */
  conversionData: 'cluster.x-k8s.io/conversion-data',
} as const;

export const Finalizers = {
  cluster: 'cluster.cluster.x-k8s.io',
  machine: 'machine.cluster.x-k8s.io',
  machineDeploymentTopology: 'machinedeployment.topology.cluster.x-k8s.io',
  machineSetTopology: 'machineset.topology.cluster.x-k8s.io',
  machineSet: 'cluster.x-k8s.io/machineset',
  machineDeployment: 'cluster.x-k8s.io/machinedeployment',
} as const;

/**
 * Machine `status.phase`: a closed enum in the CRD. `Updating` is new in v1.12; `Failed`
 * is deprecated and no controller sets it; `Deleted` is never set either.
 */
export const MachinePhases = [
  'Pending',
  'Provisioning',
  'Provisioned',
  'Running',
  'Updating',
  'Deleting',
  'Deleted',
  'Failed',
  'Unknown',
] as const;
export type MachinePhase = (typeof MachinePhases)[number];

/** Cluster `status.phase`: a closed enum in the CRD. `Failed` is deprecated and no longer set. */
export const ClusterPhases = [
  'Pending',
  'Provisioning',
  'Provisioned',
  'Deleting',
  'Failed',
  'Unknown',
] as const;
export type ClusterPhase = (typeof ClusterPhases)[number];

/** MachineDeployment `status.phase`: a closed enum in the CRD. `Failed` is no longer set. */
export const MachineDeploymentPhases = ['ScalingUp', 'ScalingDown', 'Running', 'Failed', 'Unknown'] as const;
export type MachineDeploymentPhase = (typeof MachineDeploymentPhases)[number];

/** metav1.Condition types per kind (v1.14.0 `*_types.go`). The CRD accepts any qualified name. */
export const ConditionTypes = {
  Cluster: [
    'Available',
    'InfrastructureReady',
    'ControlPlaneInitialized',
    'ControlPlaneAvailable',
    'WorkersAvailable',
    'ControlPlaneMachinesReady',
    'WorkerMachinesReady',
    'ControlPlaneMachinesUpToDate',
    'WorkerMachinesUpToDate',
    'RemoteConnectionProbe',
    'RollingOut',
    'ScalingUp',
    'ScalingDown',
    'Remediating',
    'TopologyReconciled',
    'Deleting',
    'Paused',
  ],
  Machine: [
    'Available',
    'Ready',
    'UpToDate',
    'Updating',
    'BootstrapConfigReady',
    'InfrastructureReady',
    'NodeHealthy',
    'NodeReady',
    'HealthCheckSucceeded',
    'OwnerRemediated',
    'ExternallyRemediated',
    'Deleting',
    'Paused',
  ],
  MachineSet: [
    'ScalingUp',
    'ScalingDown',
    'MachinesReady',
    'MachinesUpToDate',
    'Remediating',
    'Deleting',
    'Paused',
  ],
  MachineDeployment: [
    'Available',
    'RollingOut',
    'ScalingUp',
    'ScalingDown',
    'MachinesReady',
    'MachinesUpToDate',
    'Remediating',
    'Deleting',
    'Paused',
  ],
  MachineHealthCheck: ['RemediationAllowed', 'Paused'],
} as const;

/** metav1.Condition `status`: a closed enum in the CRD. */
export const ConditionStatuses = ['True', 'False', 'Unknown'] as const;

/** MachineSet/MachineDeployment `spec.deletion.order`: a closed enum. Unset means Random. */
export const MachineSetDeletionOrders = ['Random', 'Newest', 'Oldest'] as const;
export type MachineSetDeletionOrder = (typeof MachineSetDeletionOrders)[number];

/** MachineDeployment `spec.rollout.strategy.type`: a closed enum. */
export const MachineDeploymentRolloutStrategyTypes = ['RollingUpdate', 'OnDelete'] as const;
export type MachineDeploymentRolloutStrategyType = (typeof MachineDeploymentRolloutStrategyTypes)[number];

/** `MachineAddressType`: a closed enum in the CRD. */
export const MachineAddressTypes = [
  'Hostname',
  'ExternalIP',
  'InternalIP',
  'ExternalDNS',
  'InternalDNS',
] as const;
export type MachineAddressType = (typeof MachineAddressTypes)[number];

/** Machine `spec.taints[].propagation` (v1.12+). */
export const MachineTaintPropagations = ['Always', 'OnInitialization'] as const;
export type MachineTaintPropagation = (typeof MachineTaintPropagations)[number];

/** A readiness/availability gate's `polarity`. */
export const ConditionPolarities = ['Positive', 'Negative'] as const;
export type ConditionPolarity = (typeof ConditionPolarities)[number];

/**
 * The condition types a MachineHealthCheck's `checks.unhealthyMachineConditions` must not
 * name (a CEL rule in the CRD): CAPI sets them itself.
 */
export const ReservedMachineHealthCheckConditionTypes = [
  'Ready',
  'Available',
  'HealthCheckSucceeded',
  'OwnerRemediated',
  'ExternallyRemediated',
] as const;
