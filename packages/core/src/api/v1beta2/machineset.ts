import type * as t from 'io-ts';
import { type LabelSelector, LabelSelectorCodec } from '../meta/label-selector.js';
import { type ListMeta, type ObjectMeta, ObjectMetaCodec } from '../meta/object-meta.js';
import { type ListItem, listCodec, resourceCodecs } from '../meta/resource.js';
import {
  arrayOf,
  enumOf,
  int32,
  integerWith,
  replicaCount,
  string,
  stringWith,
  struct,
} from '../schema/index.js';
import {
  type StatusVersion,
  StatusVersionCodec,
  type TemplateMetadata,
  TemplateMetadataCodec,
} from './common.js';
import { APIVersion } from './constants.js';
import {
  type Condition,
  ConditionCodec,
  type MachineSpec,
  MachineSpecCodec,
  type V1Beta1Condition,
  V1Beta1ConditionCodec,
} from './machine.js';

export interface MachineNamingSpec {
  template?: string;
}

export const MachineNamingSpecCodec: t.Type<MachineNamingSpec> = struct(
  'MachineNamingSpec',
  {},
  {
    template: stringWith({ minLength: 1, maxLength: 256 }),
  },
  { minProperties: 1 },
);

export interface MachineSetDeletionSpec {
  order?: 'Random' | 'Newest' | 'Oldest';
}

export const MachineSetDeletionSpecCodec: t.Type<MachineSetDeletionSpec> = struct(
  'MachineSetDeletionSpec',
  {},
  {
    order: enumOf('Random', 'Newest', 'Oldest'),
  },
  { minProperties: 1 },
);

export interface MachineTemplateSpec {
  metadata?: TemplateMetadata;
  spec: MachineSpec;
}

export const MachineTemplateSpecCodec: t.Type<MachineTemplateSpec> = struct(
  'MachineTemplateSpec',
  {
    spec: MachineSpecCodec,
  },
  {
    metadata: TemplateMetadataCodec,
  },
);

export interface MachineSetSpec {
  clusterName: string;
  deletion?: MachineSetDeletionSpec;
  machineNaming?: MachineNamingSpec;
  replicas?: number;
  selector: LabelSelector;
  template: MachineTemplateSpec;
}

export const MachineSetSpecCodec: t.Type<MachineSetSpec> = struct(
  'MachineSetSpec',
  {
    clusterName: stringWith({ minLength: 1, maxLength: 63 }),
    selector: LabelSelectorCodec,
    template: MachineTemplateSpecCodec,
  },
  {
    deletion: MachineSetDeletionSpecCodec,
    machineNaming: MachineNamingSpecCodec,
    replicas: replicaCount,
  },
);

export interface MachineSetV1Beta1DeprecatedStatus {
  availableReplicas?: number;
  conditions?: V1Beta1Condition[];
  failureMessage?: string;
  failureReason?: string;
  fullyLabeledReplicas?: number;
  readyReplicas?: number;
}

export const MachineSetV1Beta1DeprecatedStatusCodec: t.Type<MachineSetV1Beta1DeprecatedStatus> = struct(
  'MachineSetV1Beta1DeprecatedStatus',
  {},
  {
    availableReplicas: int32,
    conditions: arrayOf(V1Beta1ConditionCodec),
    failureMessage: stringWith({ minLength: 1, maxLength: 10240 }),
    failureReason: string,
    fullyLabeledReplicas: int32,
    readyReplicas: int32,
  },
);

export interface MachineSetDeprecatedStatus {
  v1beta1?: MachineSetV1Beta1DeprecatedStatus;
}

export const MachineSetDeprecatedStatusCodec: t.Type<MachineSetDeprecatedStatus> = struct(
  'MachineSetDeprecatedStatus',
  {},
  {
    v1beta1: MachineSetV1Beta1DeprecatedStatusCodec,
  },
);

export interface MachineSetStatus {
  availableReplicas?: number;
  conditions?: Condition[];
  deprecated?: MachineSetDeprecatedStatus;
  observedGeneration?: number;
  readyReplicas?: number;
  replicas?: number;
  selector?: string;
  upToDateReplicas?: number;
  versions?: StatusVersion[];
}

export const MachineSetStatusCodec: t.Type<MachineSetStatus> = struct(
  'MachineSetStatus',
  {},
  {
    availableReplicas: int32,
    conditions: arrayOf(ConditionCodec, { maxItems: 32, listMapKeys: ['type'] }),
    deprecated: MachineSetDeprecatedStatusCodec,
    observedGeneration: integerWith('int64', { minimum: 1 }),
    readyReplicas: int32,
    replicas: replicaCount,
    selector: stringWith({ minLength: 1, maxLength: 4096 }),
    upToDateReplicas: int32,
    versions: arrayOf(StatusVersionCodec, { minItems: 1, maxItems: 100, listMapKeys: ['version'] }),
  },
  { minProperties: 1 },
);

/** `cluster.x-k8s.io/v1beta2` MachineSet. */
export interface MachineSet {
  apiVersion: typeof APIVersion;
  kind: 'MachineSet';
  metadata?: ObjectMeta;
  spec: MachineSetSpec;
  status?: MachineSetStatus;
}

const machineSet = resourceCodecs<MachineSet>(
  APIVersion,
  'MachineSet',
  { spec: MachineSetSpecCodec },
  { metadata: ObjectMetaCodec, status: MachineSetStatusCodec },
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
