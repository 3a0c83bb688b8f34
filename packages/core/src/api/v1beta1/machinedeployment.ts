import type * as t from 'io-ts';
import { type LabelSelector, LabelSelectorCodec } from '../meta/label-selector.js';
import { type ListMeta, type ObjectMeta, ObjectMetaCodec } from '../meta/object-meta.js';
import { type ListItem, listCodec, resourceCodecs } from '../meta/resource.js';
import {
  arrayOf,
  boolean,
  enumOf,
  int32,
  int64,
  replicaCount,
  stringWith,
  struct,
  Time,
} from '../schema/index.js';
import { type MachineDeploymentStrategy, MachineDeploymentStrategyCodec } from './common.js';
import { APIVersion } from './constants.js';
import { type Condition, ConditionCodec } from './machine.js';
import {
  type MachineNamingStrategy,
  MachineNamingStrategyCodec,
  type MachineSetV1Beta2Status,
  MachineSetV1Beta2StatusCodec,
  type MachineTemplateSpec,
  MachineTemplateSpecCodec,
} from './machineset.js';

export interface MachineDeploymentSpec {
  clusterName: string;
  machineNamingStrategy?: MachineNamingStrategy;
  minReadySeconds?: number;
  paused?: boolean;
  progressDeadlineSeconds?: number;
  replicas?: number;
  revisionHistoryLimit?: number;
  rolloutAfter?: Time;
  selector: LabelSelector;
  strategy?: MachineDeploymentStrategy;
  template: MachineTemplateSpec;
}

export const MachineDeploymentSpecCodec: t.Type<MachineDeploymentSpec> = struct(
  'MachineDeploymentSpec',
  {
    clusterName: stringWith({ minLength: 1, maxLength: 63 }),
    selector: LabelSelectorCodec,
    template: MachineTemplateSpecCodec,
  },
  {
    machineNamingStrategy: MachineNamingStrategyCodec,
    minReadySeconds: int32,
    paused: boolean,
    progressDeadlineSeconds: int32,
    replicas: replicaCount,
    revisionHistoryLimit: int32,
    rolloutAfter: Time,
    strategy: MachineDeploymentStrategyCodec,
  },
);

export interface MachineDeploymentStatus {
  availableReplicas?: number;
  conditions?: Condition[];
  observedGeneration?: number;
  phase?: 'ScalingUp' | 'ScalingDown' | 'Running' | 'Failed' | 'Unknown';
  readyReplicas?: number;
  replicas?: number;
  selector?: string;
  unavailableReplicas?: number;
  updatedReplicas?: number;
  v1beta2?: MachineSetV1Beta2Status;
}

export const MachineDeploymentStatusCodec: t.Type<MachineDeploymentStatus> = struct(
  'MachineDeploymentStatus',
  {},
  {
    availableReplicas: int32,
    conditions: arrayOf(ConditionCodec),
    observedGeneration: int64,
    phase: enumOf('ScalingUp', 'ScalingDown', 'Running', 'Failed', 'Unknown'),
    readyReplicas: int32,
    replicas: replicaCount,
    selector: stringWith({ minLength: 1, maxLength: 4096 }),
    unavailableReplicas: int32,
    updatedReplicas: int32,
    v1beta2: MachineSetV1Beta2StatusCodec,
  },
);

/** `cluster.x-k8s.io/v1beta1` MachineDeployment. */
export interface MachineDeployment {
  apiVersion: typeof APIVersion;
  kind: 'MachineDeployment';
  metadata?: ObjectMeta;
  spec?: MachineDeploymentSpec;
  status?: MachineDeploymentStatus;
}

const machineDeployment = resourceCodecs<MachineDeployment>(
  APIVersion,
  'MachineDeployment',
  {},
  { metadata: ObjectMetaCodec, spec: MachineDeploymentSpecCodec, status: MachineDeploymentStatusCodec },
);
export const MachineDeploymentCodec: t.Type<MachineDeployment> = machineDeployment.codec;

export interface MachineDeploymentList {
  apiVersion: typeof APIVersion;
  kind: 'MachineDeploymentList';
  metadata?: ListMeta;
  items: ListItem<MachineDeployment>[] | null;
}

export const MachineDeploymentListCodec: t.Type<MachineDeploymentList> = listCodec<
  MachineDeploymentList,
  ListItem<MachineDeployment>
>(APIVersion, 'MachineDeploymentList', machineDeployment.itemCodec);
