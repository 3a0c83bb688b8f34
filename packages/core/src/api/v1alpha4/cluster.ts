import type * as t from 'io-ts';
import { type ListMeta, type ObjectMeta, ObjectMetaCodec } from '../meta/object-meta.js';
import { type ObjectReference, ObjectReferenceCodec } from '../meta/object-reference.js';
import { type ListItem, listCodec, resourceCodecs } from '../meta/resource.js';
import { arrayOf, boolean, int32, int64, mapOf, nullable, string, struct, Time } from '../schema/index.js';
import { type TemplateMetadata, TemplateMetadataCodec } from './common.js';
import { APIVersion } from './constants.js';
import { type Condition, ConditionCodec } from './machine.js';

export interface APIEndpoint {
  host: string;
  port: number;
}

export const APIEndpointCodec: t.Type<APIEndpoint> = struct(
  'APIEndpoint',
  {
    host: string,
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
    cidrBlocks: nullable(arrayOf(string)),
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
    serviceDomain: string,
    services: NetworkRangesCodec,
  },
);

export interface ControlPlaneTopology {
  metadata?: TemplateMetadata;
  replicas?: number;
}

export const ControlPlaneTopologyCodec: t.Type<ControlPlaneTopology> = struct(
  'ControlPlaneTopology',
  {},
  {
    metadata: TemplateMetadataCodec,
    replicas: int32,
  },
);

export interface MachineDeploymentTopology {
  class: string;
  metadata?: TemplateMetadata;
  name: string;
  replicas?: number;
}

export const MachineDeploymentTopologyCodec: t.Type<MachineDeploymentTopology> = struct(
  'MachineDeploymentTopology',
  {
    class: string,
    name: string,
  },
  {
    metadata: TemplateMetadataCodec,
    replicas: int32,
  },
);

export interface WorkersTopology {
  machineDeployments?: MachineDeploymentTopology[];
}

export const WorkersTopologyCodec: t.Type<WorkersTopology> = struct(
  'WorkersTopology',
  {},
  {
    machineDeployments: arrayOf(MachineDeploymentTopologyCodec),
  },
);

export interface Topology {
  class: string;
  controlPlane?: ControlPlaneTopology;
  rolloutAfter?: Time;
  version: string;
  workers?: WorkersTopology;
}

export const TopologyCodec: t.Type<Topology> = struct(
  'Topology',
  {
    class: string,
    version: string,
  },
  {
    controlPlane: ControlPlaneTopologyCodec,
    rolloutAfter: Time,
    workers: WorkersTopologyCodec,
  },
);

export interface ClusterSpec {
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
    clusterNetwork: ClusterNetworkCodec,
    controlPlaneEndpoint: APIEndpointCodec,
    controlPlaneRef: ObjectReferenceCodec,
    infrastructureRef: ObjectReferenceCodec,
    paused: boolean,
    topology: TopologyCodec,
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
  phase?: string;
}

export const ClusterStatusCodec: t.Type<ClusterStatus> = struct(
  'ClusterStatus',
  {},
  {
    conditions: arrayOf(ConditionCodec),
    controlPlaneReady: boolean,
    failureDomains: mapOf(FailureDomainSpecCodec),
    failureMessage: string,
    failureReason: string,
    infrastructureReady: boolean,
    observedGeneration: int64,
    phase: string,
  },
);

/** `cluster.x-k8s.io/v1alpha4` Cluster. */
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
