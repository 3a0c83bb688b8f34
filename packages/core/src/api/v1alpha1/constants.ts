// Names and well-known values of `cluster.k8s.io/v1alpha1` (Cluster API v0.1.x).

export const GroupName = 'cluster.k8s.io';
export const Version = 'v1alpha1';
export const APIVersion = 'cluster.k8s.io/v1alpha1';
export type APIVersion = typeof APIVersion;

/** Every kind of the version, Lists included. */
export const Kinds = [
  'Cluster',
  'ClusterList',
  'Machine',
  'MachineList',
  'MachineSet',
  'MachineSetList',
  'MachineDeployment',
  'MachineDeploymentList',
  'MachineClass',
  'MachineClassList',
] as const;
export type Kind = (typeof Kinds)[number];

export const Labels = {
  /** On Machines, MachineSets and MachineDeployments: the Cluster (same namespace) they belong to. */
  clusterName: 'cluster.k8s.io/cluster-name',
  /** Added by the MachineDeployment controller to MachineSet selectors, templates and Machines. */
  machineTemplateHash: 'machine-template-hash',
} as const;

export const Annotations = {
  /** On a Machine: any non-empty value makes the MachineSet delete it first when scaling down. */
  deleteMachine: 'cluster.k8s.io/delete-machine',
  /** On a Node: `<namespace>/<machine>` of the Machine that backs it. */
  machine: 'cluster.k8s.io/machine',
  // The MachineDeployment annotations use the group `clusters.k8s.io`, with an "s".
  revision: 'machinedeployment.clusters.k8s.io/revision',
  revisionHistory: 'machinedeployment.clusters.k8s.io/revision-history',
  desiredReplicas: 'machinedeployment.clusters.k8s.io/desired-replicas',
  maxReplicas: 'machinedeployment.clusters.k8s.io/max-replicas',
} as const;

export const Finalizers = {
  cluster: 'cluster.cluster.k8s.io',
  machine: 'machine.cluster.k8s.io',
  /** `metav1.FinalizerDeleteDependents`, also added by the v0.1 machine controller. */
  foregroundDeletion: 'foregroundDeletion',
} as const;

/** `common.MachineStatusError` values. The CRD accepts any string. */
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

/** `common.ClusterStatusError` values. The CRD accepts any string. */
export const ClusterStatusErrors = [
  'InvalidConfiguration',
  'UnsupportedChange',
  'CreateError',
  'UpdateError',
  'DeleteError',
] as const;
export type KnownClusterStatusError = (typeof ClusterStatusErrors)[number];

/** `common.MachineSetStatusError` values. The CRD accepts any string. */
export const MachineSetStatusErrors = ['InvalidConfiguration'] as const;
export type KnownMachineSetStatusError = (typeof MachineSetStatusErrors)[number];

/** MachineSet `spec.deletePolicy`: a closed enum in the CRD. Unset means Random. */
export const MachineSetDeletePolicies = ['Random', 'Newest', 'Oldest'] as const;
export type MachineSetDeletePolicy = (typeof MachineSetDeletePolicies)[number];

/** MachineDeployment `spec.strategy.type`. Go knows only RollingUpdate; the CRD accepts any string. */
export const MachineDeploymentStrategyTypes = ['RollingUpdate'] as const;
export type KnownMachineDeploymentStrategyType = (typeof MachineDeploymentStrategyTypes)[number];
