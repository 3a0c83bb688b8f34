import type * as t from 'io-ts';
import { type ListMeta, type ObjectMeta, ObjectMetaCodec } from '../meta/object-meta.js';
import { type ObjectReference, ObjectReferenceCodec } from '../meta/object-reference.js';
import { type ListItem, listCodec, resourceCodecs } from '../meta/resource.js';
import {
  anyValue,
  arrayOf,
  boolean,
  enumOf,
  IntOrString,
  int32,
  int64,
  mapOf,
  nullable,
  string,
  stringWith,
  struct,
  Time,
} from '../schema/index.js';
import * as patterns from '../schema/patterns.js';
import {
  type MachineDeploymentStrategy,
  MachineDeploymentStrategyCodec,
  type TemplateMetadata,
  TemplateMetadataCodec,
  type UnhealthyCondition,
  UnhealthyConditionCodec,
} from './common.js';
import { APIVersion } from './constants.js';
import {
  type Condition,
  ConditionCodec,
  type MachineReadinessGate,
  MachineReadinessGateCodec,
  type MetaCondition,
  MetaConditionCodec,
} from './machine.js';

export interface APIEndpoint {
  host: string;
  port: number;
}

export const APIEndpointCodec: t.Type<APIEndpoint> = struct(
  'APIEndpoint',
  {
    host: stringWith({ maxLength: 512 }),
    port: int32,
  },
  {},
);

export interface NetworkRanges {
  cidrBlocks: string[] | null;
}

export const NetworkRangesCodec: t.Type<NetworkRanges> = struct(
  'NetworkRanges',
  {
    cidrBlocks: nullable(arrayOf(stringWith({ minLength: 1, maxLength: 43 }), { maxItems: 100 })),
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
    apiServerPort: int32,
    pods: NetworkRangesCodec,
    serviceDomain: stringWith({ minLength: 1, maxLength: 253 }),
    services: NetworkRangesCodec,
  },
);

export interface ClusterVariable {
  definitionFrom?: string;
  name: string;
  value: unknown;
}

export const ClusterVariableCodec: t.Type<ClusterVariable> = struct(
  'ClusterVariable',
  {
    name: stringWith({ minLength: 1, maxLength: 256 }),
    value: anyValue,
  },
  {
    definitionFrom: stringWith({ maxLength: 256 }),
  },
);

export interface ControlPlaneVariables {
  overrides?: ClusterVariable[];
}

export const ControlPlaneVariablesCodec: t.Type<ControlPlaneVariables> = struct(
  'ControlPlaneVariables',
  {},
  {
    overrides: arrayOf(ClusterVariableCodec, { maxItems: 1000, listMapKeys: ['name'] }),
  },
);

export interface MachineHealthCheckTopology {
  enable?: boolean;
  maxUnhealthy?: IntOrString;
  nodeStartupTimeout?: string;
  remediationTemplate?: ObjectReference;
  unhealthyConditions?: UnhealthyCondition[];
  unhealthyRange?: string;
}

export const MachineHealthCheckTopologyCodec: t.Type<MachineHealthCheckTopology> = struct(
  'MachineHealthCheckTopology',
  {},
  {
    enable: boolean,
    maxUnhealthy: IntOrString,
    nodeStartupTimeout: string,
    remediationTemplate: ObjectReferenceCodec,
    unhealthyConditions: arrayOf(UnhealthyConditionCodec, { maxItems: 100 }),
    unhealthyRange: stringWith({ minLength: 1, maxLength: 32, pattern: patterns.unhealthyRange }),
  },
);

export interface ControlPlaneTopology {
  machineHealthCheck?: MachineHealthCheckTopology;
  metadata?: TemplateMetadata;
  nodeDeletionTimeout?: string;
  nodeDrainTimeout?: string;
  nodeVolumeDetachTimeout?: string;
  readinessGates?: MachineReadinessGate[];
  replicas?: number;
  variables?: ControlPlaneVariables;
}

