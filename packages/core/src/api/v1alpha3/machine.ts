import type * as t from 'io-ts';
import { type ListMeta, type ObjectMeta, ObjectMetaCodec } from '../meta/object-meta.js';
import { type ObjectReference, ObjectReferenceCodec } from '../meta/object-reference.js';
import { type ListItem, listCodec, resourceCodecs } from '../meta/resource.js';
import { arrayOf, boolean, int64, string, stringWith, struct, Time } from '../schema/index.js';
import { APIVersion } from './constants.js';

export interface Bootstrap {
  configRef?: ObjectReference;
  data?: string;
  dataSecretName?: string;
}

export const BootstrapCodec: t.Type<Bootstrap> = struct(
  'Bootstrap',
  {},
  {
    configRef: ObjectReferenceCodec,
    data: string,
    dataSecretName: string,
  },
);

export interface MachineSpec {
  bootstrap: Bootstrap;
  clusterName: string;
  failureDomain?: string;
  infrastructureRef: ObjectReference;
  nodeDrainTimeout?: string;
  providerID?: string;
  version?: string;
}

export const MachineSpecCodec: t.Type<MachineSpec> = struct(
  'MachineSpec',
  {
    bootstrap: BootstrapCodec,
    clusterName: stringWith({ minLength: 1 }),
    infrastructureRef: ObjectReferenceCodec,
  },
  {
    failureDomain: string,
    nodeDrainTimeout: string,
    providerID: string,
    version: string,
  },
);

export interface Condition {
  lastTransitionTime?: Time;
  message?: string;
  reason?: string;
  severity?: string;
  status: string;
  type: string;
}

export const ConditionCodec: t.Type<Condition> = struct(
  'Condition',
  {
    status: string,
    type: string,
  },
  {
    lastTransitionTime: Time,
    message: string,
    reason: string,
    severity: string,
  },
);

export interface MachineAddress {
  address: string;
  type: string;
}

export const MachineAddressCodec: t.Type<MachineAddress> = struct(
  'MachineAddress',
  {
    address: string,
    type: string,
  },
  {},
);

export interface MachineStatus {
  addresses?: MachineAddress[];
  bootstrapReady?: boolean;
  conditions?: Condition[];
  failureMessage?: string;
  failureReason?: string;
  infrastructureReady?: boolean;
  lastUpdated?: Time;
  nodeRef?: ObjectReference;
  observedGeneration?: number;
  phase?: string;
  version?: string;
}

export const MachineStatusCodec: t.Type<MachineStatus> = struct(
  'MachineStatus',
  {},
  {
    addresses: arrayOf(MachineAddressCodec),
    bootstrapReady: boolean,
    conditions: arrayOf(ConditionCodec),
    failureMessage: string,
    failureReason: string,
    infrastructureReady: boolean,
    lastUpdated: Time,
    nodeRef: ObjectReferenceCodec,
    observedGeneration: int64,
    phase: string,
    version: string,
  },
);

/** `cluster.x-k8s.io/v1alpha3` Machine. */
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
