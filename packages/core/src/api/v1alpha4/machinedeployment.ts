import type * as t from 'io-ts';
import { type LabelSelector, LabelSelectorCodec } from '../meta/label-selector.js';
import { type ListMeta, type ObjectMeta, ObjectMetaCodec } from '../meta/object-meta.js';
import { type ListItem, listCodec, resourceCodecs } from '../meta/resource.js';
import {
  arrayOf,
  boolean,
  enumOf,
  IntOrString,
  int32,
  int64,
  replicaCount,
  string,
  stringWith,
  struct,
} from '../schema/index.js';
import { APIVersion } from './constants.js';
import { type Condition, ConditionCodec } from './machine.js';
import { type MachineTemplateSpec, MachineTemplateSpecCodec } from './machineset.js';

export interface MachineRollingUpdateDeployment {
  deletePolicy?: 'Random' | 'Newest' | 'Oldest';
  maxSurge?: IntOrString;
  maxUnavailable?: IntOrString;
}

export const MachineRollingUpdateDeploymentCodec: t.Type<MachineRollingUpdateDeployment> = struct(
  'MachineRollingUpdateDeployment',
  {},
  {
    deletePolicy: enumOf('Random', 'Newest', 'Oldest'),
    maxSurge: IntOrString,
    maxUnavailable: IntOrString,
  },
);

export interface MachineDeploymentStrategy {
  rollingUpdate?: MachineRollingUpdateDeployment;
  type?: 'RollingUpdate' | 'OnDelete';
}

export const MachineDeploymentStrategyCodec: t.Type<MachineDeploymentStrategy> = struct(
  'MachineDeploymentStrategy',
  {},
  {
    rollingUpdate: MachineRollingUpdateDeploymentCodec,
    type: enumOf('RollingUpdate', 'OnDelete'),
  },
);

export interface MachineDeploymentSpec {
  clusterName: string;
  minReadySeconds?: number;
  paused?: boolean;
  progressDeadlineSeconds?: number;
  replicas?: number;
  revisionHistoryLimit?: number;
  selector: LabelSelector;
  strategy?: MachineDeploymentStrategy;
  template: MachineTemplateSpec;
}

export const MachineDeploymentSpecCodec: t.Type<MachineDeploymentSpec> = struct(
  'MachineDeploymentSpec',
  {
    clusterName: stringWith({ minLength: 1 }),
    selector: LabelSelectorCodec,
    template: MachineTemplateSpecCodec,
  },
  {
    minReadySeconds: int32,
    paused: boolean,
    progressDeadlineSeconds: int32,
    replicas: replicaCount,
    revisionHistoryLimit: int32,
    strategy: MachineDeploymentStrategyCodec,
  },
);

export interface MachineDeploymentStatus {
  availableReplicas?: number;
  conditions?: Condition[];
  observedGeneration?: number;
  phase?: string;
  readyReplicas?: number;
  replicas?: number;
  selector?: string;
  unavailableReplicas?: number;
  updatedReplicas?: number;
}

export const MachineDeploymentStatusCodec: t.Type<MachineDeploymentStatus> = struct(
  'MachineDeploymentStatus',
  {},
  {
    availableReplicas: int32,
    conditions: arrayOf(ConditionCodec),
    observedGeneration: int64,
    phase: string,
    readyReplicas: int32,
    replicas: replicaCount,
    selector: string,
    unavailableReplicas: int32,
    updatedReplicas: int32,
  },
);

/** `cluster.x-k8s.io/v1alpha4` MachineDeployment. */
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