export const ControlPlaneTopologyCodec: t.Type<ControlPlaneTopology> = struct(
  'ControlPlaneTopology',
  {},
  {
    machineHealthCheck: MachineHealthCheckTopologyCodec,
    metadata: TemplateMetadataCodec,
    nodeDeletionTimeout: string,
    nodeDrainTimeout: string,
    nodeVolumeDetachTimeout: string,
    readinessGates: arrayOf(MachineReadinessGateCodec, { maxItems: 32, listMapKeys: ['conditionType'] }),
    replicas: int32,
    variables: ControlPlaneVariablesCodec,
  },
);

export interface MachineDeploymentTopology {
  class: string;
  failureDomain?: string;
  machineHealthCheck?: MachineHealthCheckTopology;
  metadata?: TemplateMetadata;
  minReadySeconds?: number;
  name: string;
  nodeDeletionTimeout?: string;
  nodeDrainTimeout?: string;
  nodeVolumeDetachTimeout?: string;
  readinessGates?: MachineReadinessGate[];
  replicas?: number;
  strategy?: MachineDeploymentStrategy;
  variables?: ControlPlaneVariables;
}

export const MachineDeploymentTopologyCodec: t.Type<MachineDeploymentTopology> = struct(
  'MachineDeploymentTopology',
  {
    class: stringWith({ minLength: 1, maxLength: 256 }),
    name: stringWith({ minLength: 1, maxLength: 63 }),
  },
  {
    failureDomain: stringWith({ minLength: 1, maxLength: 256 }),
    machineHealthCheck: MachineHealthCheckTopologyCodec,
    metadata: TemplateMetadataCodec,
    minReadySeconds: int32,
    nodeDeletionTimeout: string,
    nodeDrainTimeout: string,
    nodeVolumeDetachTimeout: string,
    readinessGates: arrayOf(MachineReadinessGateCodec, { maxItems: 32, listMapKeys: ['conditionType'] }),
    replicas: int32,
    strategy: MachineDeploymentStrategyCodec,
    variables: ControlPlaneVariablesCodec,
  },
);

export interface MachinePoolTopology {
  class: string;
  failureDomains?: string[];
  metadata?: TemplateMetadata;
  minReadySeconds?: number;
  name: string;
  nodeDeletionTimeout?: string;
  nodeDrainTimeout?: string;
  nodeVolumeDetachTimeout?: string;
  replicas?: number;
  variables?: ControlPlaneVariables;
}

export const MachinePoolTopologyCodec: t.Type<MachinePoolTopology> = struct(
  'MachinePoolTopology',
  {
    class: stringWith({ minLength: 1, maxLength: 256 }),
    name: stringWith({ minLength: 1, maxLength: 63 }),
  },
  {
    failureDomains: arrayOf(stringWith({ minLength: 1, maxLength: 256 }), { maxItems: 100 }),
    metadata: TemplateMetadataCodec,
    minReadySeconds: int32,
    nodeDeletionTimeout: string,
    nodeDrainTimeout: string,
    nodeVolumeDetachTimeout: string,
    replicas: int32,
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
    machineDeployments: arrayOf(MachineDeploymentTopologyCodec, { maxItems: 2000, listMapKeys: ['name'] }),
    machinePools: arrayOf(MachinePoolTopologyCodec, { maxItems: 2000, listMapKeys: ['name'] }),
  },
);

export interface Topology {
  class: string;
  classNamespace?: string;
  controlPlane?: ControlPlaneTopology;
  rolloutAfter?: Time;
  variables?: ClusterVariable[];
  version: string;
  workers?: WorkersTopology;
}

export const TopologyCodec: t.Type<Topology> = struct(
  'Topology',
  {
    class: stringWith({ minLength: 1, maxLength: 253 }),
    version: stringWith({ minLength: 1, maxLength: 256 }),
  },
  {
    classNamespace: stringWith({ minLength: 1, maxLength: 63, pattern: patterns.dnsLabel }),
    controlPlane: ControlPlaneTopologyCodec,
    rolloutAfter: Time,
    variables: arrayOf(ClusterVariableCodec, { maxItems: 1000, listMapKeys: ['name'] }),
    workers: WorkersTopologyCodec,
  },
);

