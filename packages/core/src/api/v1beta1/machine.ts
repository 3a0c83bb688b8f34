import type * as t from 'io-ts';
import { type ListMeta, type ObjectMeta, ObjectMetaCodec } from '../meta/object-meta.js';
import { type ObjectReference, ObjectReferenceCodec } from '../meta/object-reference.js';
import { type ListItem, listCodec, resourceCodecs } from '../meta/resource.js';
import {
  arrayOf,
  boolean,
  enumOf,
  int64,
  integerWith,
  string,
  stringWith,
  struct,
  Time,
} from '../schema/index.js';
import * as patterns from '../schema/patterns.js';
import { APIVersion } from './constants.js';

export interface Bootstrap {
  configRef?: ObjectReference;
  dataSecretName?: string;
}

export const BootstrapCodec: t.Type<Bootstrap> = struct(
  'Bootstrap',
  {},
  {
    configRef: ObjectReferenceCodec,
    dataSecretName: stringWith({ maxLength: 253 }),
  },
);

export interface MachineReadinessGate {
  conditionType: string;
  polarity?: 'Positive' | 'Negative';
}

export const MachineReadinessGateCodec: t.Type<MachineReadinessGate> = struct(
  'MachineReadinessGate',
  {
    conditionType: stringWith({ minLength: 1, maxLength: 316, pattern: patterns.qualifiedName }),
  },
  {
    polarity: enumOf('Positive', 'Negative'),
  },
);

export interface MachineSpec {
  bootstrap: Bootstrap;
  clusterName: string;
  failureDomain?: string;
  infrastructureRef: ObjectReference;
  nodeDeletionTimeout?: string;
  nodeDrainTimeout?: string;
  nodeVolumeDetachTimeout?: string;
  providerID?: string;
  readinessGates?: MachineReadinessGate[];
  version?: string;
}

export const MachineSpecCodec: t.Type<MachineSpec> = struct(
  'MachineSpec',
  {
    bootstrap: BootstrapCodec,
    clusterName: stringWith({ minLength: 1, maxLength: 63 }),
    infrastructureRef: ObjectReferenceCodec,
  },
  {
    failureDomain: stringWith({ minLength: 1, maxLength: 256 }),
    nodeDeletionTimeout: string,
    nodeDrainTimeout: string,
    nodeVolumeDetachTimeout: string,
    providerID: stringWith({ minLength: 1, maxLength: 512 }),
    readinessGates: arrayOf(MachineReadinessGateCodec, { maxItems: 32, listMapKeys: ['conditionType'] }),
    version: stringWith({ minLength: 1, maxLength: 256 }),
  },
);

export interface Condition {
  lastTransitionTime: Time;
  message?: string;
  reason?: string;
  severity?: string;
  status: string;
  type: string;
}

export const ConditionCodec: t.Type<Condition> = struct(
  'Condition',
  {
    lastTransitionTime: Time,
    status: string,
    type: stringWith({ minLength: 1, maxLength: 256 }),
  },
  {
    message: stringWith({ minLength: 1, maxLength: 10240 }),
    reason: stringWith({ minLength: 1, maxLength: 256 }),
    severity: stringWith({ maxLength: 32 }),
  },
);

export interface MachineAddress {
  address: string;
  type: 'Hostname' | 'ExternalIP' | 'InternalIP' | 'ExternalDNS' | 'InternalDNS';
}

export const MachineAddressCodec: t.Type<MachineAddress> = struct(
  'MachineAddress',
  {
    address: stringWith({ minLength: 1, maxLength: 256 }),
    type: enumOf('Hostname', 'ExternalIP', 'InternalIP', 'ExternalDNS', 'InternalDNS'),
  },
  {},
);

export interface MachineDeletionStatus {
  nodeDrainStartTime?: Time;
  waitForNodeVolumeDetachStartTime?: Time;
}

export const MachineDeletionStatusCodec: t.Type<MachineDeletionStatus> = struct(
  'MachineDeletionStatus',
  {},
  {
    nodeDrainStartTime: Time,
    waitForNodeVolumeDetachStartTime: Time,
  },
);

export interface MetaCondition {
  lastTransitionTime: Time;
  message: string;
  observedGeneration?: number;
  reason: string;
  status: 'True' | 'False' | 'Unknown';
  type: string;
}

