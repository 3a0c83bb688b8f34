import type * as t from 'io-ts';
import { type LabelSelector, LabelSelectorCodec } from '../meta/label-selector.js';
import { type ListMeta, type ObjectMeta, ObjectMetaCodec } from '../meta/object-meta.js';
import { type ListItem, listCodec, resourceCodecs } from '../meta/resource.js';
import { arrayOf, enumOf, int32, int64, replicaCount, string, stringWith, struct } from '../schema/index.js';
import { type TemplateMetadata, TemplateMetadataCodec } from './common.js';
import { APIVersion } from './constants.js';
import {
  type Condition,
  ConditionCodec,
  type MachineSpec,
  MachineSpecCodec,
  type MetaCondition,
  MetaConditionCodec,
} from './machine.js';

export interface MachineNamingStrategy {
  template?: string;
}

export const MachineNamingStrategyCodec: t.Type<MachineNamingStrategy> = struct(
  'MachineNamingStrategy',
  {},
  {
    template: stringWith({ minLength: 1, maxLength: 256 }),
  },
);

export interface MachineTemplateSpec {
  metadata?: TemplateMetadata;
  spec?: MachineSpec;
}

export const MachineTemplateSpecCodec: t.Type<MachineTemplateSpec> = struct(
  'MachineTemplateSpec',
  {},
  {
    metadata: TemplateMetadataCodec,
    spec: MachineSpecCodec,
  },
);

export interface MachineSetSpec {
  clusterName: string;
  deletePolicy?: 'Random' | 'Newest' | 'Oldest';
  machineNamingStrategy?: MachineNamingStrategy;
  minReadySeconds?: number;
  replicas?: number;
  selector: LabelSelector;
  template?: MachineTemplateSpec;
}

export const MachineSetSpecCodec: t.Type<MachineSetSpec> = struct(
  'MachineSetSpec',
  {
    clusterName: stringWith({ minLength: 1, maxLength: 63 }),
    selector: LabelSelectorCodec,
  },
  {
    deletePolicy: enumOf('Random', 'Newest', 'Oldest'),
    machineNamingStrategy: MachineNamingStrategyCodec,
    minReadySeconds: int32,
    replicas: replicaCount,
    template: MachineTemplateSpecCodec,
  },
);

export interface MachineSetV1Beta2Status {
  availableReplicas?: number;
  conditions?: MetaCondition[];
  readyReplicas?: number;
  upToDateReplicas?: number;
}

export const MachineSetV1Beta2StatusCodec: t.Type<MachineSetV1Beta2Status> = struct(
  'MachineSetV1Beta2Status',
  {},
  {
    availableReplicas: int32,
    conditions: arrayOf(MetaConditionCodec, { maxItems: 32, listMapKeys: ['type'] }),
    readyReplicas: int32,
    upToDateReplicas: int32,
  },
);

export interface MachineSetStatus {
  availableReplicas?: number;
  conditions?: Condition[];
  failureMessage?: string;
  failureReason?: string;
  fullyLabeledReplicas?: number;
  observedGeneration?: number;
  readyReplicas?: number;
  replicas?: number;
  selector?: string;
  v1beta2?: MachineSetV1Beta2Status;
}

export const MachineSetStatusCodec: t.Type<MachineSetStatus> = struct(
  'MachineSetStatus',
  {},
  {
    availableReplicas: int32,
    conditions: arrayOf(ConditionCodec),
    failureMessage: stringWith({ minLength: 1, maxLength: 10240 }),
    failureReason: string,
    fullyLabeledReplicas: int32,
    observedGeneration: int64,
    readyReplicas: int32,
    replicas: replicaCount,
    selector: stringWith({ minLength: 1, maxLength: 4096 }),
    v1beta2: MachineSetV1Beta2StatusCodec,
  },
);

/** `cluster.x-k8s.io/v1beta1` MachineSet. */
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
