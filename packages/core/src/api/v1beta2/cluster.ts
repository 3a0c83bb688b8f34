import type * as t from 'io-ts';
import { type ListMeta, type ObjectMeta, ObjectMetaCodec } from '../meta/object-meta.js';
import { type ListItem, listCodec, resourceCodecs } from '../meta/resource.js';
import {
  anyValue,
  arrayOf,
  boolean,
  enumOf,
  IntOrString,
  int32,
  integerWith,
  mapOf,
  string,
  stringWith,
  struct,
  Time,
} from '../schema/index.js';
import * as patterns from '../schema/patterns.js';
import {
  type MachineDeploymentTopologyRolloutSpec,
  MachineDeploymentTopologyRolloutSpecCodec,
  type MachineHealthCheckChecks,
  MachineHealthCheckChecksCodec,
  type MachineHealthCheckRemediation,
  MachineHealthCheckRemediationCodec,
  type MachineHealthCheckRemediationTemplateReference,
  MachineHealthCheckRemediationTemplateReferenceCodec,
  type MachineHealthCheckRemediationTriggerIf,
  MachineHealthCheckRemediationTriggerIfCodec,
  type StatusVersion,
  StatusVersionCodec,
  type TemplateMetadata,
  TemplateMetadataCodec,
} from './common.js';
import { APIVersion } from './constants.js';
import {
  type Condition,
  ConditionCodec,
  type ContractVersionedObjectReference,
  ContractVersionedObjectReferenceCodec,
  type MachineDeletionSpec,
  MachineDeletionSpecCodec,
  type MachineDeprecatedStatus,
  MachineDeprecatedStatusCodec,
  type MachineReadinessGate,
  MachineReadinessGateCodec,
  type MachineTaint,
  MachineTaintCodec,
} from './machine.js';

export interface APIEndpoint {
  host?: string;
  port?: number;
}

export const APIEndpointCodec: t.Type<APIEndpoint> = struct(
  'APIEndpoint',
  {},
  {
    host: stringWith({ minLength: 1, maxLength: 512 }),
    port: integerWith('int32', { maximum: 65535, minimum: 1 }),
  },
  { minProperties: 1 },
);

export interface NetworkRanges {
  cidrBlocks: string[];
}

export const NetworkRangesCodec: t.Type<NetworkRanges> = struct(
  'NetworkRanges',
  {
    cidrBlocks: arrayOf(stringWith({ minLength: 1, maxLength: 43 }), { minItems: 1, maxItems: 100 }),
  },
  {},
);

export interface ClusterNetwork {
  apiServerPort?: number;
  pods?: NetworkRanges;
  serviceDomain?: string;
  services?: NetworkRanges;
}

export const ClusterNetworkCodec: t.Type<ClusterNetwork> = struct(
  'ClusterNetwork',
  {},
  {
    apiServerPort: integerWith('int32', { maximum: 65535, minimum: 1 }),
    pods: NetworkRangesCodec,
    serviceDomain: stringWith({ minLength: 1, maxLength: 253 }),
    services: NetworkRangesCodec,
  },
  { minProperties: 1 },
);

export interface ClusterClassRef {
  name: string;
  namespace?: string;
}

export const ClusterClassRefCodec: t.Type<ClusterClassRef> = struct(
  'ClusterClassRef',
  {
    name: stringWith({ minLength: 1, maxLength: 253, pattern: patterns.dnsSubdomain }),
  },
  {
    namespace: stringWith({ minLength: 1, maxLength: 63, pattern: patterns.dnsLabel }),
  },
);

export interface ClusterVariable {
  name: string;
  value: unknown;
}

export const ClusterVariableCodec: t.Type<ClusterVariable> = struct(
  'ClusterVariable',
  {
    name: stringWith({ minLength: 1, maxLength: 256 }),
    value: anyValue,
  },
  {},
);

export interface ControlPlaneTopologyHealthCheck {
  checks?: MachineHealthCheckChecks;
  enabled?: boolean;
  remediation?: MachineHealthCheckRemediation;
}

export const ControlPlaneTopologyHealthCheckCodec: t.Type<ControlPlaneTopologyHealthCheck> = struct(
  'ControlPlaneTopologyHealthCheck',
  {},
  {
    checks: MachineHealthCheckChecksCodec,
    enabled: boolean,
    remediation: MachineHealthCheckRemediationCodec,
  },
  { minProperties: 1 },
);

export interface ControlPlaneTopologyRolloutSpec {
  after?: Time;
}

