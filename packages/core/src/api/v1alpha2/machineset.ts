import type * as t from 'io-ts';
import { type LabelSelector, LabelSelectorCodec } from '../meta/label-selector.js';
import { type ListMeta, type ObjectMeta, ObjectMetaCodec } from '../meta/object-meta.js';
import { type ListItem, listCodec, resourceCodecs } from '../meta/resource.js';
import {
  enumOf,
  int32,
  int64,
  type OpenString,
  openString,
  replicaCount,
  string,
  struct,
} from '../schema/index.js';
import {
  APIVersion,
  type KnownMachineSetStatusError,
  MachineSetDeletePolicies,
  type MachineSetDeletePolicy,
} from './constants.js';
import { type MachineTemplateSpec, MachineTemplateSpecCodec } from './machine.js';

export interface MachineSetSpec {
  /** Go's `Default()` says 1 but no v0.2 controller calls it, and a nil value makes the controller error. Never negative (the scale subresource checks it). */
  replicas?: number;
  minReadySeconds?: number;
  /** Unset means Random. */
  deletePolicy?: MachineSetDeletePolicy;
  selector: LabelSelector;
  template?: MachineTemplateSpec;
}

export const MachineSetSpecCodec: t.Type<MachineSetSpec> = struct(
  'MachineSetSpec',
  { selector: LabelSelectorCodec },
  {
    replicas: replicaCount,
    minReadySeconds: int32,
    deletePolicy: enumOf(...MachineSetDeletePolicies),
    template: MachineTemplateSpecCodec,
  },
);

export type MachineSetStatusError = OpenString<KnownMachineSetStatusError>;

export interface MachineSetStatus {
  /** The label selector in query-string form (`a=b,c in (d)`), for the scale subresource. */
  selector?: string;
  /** Never negative (the scale subresource checks it). */
  replicas: number;
  fullyLabeledReplicas?: number;
  readyReplicas?: number;
  availableReplicas?: number;
  observedGeneration?: number;
  errorReason?: MachineSetStatusError;
  errorMessage?: string;
}

export const MachineSetStatusCodec: t.Type<MachineSetStatus> = struct(
  'MachineSetStatus',
  { replicas: replicaCount },
  {
    selector: string,
    fullyLabeledReplicas: int32,
    readyReplicas: int32,
    availableReplicas: int32,
    observedGeneration: int64,
    errorReason: openString<KnownMachineSetStatusError>(),
    errorMessage: string,
  },
);

/** `cluster.x-k8s.io/v1alpha2` MachineSet. */
export interface MachineSet {
  apiVersion: typeof APIVersion;
  kind: 'MachineSet';
  metadata?: ObjectMeta;
  spec?: MachineSetSpec;
  status?: MachineSetStatus;
}

const machineSet = resourceCodecs<MachineSet>(
  APIVersion,
  'MachineSet',
  {},
  { metadata: ObjectMetaCodec, spec: MachineSetSpecCodec, status: MachineSetStatusCodec },
);
export const MachineSetCodec: t.Type<MachineSet> = machineSet.codec;

export interface MachineSetList {
  apiVersion: typeof APIVersion;
  kind: 'MachineSetList';
  metadata?: ListMeta;
  items: ListItem<MachineSet>[] | null;
}

export const MachineSetListCodec: t.Type<MachineSetList> = listCodec<MachineSetList, ListItem<MachineSet>>(
  APIVersion,
  'MachineSetList',
  machineSet.itemCodec,
);
