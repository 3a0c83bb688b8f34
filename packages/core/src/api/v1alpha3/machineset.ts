import type * as t from 'io-ts';
import { type LabelSelector, LabelSelectorCodec } from '../meta/label-selector.js';
import {
  type ListMeta,
  type ObjectMeta,
  ObjectMetaCodec,
  type ObjectMetaSubset,
  ObjectMetaSubsetCodec,
} from '../meta/object-meta.js';
import { type ListItem, listCodec, resourceCodecs } from '../meta/resource.js';
import { enumOf, int32, int64, replicaCount, string, stringWith, struct } from '../schema/index.js';
import { APIVersion } from './constants.js';
import { type MachineSpec, MachineSpecCodec } from './machine.js';

export interface MachineTemplateSpec {
  metadata?: ObjectMetaSubset;
  spec?: MachineSpec;
}

export const MachineTemplateSpecCodec: t.Type<MachineTemplateSpec> = struct(
  'MachineTemplateSpec',
  {},
  {
    metadata: ObjectMetaSubsetCodec,
    spec: MachineSpecCodec,
  },
);

export interface MachineSetSpec {
  clusterName: string;
  deletePolicy?: 'Random' | 'Newest' | 'Oldest';
  minReadySeconds?: number;
  replicas?: number;
  selector: LabelSelector;
  template?: MachineTemplateSpec;
}

export const MachineSetSpecCodec: t.Type<MachineSetSpec> = struct(
  'MachineSetSpec',
  {
    clusterName: stringWith({ minLength: 1 }),
    selector: LabelSelectorCodec,
  },
  {
    deletePolicy: enumOf('Random', 'Newest', 'Oldest'),
    minReadySeconds: int32,
    replicas: replicaCount,
    template: MachineTemplateSpecCodec,
  },
);

export interface MachineSetStatus {
  availableReplicas?: number;
  failureMessage?: string;
  failureReason?: string;
  fullyLabeledReplicas?: number;
  observedGeneration?: number;
  readyReplicas?: number;
  replicas?: number;
  selector?: string;
}

export const MachineSetStatusCodec: t.Type<MachineSetStatus> = struct(
  'MachineSetStatus',
  {},
  {
    availableReplicas: int32,
    failureMessage: string,
    failureReason: string,
    fullyLabeledReplicas: int32,
    observedGeneration: int64,
    readyReplicas: int32,
    replicas: replicaCount,
    selector: string,
  },
);

/** `cluster.x-k8s.io/v1alpha3` MachineSet. */
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
