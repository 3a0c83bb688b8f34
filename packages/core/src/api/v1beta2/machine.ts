import type * as t from 'io-ts';
import { type ListMeta, type ObjectMeta, ObjectMetaCodec } from '../meta/object-meta.js';
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

export interface ContractVersionedObjectReference {
  apiGroup: string;
  kind: string;
  name: string;
}

export const ContractVersionedObjectReferenceCodec: t.Type<ContractVersionedObjectReference> = struct(
  'ContractVersionedObjectReference',
  {
    apiGroup: stringWith({ minLength: 1, maxLength: 253, pattern: patterns.dnsSubdomain }),
    kind: stringWith({ minLength: 1, maxLength: 63, pattern: patterns.kindName }),
    name: stringWith({ minLength: 1, maxLength: 253, pattern: patterns.dnsSubdomain }),
  },
  {},
);

export interface Bootstrap {
  configRef?: ContractVersionedObjectReference;
  dataSecretName?: string;
}

export const BootstrapCodec: t.Type<Bootstrap> = struct(
  'Bootstrap',
  {},
  {
    configRef: ContractVersionedObjectReferenceCodec,
    dataSecretName: stringWith({ maxLength: 253 }),
  },
);

export interface MachineDeletionSpec {
  nodeDeletionTimeoutSeconds?: number;
  nodeDrainTimeoutSeconds?: number;
  nodeVolumeDetachTimeoutSeconds?: number;
}

