import type * as t from 'io-ts';
import {
  type NodeAddress,
  NodeAddressCodec,
  type NodeCondition,
  NodeConditionCodec,
  type NodeConfigSource,
  NodeConfigSourceCodec,
  type Taint,
  TaintCodec,
} from '../meta/node.js';
import { type ListMeta, type ObjectMeta, ObjectMetaCodec } from '../meta/object-meta.js';
import { type ObjectReference, ObjectReferenceCodec } from '../meta/object-reference.js';
import { type ListItem, listCodec, resourceCodecs } from '../meta/resource.js';
import {
  arrayOf,
  type OpenString,
  openString,
  type RawExtension,
  RawExtension as RawExtensionCodec,
  string,
  struct,
  Time,
} from '../schema/index.js';
import { type ProviderSpec, ProviderSpecCodec } from './common.js';
import { APIVersion, type KnownMachineStatusError } from './constants.js';

/** Kubernetes versions of a Machine. A control-plane Machine is one with a non-empty `controlPlane`. */
export interface MachineVersionInfo {
  kubelet: string;
  controlPlane?: string;
}

export const MachineVersionInfoCodec: t.Type<MachineVersionInfo> = struct(
  'MachineVersionInfo',
  { kubelet: string },
  { controlPlane: string },
);

export interface MachineSpec {
  /** Labels, annotations and name prefix to give the Node (full ObjectMeta in v1alpha1). */
  metadata?: ObjectMeta;
  taints?: Taint[];
  /** Required in the CRD, though the Go comment says optional. */
  providerSpec: ProviderSpec;
  versions?: MachineVersionInfo;
  configSource?: NodeConfigSource;
  providerID?: string;
}

export const MachineSpecCodec: t.Type<MachineSpec> = struct(
  'MachineSpec',
  { providerSpec: ProviderSpecCodec },
  {
    metadata: ObjectMetaCodec,
    taints: arrayOf(TaintCodec),
    versions: MachineVersionInfoCodec,
    configSource: NodeConfigSourceCodec,
    providerID: string,
  },
);

/** The last operation the machine actuator performed (every field optional). */
export interface LastOperation {
  description?: string;
  lastUpdated?: Time;
  /** E.g. Processing, Failed, Successful. */
  state?: string;
  /** E.g. Create, Delete, Update. */
  type?: string;
}

export const LastOperationCodec: t.Type<LastOperation> = struct(
  'LastOperation',
  {},
  { description: string, lastUpdated: Time, state: string, type: string },
);

export type MachineStatusError = OpenString<KnownMachineStatusError>;

export interface MachineStatus {
  nodeRef?: ObjectReference;
  lastUpdated?: Time;
  versions?: MachineVersionInfo;
  errorReason?: MachineStatusError;
  errorMessage?: string;
  providerStatus?: RawExtension;
  addresses?: NodeAddress[];
  conditions?: NodeCondition[];
  lastOperation?: LastOperation;
  /** Free text in v1alpha1 (no enum); providers set what they like. */
  phase?: string;
}

export const MachineStatusCodec: t.Type<MachineStatus> = struct(
  'MachineStatus',
  {},
  {
    nodeRef: ObjectReferenceCodec,
    lastUpdated: Time,
    versions: MachineVersionInfoCodec,
    errorReason: openString<KnownMachineStatusError>(),
    errorMessage: string,
    providerStatus: RawExtensionCodec,
    addresses: arrayOf(NodeAddressCodec),
    conditions: arrayOf(NodeConditionCodec),
    lastOperation: LastOperationCodec,
    phase: string,
  },
);

/** `cluster.k8s.io/v1alpha1` Machine. */
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

/** The Machine template of MachineSets and MachineDeployments (full ObjectMeta in v1alpha1). */
export interface MachineTemplateSpec {
  metadata?: ObjectMeta;
  spec?: MachineSpec;
}

export const MachineTemplateSpecCodec: t.Type<MachineTemplateSpec> = struct(
  'MachineTemplateSpec',
  {},
  { metadata: ObjectMetaCodec, spec: MachineSpecCodec },
);