export const MetaConditionCodec: t.Type<MetaCondition> = struct(
  'MetaCondition',
  {
    lastTransitionTime: Time,
    message: stringWith({ maxLength: 32768 }),
    reason: stringWith({ minLength: 1, maxLength: 1024, pattern: patterns.conditionReason }),
    status: enumOf('True', 'False', 'Unknown'),
    type: stringWith({ maxLength: 316, pattern: patterns.qualifiedName }),
  },
  {
    observedGeneration: integerWith('int64', { minimum: 0 }),
  },
);

export interface MachineV1Beta2Status {
  conditions?: MetaCondition[];
}

export const MachineV1Beta2StatusCodec: t.Type<MachineV1Beta2Status> = struct(
  'MachineV1Beta2Status',
  {},
  {
    conditions: arrayOf(MetaConditionCodec, { maxItems: 32, listMapKeys: ['type'] }),
  },
);

export interface NodeSystemInfo {
  architecture: string;
  bootID: string;
  containerRuntimeVersion: string;
  kernelVersion: string;
  kubeProxyVersion: string;
  kubeletVersion: string;
  machineID: string;
  operatingSystem: string;
  osImage: string;
  systemUUID: string;
}

export const NodeSystemInfoCodec: t.Type<NodeSystemInfo> = struct(
  'NodeSystemInfo',
  {
    architecture: string,
    bootID: string,
    containerRuntimeVersion: string,
    kernelVersion: string,
    kubeProxyVersion: string,
    kubeletVersion: string,
    machineID: string,
    operatingSystem: string,
    osImage: string,
    systemUUID: string,
  },
  {},
);

export interface MachineStatus {
  addresses?: MachineAddress[];
  bootstrapReady?: boolean;
  certificatesExpiryDate?: Time;
  conditions?: Condition[];
  deletion?: MachineDeletionStatus;
  failureMessage?: string;
  failureReason?: string;
  infrastructureReady?: boolean;
  lastUpdated?: Time;
  nodeInfo?: NodeSystemInfo;
  nodeRef?: ObjectReference;
  observedGeneration?: number;
  phase?:
    | 'Pending'
    | 'Provisioning'
    | 'Provisioned'
    | 'Running'
    | 'Deleting'
    | 'Deleted'
    | 'Failed'
    | 'Unknown';
  v1beta2?: MachineV1Beta2Status;
}

export const MachineStatusCodec: t.Type<MachineStatus> = struct(
  'MachineStatus',
  {},
  {
    addresses: arrayOf(MachineAddressCodec),
    bootstrapReady: boolean,
    certificatesExpiryDate: Time,
    conditions: arrayOf(ConditionCodec),
    deletion: MachineDeletionStatusCodec,
    failureMessage: stringWith({ minLength: 1, maxLength: 10240 }),
    failureReason: string,
    infrastructureReady: boolean,
    lastUpdated: Time,
    nodeInfo: NodeSystemInfoCodec,
    nodeRef: ObjectReferenceCodec,
    observedGeneration: int64,
    phase: enumOf(
      'Pending',
      'Provisioning',
      'Provisioned',
      'Running',
      'Deleting',
      'Deleted',
      'Failed',
      'Unknown',
    ),
    v1beta2: MachineV1Beta2StatusCodec,
  },
);

/** `cluster.x-k8s.io/v1beta1` Machine. */
export interface Machine {
  apiVersion: typeof APIVersion;
  kind: 'Machine';
  metadata?: ObjectMeta;
  spec?: MachineSpec;
  status?: MachineStatus;
}

const machine = resourceCodecs<Machine>(
  APIVersion,
  'Machine',
  {},
  { metadata: ObjectMetaCodec, spec: MachineSpecCodec, status: MachineStatusCodec },
);
export const MachineCodec: t.Type<Machine> = machine.codec;

export interface MachineList {
  apiVersion: typeof APIVersion;
  kind: 'MachineList';
  metadata?: ListMeta;
  items: ListItem<Machine>[] | null;
}

export const MachineListCodec: t.Type<MachineList> = listCodec<MachineList, ListItem<Machine>>(
  APIVersion,
  'MachineList',
  machine.itemCodec,
);