export const ControlPlaneTopologyRolloutSpecCodec: t.Type<ControlPlaneTopologyRolloutSpec> = struct(
  'ControlPlaneTopologyRolloutSpec',
  {},
  {
    after: Time,
  },
  { minProperties: 1 },
);

export interface ControlPlaneVariables {
  overrides?: ClusterVariable[];
}

export const ControlPlaneVariablesCodec: t.Type<ControlPlaneVariables> = struct(
  'ControlPlaneVariables',
  {},
  {
    overrides: arrayOf(ClusterVariableCodec, { minItems: 1, maxItems: 1000, listMapKeys: ['name'] }),
  },
  { minProperties: 1 },
);

export interface ControlPlaneTopology {
  deletion?: MachineDeletionSpec;
  healthCheck?: ControlPlaneTopologyHealthCheck;
  metadata?: TemplateMetadata;
  readinessGates?: MachineReadinessGate[];
  replicas?: number;
  rollout?: ControlPlaneTopologyRolloutSpec;
  taints?: MachineTaint[];
  variables?: ControlPlaneVariables;
}

export const ControlPlaneTopologyCodec: t.Type<ControlPlaneTopology> = struct(
  'ControlPlaneTopology',
  {},
  {
    deletion: MachineDeletionSpecCodec,
    healthCheck: ControlPlaneTopologyHealthCheckCodec,
    metadata: TemplateMetadataCodec,
    readinessGates: arrayOf(MachineReadinessGateCodec, {
      minItems: 1,
      maxItems: 32,
      listMapKeys: ['conditionType'],
    }),
    replicas: int32,
    rollout: ControlPlaneTopologyRolloutSpecCodec,
    taints: arrayOf(MachineTaintCodec, { minItems: 1, maxItems: 64, listMapKeys: ['key', 'effect'] }),
    variables: ControlPlaneVariablesCodec,
  },
  { minProperties: 1 },
);

export interface MachineDeploymentTopologyHealthCheckRemediation {
  maxInFlight?: IntOrString;
  templateRef?: MachineHealthCheckRemediationTemplateReference;
  triggerIf?: MachineHealthCheckRemediationTriggerIf;
}

export const MachineDeploymentTopologyHealthCheckRemediationCodec: t.Type<MachineDeploymentTopologyHealthCheckRemediation> =
  struct(
    'MachineDeploymentTopologyHealthCheckRemediation',
    {},
    {
      maxInFlight: IntOrString,
      templateRef: MachineHealthCheckRemediationTemplateReferenceCodec,
      triggerIf: MachineHealthCheckRemediationTriggerIfCodec,
    },
    { minProperties: 1 },
  );

export interface MachineDeploymentTopologyHealthCheck {
  checks?: MachineHealthCheckChecks;
  enabled?: boolean;
  remediation?: MachineDeploymentTopologyHealthCheckRemediation;
}

export const MachineDeploymentTopologyHealthCheckCodec: t.Type<MachineDeploymentTopologyHealthCheck> = struct(
  'MachineDeploymentTopologyHealthCheck',
  {},
  {
    checks: MachineHealthCheckChecksCodec,
    enabled: boolean,
    remediation: MachineDeploymentTopologyHealthCheckRemediationCodec,
  },
  { minProperties: 1 },
);

export interface MachineDeploymentTopologyMachineDeletionSpec {
  nodeDeletionTimeoutSeconds?: number;
  nodeDrainTimeoutSeconds?: number;
  nodeVolumeDetachTimeoutSeconds?: number;
  order?: 'Random' | 'Newest' | 'Oldest';
}

export const MachineDeploymentTopologyMachineDeletionSpecCodec: t.Type<MachineDeploymentTopologyMachineDeletionSpec> =
  struct(
    'MachineDeploymentTopologyMachineDeletionSpec',
    {},
    {
      nodeDeletionTimeoutSeconds: integerWith('int32', { minimum: 0 }),
      nodeDrainTimeoutSeconds: integerWith('int32', { minimum: 0 }),
      nodeVolumeDetachTimeoutSeconds: integerWith('int32', { minimum: 0 }),
      order: enumOf('Random', 'Newest', 'Oldest'),
    },
    { minProperties: 1 },
  );

export interface MachineDeploymentTopology {
  class: string;
  deletion?: MachineDeploymentTopologyMachineDeletionSpec;
  failureDomain?: string;
  healthCheck?: MachineDeploymentTopologyHealthCheck;
  metadata?: TemplateMetadata;
  minReadySeconds?: number;
  name: string;
  readinessGates?: MachineReadinessGate[];
  replicas?: number;
  rollout?: MachineDeploymentTopologyRolloutSpec;
  taints?: MachineTaint[];
  variables?: ControlPlaneVariables;
}