export interface ClusterSpec {
  availabilityGates?: MachineReadinessGate[];
  clusterNetwork?: ClusterNetwork;
  controlPlaneEndpoint?: APIEndpoint;
  controlPlaneRef?: ObjectReference;
  infrastructureRef?: ObjectReference;
  paused?: boolean;
  topology?: Topology;
}

export const ClusterSpecCodec: t.Type<ClusterSpec> = struct(
  'ClusterSpec',
  {},
  {
    availabilityGates: arrayOf(MachineReadinessGateCodec, { maxItems: 32, listMapKeys: ['conditionType'] }),
    clusterNetwork: ClusterNetworkCodec,
    controlPlaneEndpoint: APIEndpointCodec,
    controlPlaneRef: ObjectReferenceCodec,
    infrastructureRef: ObjectReferenceCodec,
    paused: boolean,
    topology: TopologyCodec,
  },
);

export interface ClusterControlPlaneStatus {
  availableReplicas?: number;
  desiredReplicas?: number;
  readyReplicas?: number;
  replicas?: number;
  upToDateReplicas?: number;
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
  },
);

export interface ClusterV1Beta2Status {
  conditions?: MetaCondition[];
  controlPlane?: ClusterControlPlaneStatus;
  workers?: ClusterControlPlaneStatus;
}

export const ClusterV1Beta2StatusCodec: t.Type<ClusterV1Beta2Status> = struct(
  'ClusterV1Beta2Status',
  {},
  {
    conditions: arrayOf(MetaConditionCodec, { maxItems: 32, listMapKeys: ['type'] }),
    controlPlane: ClusterControlPlaneStatusCodec,
    workers: ClusterControlPlaneStatusCodec,
  },
);

export interface FailureDomainSpec {
  attributes?: Record<string, string>;
  controlPlane?: boolean;
}

export const FailureDomainSpecCodec: t.Type<FailureDomainSpec> = struct(
  'FailureDomainSpec',
  {},
  {
    attributes: mapOf(string),
    controlPlane: boolean,
  },
);

export interface ClusterStatus {
  conditions?: Condition[];
  controlPlaneReady?: boolean;
  failureDomains?: Record<string, FailureDomainSpec>;
  failureMessage?: string;
  failureReason?: string;
  infrastructureReady?: boolean;
  observedGeneration?: number;
  phase?: 'Pending' | 'Provisioning' | 'Provisioned' | 'Deleting' | 'Failed' | 'Unknown';
  v1beta2?: ClusterV1Beta2Status;
}

export const ClusterStatusCodec: t.Type<ClusterStatus> = struct(
  'ClusterStatus',
  {},
  {
    conditions: arrayOf(ConditionCodec),
    controlPlaneReady: boolean,
    failureDomains: mapOf(FailureDomainSpecCodec),
    failureMessage: stringWith({ minLength: 1, maxLength: 10240 }),
    failureReason: string,
    infrastructureReady: boolean,
    observedGeneration: int64,
    phase: enumOf('Pending', 'Provisioning', 'Provisioned', 'Deleting', 'Failed', 'Unknown'),
    v1beta2: ClusterV1Beta2StatusCodec,
  },
);

/** `cluster.x-k8s.io/v1beta1` Cluster. */
export interface Cluster {
  apiVersion: typeof APIVersion;
  kind: 'Cluster';
  metadata?: ObjectMeta;
  spec?: ClusterSpec;
  status?: ClusterStatus;
}

const cluster = resourceCodecs<Cluster>(
  APIVersion,
  'Cluster',
  {},
  { metadata: ObjectMetaCodec, spec: ClusterSpecCodec, status: ClusterStatusCodec },
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