export const MachineDeletionSpecCodec: t.Type<MachineDeletionSpec> = struct(
  'MachineDeletionSpec',
  {},
  {
    nodeDeletionTimeoutSeconds: integerWith('int32', { minimum: 0 }),
    nodeDrainTimeoutSeconds: integerWith('int32', { minimum: 0 }),
    nodeVolumeDetachTimeoutSeconds: integerWith('int32', { minimum: 0 }),
  },
  { minProperties: 1 },
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

export interface MachineTaint {
  effect: 'NoSchedule' | 'PreferNoSchedule' | 'NoExecute';
  key: string;
  propagation: 'Always' | 'OnInitialization';
  value?: string;
}

export const MachineTaintCodec: t.Type<MachineTaint> = struct(
  'MachineTaint',
  {
    effect: enumOf('NoSchedule', 'PreferNoSchedule', 'NoExecute'),
    key: stringWith({ minLength: 1, maxLength: 317, pattern: patterns.taintKey }),
    propagation: enumOf('Always', 'OnInitialization'),
  },
  {
    value: stringWith({ minLength: 1, maxLength: 63, pattern: patterns.labelValue }),
  },
);

export interface MachineSpec {
  bootstrap: Bootstrap;
  clusterName: string;
  deletion?: MachineDeletionSpec;
  failureDomain?: string;
  infrastructureRef: ContractVersionedObjectReference;
  minReadySeconds?: number;
  providerID?: string;
  readinessGates?: MachineReadinessGate[];
  taints?: MachineTaint[];
  version?: string;
}

export const MachineSpecCodec: t.Type<MachineSpec> = struct(
  'MachineSpec',
  {
    bootstrap: BootstrapCodec,
    clusterName: stringWith({ minLength: 1, maxLength: 63 }),
    infrastructureRef: ContractVersionedObjectReferenceCodec,
  },
  {
    deletion: MachineDeletionSpecCodec,
    failureDomain: stringWith({ minLength: 1, maxLength: 256 }),
    minReadySeconds: integerWith('int32', { minimum: 0 }),
    providerID: stringWith({ minLength: 1, maxLength: 512 }),
    readinessGates: arrayOf(MachineReadinessGateCodec, {
      minItems: 1,
      maxItems: 32,
      listMapKeys: ['conditionType'],
    }),
    taints: arrayOf(MachineTaintCodec, { minItems: 1, maxItems: 64, listMapKeys: ['key', 'effect'] }),
    version: stringWith({ minLength: 1, maxLength: 256 }),
  },
);

export interface Condition {
  lastTransitionTime: Time;
  message: string;
  observedGeneration?: number;
  reason: string;
  status: 'True' | 'False' | 'Unknown';
  type: string;
}

export const ConditionCodec: t.Type<Condition> = struct(
  'Condition',
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
  waitForPreDrainHookStartTime?: Time;
  waitForPreTerminateHookStartTime?: Time;
}

export const MachineDeletionStatusCodec: t.Type<MachineDeletionStatus> = struct(
  'MachineDeletionStatus',
  {},
  {
    nodeDrainStartTime: Time,
    waitForNodeVolumeDetachStartTime: Time,
    waitForPreDrainHookStartTime: Time,
    waitForPreTerminateHookStartTime: Time,
  },
);

export interface V1Beta1Condition {
  lastTransitionTime: Time;
  message?: string;
  reason?: string;
  severity?: string;
  status: string;
  type: string;
}

export const V1Beta1ConditionCodec: t.Type<V1Beta1Condition> = struct(
  'V1Beta1Condition',
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

export interface MachineV1Beta1DeprecatedStatus {
  conditions?: V1Beta1Condition[];
  failureMessage?: string;
  failureReason?: string;
}

export const MachineV1Beta1DeprecatedStatusCodec: t.Type<MachineV1Beta1DeprecatedStatus> = struct(
  'MachineV1Beta1DeprecatedStatus',
  {},
  {
    conditions: arrayOf(V1Beta1ConditionCodec),
    failureMessage: stringWith({ minLength: 1, maxLength: 10240 }),
    failureReason: string,
  },
);

export interface MachineDeprecatedStatus {
  v1beta1?: MachineV1Beta1DeprecatedStatus;
}

export const MachineDeprecatedStatusCodec: t.Type<MachineDeprecatedStatus> = struct(
  'MachineDeprecatedStatus',
  {},
  {
    v1beta1: MachineV1Beta1DeprecatedStatusCodec,
  },
);

export interface MachineInitializationStatus {
  bootstrapDataSecretCreated?: boolean;
  infrastructureProvisioned?: boolean;
}

export const MachineInitializationStatusCodec: t.Type<MachineInitializationStatus> = struct(
  'MachineInitializationStatus',
  {},
  {
    bootstrapDataSecretCreated: boolean,
    infrastructureProvisioned: boolean,
  },
  { minProperties: 1 },
);

export interface MachineNodeReference {
  name: string;
}

export const MachineNodeReferenceCodec: t.Type<MachineNodeReference> = struct(
  'MachineNodeReference',
  {
    name: stringWith({ minLength: 1, maxLength: 253, pattern: patterns.dnsSubdomain }),
  },
  {},
);

export interface NodeSwapStatus {
  capacity?: number;
}

export const NodeSwapStatusCodec: t.Type<NodeSwapStatus> = struct(
  'NodeSwapStatus',
  {},
  {
    capacity: int64,
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
  swap?: NodeSwapStatus;
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
  {
    swap: NodeSwapStatusCodec,
  },
);

export interface MachineStatus {
  addresses?: MachineAddress[];
  certificatesExpiryDate?: Time;
  conditions?: Condition[];
  deletion?: MachineDeletionStatus;
  deprecated?: MachineDeprecatedStatus;
  failureDomain?: string;
  initialization?: MachineInitializationStatus;
  lastUpdated?: Time;
  nodeInfo?: NodeSystemInfo;
  nodeRef?: MachineNodeReference;
  observedGeneration?: number;
  phase?:
    | 'Pending'
    | 'Provisioning'
    | 'Provisioned'
    | 'Running'
    | 'Updating'
    | 'Deleting'
    | 'Deleted'
    | 'Failed'
    | 'Unknown';
}

export const MachineStatusCodec: t.Type<MachineStatus> = struct(
  'MachineStatus',
  {},
  {
    addresses: arrayOf(MachineAddressCodec, { maxItems: 256 }),
    certificatesExpiryDate: Time,
    conditions: arrayOf(ConditionCodec, { maxItems: 32, listMapKeys: ['type'] }),
    deletion: MachineDeletionStatusCodec,
    deprecated: MachineDeprecatedStatusCodec,
    failureDomain: stringWith({ minLength: 1, maxLength: 256 }),
    initialization: MachineInitializationStatusCodec,
    lastUpdated: Time,
    nodeInfo: NodeSystemInfoCodec,
    nodeRef: MachineNodeReferenceCodec,
    observedGeneration: integerWith('int64', { minimum: 1 }),
    phase: enumOf(
      'Pending',
      'Provisioning',
      'Provisioned',
      'Running',
      'Updating',
      'Deleting',
      'Deleted',
      'Failed',
      'Unknown',
    ),
  },
  { minProperties: 1 },
);

/** `cluster.x-k8s.io/v1beta2` Machine. */
export interface Machine {
  apiVersion: typeof APIVersion;
  kind: 'Machine';
  metadata?: ObjectMeta;
  spec: MachineSpec;
  status?: MachineStatus;
}

const machine = resourceCodecs<Machine>(
  APIVersion,
  'Machine',
  { spec: MachineSpecCodec },
  { metadata: ObjectMetaCodec, status: MachineStatusCodec },
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