export const MachineDeploymentTopologyCodec: t.Type<MachineDeploymentTopology> = struct(
  'MachineDeploymentTopology',
  {
    class: stringWith({ minLength: 1, maxLength: 256 }),
    name: stringWith({ minLength: 1, maxLength: 63, pattern: patterns.dnsSubdomain }),
  },
  {
    deletion: MachineDeploymentTopologyMachineDeletionSpecCodec,
    failureDomain: stringWith({ minLength: 1, maxLength: 256 }),
    healthCheck: MachineDeploymentTopologyHealthCheckCodec,
    metadata: TemplateMetadataCodec,
    minReadySeconds: integerWith('int32', { minimum: 0 }),
    readinessGates: arrayOf(MachineReadinessGateCodec, {
      minItems: 1,
      maxItems: 32,
      listMapKeys: ['conditionType'],
    }),
    replicas: int32,
    rollout: MachineDeploymentTopologyRolloutSpecCodec,
    taints: arrayOf(MachineTaintCodec, { minItems: 1, maxItems: 64, listMapKeys: ['key', 'effect'] }),
    variables: ControlPlaneVariablesCodec,
  },
);

export interface MachinePoolTopology {
  class: string;
  deletion?: MachineDeletionSpec;
  failureDomains?: string[];
  metadata?: TemplateMetadata;
  minReadySeconds?: number;
  name: string;
  replicas?: number;
  taints?: MachineTaint[];
  variables?: ControlPlaneVariables;
}

export const MachinePoolTopologyCodec: t.Type<MachinePoolTopology> = struct(
  'MachinePoolTopology',
  {
    class: stringWith({ minLength: 1, maxLength: 256 }),
    name: stringWith({ minLength: 1, maxLength: 63, pattern: patterns.dnsSubdomain }),
  },
  {
    deletion: MachineDeletionSpecCodec,
    failureDomains: arrayOf(stringWith({ minLength: 1, maxLength: 256 }), { minItems: 1, maxItems: 100 }),
    metadata: TemplateMetadataCodec,
    minReadySeconds: integerWith('int32', { minimum: 0 }),
    replicas: int32,
    taints: arrayOf(MachineTaintCodec, { minItems: 1, maxItems: 64, listMapKeys: ['key', 'effect'] }),
    variables: ControlPlaneVariablesCodec,
  },
);

export interface WorkersTopology {
  machineDeployments?: MachineDeploymentTopology[];
  machinePools?: MachinePoolTopology[];
}

export const WorkersTopologyCodec: t.Type<WorkersTopology> = struct(
  'WorkersTopology',
  {},
  {
    machineDeployments: arrayOf(MachineDeploymentTopologyCodec, {
      minItems: 1,
      maxItems: 2000,
      listMapKeys: ['name'],
    }),
    machinePools: arrayOf(MachinePoolTopologyCodec, { minItems: 1, maxItems: 2000, listMapKeys: ['name'] }),
  },
  { minProperties: 1 },
);

export interface Topology {
  classRef: ClusterClassRef;
  controlPlane?: ControlPlaneTopology;
  variables?: ClusterVariable[];
  version: string;
  workers?: WorkersTopology;
}

export const TopologyCodec: t.Type<Topology> = struct(
  'Topology',
  {
    classRef: ClusterClassRefCodec,
    version: stringWith({ minLength: 1, maxLength: 256 }),
  },
  {
    controlPlane: ControlPlaneTopologyCodec,
    variables: arrayOf(ClusterVariableCodec, { minItems: 1, maxItems: 1000, listMapKeys: ['name'] }),
    workers: WorkersTopologyCodec,
  },
);

export interface ClusterSpec {
  availabilityGates?: MachineReadinessGate[];
  clusterNetwork?: ClusterNetwork;
  controlPlaneEndpoint?: APIEndpoint;
  controlPlaneRef?: ContractVersionedObjectReference;
  infrastructureRef?: ContractVersionedObjectReference;
  paused?: boolean;
  topology?: Topology;
}

export const ClusterSpecCodec: t.Type<ClusterSpec> = struct(
  'ClusterSpec',
  {},
  {
    availabilityGates: arrayOf(MachineReadinessGateCodec, {
      minItems: 1,
      maxItems: 32,
      listMapKeys: ['conditionType'],
    }),
    clusterNetwork: ClusterNetworkCodec,
    controlPlaneEndpoint: APIEndpointCodec,
    controlPlaneRef: ContractVersionedObjectReferenceCodec,
    infrastructureRef: ContractVersionedObjectReferenceCodec,
    paused: boolean,
    topology: TopologyCodec,
  },
  { minProperties: 1 },
);

