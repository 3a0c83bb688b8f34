import type * as t from 'io-ts';
import {
  type ListMeta,
  type ObjectMeta,
  ObjectMetaCodec,
  type ObjectMetaSubset,
  ObjectMetaSubsetCodec,
} from '../meta/object-meta.js';
import { type ObjectReference, ObjectReferenceCodec } from '../meta/object-reference.js';
import { type ListItem, listCodec, resourceCodecs } from '../meta/resource.js';
import { arrayOf, boolean, type OpenString, openString, string, struct, Time } from '../schema/index.js';
import {
  APIVersion,
  type KnownMachineAddressType,
  type KnownMachinePhase,
  type KnownMachineStatusError,
} from './constants.js';

/**
 * How the Machine gets its bootstrap data. The CRD requires the object but neither field;
 * the controller errors when both are absent. `data: ""` counts as set.
 */
export interface Bootstrap {
  configRef?: ObjectReference;
  data?: string;
}

export const BootstrapCodec: t.Type<Bootstrap> = struct(
  'Bootstrap',
  {},
  { configRef: ObjectReferenceCodec, data: string },
);

export interface MachineSpec {
  /** Deprecated upstream ("has no function"); removed in v1alpha3. */
  metadata?: ObjectMetaSubset;
  bootstrap: Bootstrap;
  /** The provider's machine object, e.g. an AWSMachine. */
  infrastructureRef: ObjectReference;
  /** Desired Kubernetes version, e.g. `v1.15.3`. */
  version?: string;
  /** Copied by the controller from the infrastructure object's `spec.providerID`. */
  providerID?: string;
}

export const MachineSpecCodec: t.Type<MachineSpec> = struct(
  'MachineSpec',
  { bootstrap: BootstrapCodec, infrastructureRef: ObjectReferenceCodec },
  { metadata: ObjectMetaSubsetCodec, version: string, providerID: string },
);

export type MachineAddressType = OpenString<KnownMachineAddressType>;

/** Same JSON shape as corev1.NodeAddress. */
export interface MachineAddress {
  type: MachineAddressType;
  address: string;
}

export const MachineAddressCodec: t.Type<MachineAddress> = struct(
  'MachineAddress',
  { type: openString<KnownMachineAddressType>(), address: string },
  {},
);

export type MachineStatusError = OpenString<KnownMachineStatusError>;
export type MachinePhase = OpenString<KnownMachinePhase>;

export interface MachineStatus {
  nodeRef?: ObjectReference;
  lastUpdated?: Time;
  version?: string;
  errorReason?: MachineStatusError;
  errorMessage?: string;
  addresses?: MachineAddress[];
  phase?: MachinePhase;
  /** No `omitempty` in Go, so present (possibly `false`) on objects a controller wrote. */
  bootstrapReady?: boolean;
  infrastructureReady?: boolean;
}

export const MachineStatusCodec: t.Type<MachineStatus> = struct(
  'MachineStatus',
  {},
  {
    nodeRef: ObjectReferenceCodec,
    lastUpdated: Time,
    version: string,
    errorReason: openString<KnownMachineStatusError>(),
    errorMessage: string,
    addresses: arrayOf(MachineAddressCodec),
    phase: openString<KnownMachinePhase>(),
    bootstrapReady: boolean,
    infrastructureReady: boolean,
  },
);

/** `cluster.x-k8s.io/v1alpha2` Machine. */
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

/**
 * The Machine template of MachineSets and MachineDeployments. Its `infrastructureRef` and
 * `bootstrap.configRef` point at templates that the MachineSet clones per Machine.
 */
export interface MachineTemplateSpec {
  metadata?: ObjectMetaSubset;
  spec?: MachineSpec;
}

export const MachineTemplateSpecCodec: t.Type<MachineTemplateSpec> = struct(
  'MachineTemplateSpec',
  {},
  { metadata: ObjectMetaSubsetCodec, spec: MachineSpecCodec },
);