export interface ControlPlaneUpgradeStep {
  version: string;
}

export const ControlPlaneUpgradeStepCodec: t.Type<ControlPlaneUpgradeStep> = struct(
  'ControlPlaneUpgradeStep',
  {
    version: stringWith({ minLength: 1, maxLength: 256 }),
  },
  {},
);

export interface ClusterControlPlaneStatus {
  availableReplicas?: number;
  desiredReplicas?: number;
  readyReplicas?: number;
  replicas?: number;
  upToDateReplicas?: number;
  upgradePlan?: ControlPlaneUpgradeStep[];
  versions?: StatusVersion[];
}

export const ClusterControlPlaneStatusCodec: t.Type<ClusterControlPlaneStatus> = struct(
  'ClusterControlPlaneStatus',
  {},
  {
    availableReplicas: int32,
    desiredReplicas: int32,
    readyReplicas: int32,
    replicas: int32,
    upToDateReplicas: int32,
    upgradePlan: arrayOf(ControlPlaneUpgradeStepCodec, { minItems: 1, maxItems: 32 }),
    versions: arrayOf(StatusVersionCodec, { minItems: 1, maxItems: 32 }),
  },
);

export interface ClusterInitializationStatus {
  controlPlaneInitialized?: boolean;
  infrastructureProvisioned?: boolean;
}

export const ClusterInitializationStatusCodec: t.Type<ClusterInitializationStatus> = struct(
  'ClusterInitializationStatus',
  {},
  {
    controlPlaneInitialized: boolean,
    infrastructureProvisioned: boolean,
  },
  { minProperties: 1 },
);

export interface FailureDomain {
  attributes?: Record<string, string>;
  controlPlane?: boolean;
  name: string;
}

export const FailureDomainCodec: t.Type<FailureDomain> = struct(
  'FailureDomain',
  {
    name: stringWith({ minLength: 1, maxLength: 256 }),
  },
  {
    attributes: mapOf(string),
    controlPlane: boolean,
  },
);

export interface ClusterStatus {
  conditions?: Condition[];
  controlPlane?: ClusterControlPlaneStatus;
  deprecated?: MachineDeprecatedStatus;
  failureDomains?: FailureDomain[];
  initialization?: ClusterInitializationStatus;
  observedGeneration?: number;
  phase?: 'Pending' | 'Provisioning' | 'Provisioned' | 'Deleting' | 'Failed' | 'Unknown';
  workers?: ClusterControlPlaneStatus;
}

export const ClusterStatusCodec: t.Type<ClusterStatus> = struct(
  'ClusterStatus',
  {},
  {
    conditions: arrayOf(ConditionCodec, { maxItems: 32, listMapKeys: ['type'] }),
    controlPlane: ClusterControlPlaneStatusCodec,
    deprecated: MachineDeprecatedStatusCodec,
    failureDomains: arrayOf(FailureDomainCodec, { minItems: 1, maxItems: 100, listMapKeys: ['name'] }),
    initialization: ClusterInitializationStatusCodec,
    observedGeneration: integerWith('int64', { minimum: 1 }),
    phase: enumOf('Pending', 'Provisioning', 'Provisioned', 'Deleting', 'Failed', 'Unknown'),
    workers: ClusterControlPlaneStatusCodec,
  },
  { minProperties: 1 },
);

/** `cluster.x-k8s.io/v1beta2` Cluster. */
export interface Cluster {
  apiVersion: typeof APIVersion;
  kind: 'Cluster';
  metadata?: ObjectMeta;
  spec: ClusterSpec;
  status?: ClusterStatus;
}

const cluster = resourceCodecs<Cluster>(
  APIVersion,
  'Cluster',
  { spec: ClusterSpecCodec },
  { metadata: ObjectMetaCodec, status: ClusterStatusCodec },
);
export const ClusterCodec: t.Type<Cluster> = cluster.codec;

export interface ClusterList {
  apiVersion: typeof APIVersion;
  kind: 'ClusterList';
  metadata?: ListMeta;
  items: ListItem<Cluster>[] | null;
}

export const ClusterListCodec: t.Type<ClusterList> = listCodec<ClusterList, ListItem<Cluster>>(
  APIVersion,
  'ClusterList',
  cluster.itemCodec,
);
