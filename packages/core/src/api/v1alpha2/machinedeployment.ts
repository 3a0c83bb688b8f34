import type * as t from 'io-ts';
import { type LabelSelector, LabelSelectorCodec } from '../meta/label-selector.js';
import { type ListMeta, type ObjectMeta, ObjectMetaCodec } from '../meta/object-meta.js';
import { type ListItem, listCodec, resourceCodecs } from '../meta/resource.js';
import {
  boolean,
  IntOrString,
  int32,
  int64,
  type OpenString,
  openString,
  replicaCount,
  string,
  struct,
} from '../schema/index.js';
import { APIVersion, type KnownMachineDeploymentStrategyType } from './constants.js';
import { type MachineTemplateSpec, MachineTemplateSpecCodec } from './machine.js';

export interface MachineRollingUpdateDeployment {
  /** Default 0; a percentage rounds down. */
  maxUnavailable?: IntOrString;
  /** Default 1; a percentage rounds up. */
  maxSurge?: IntOrString;
}

export const MachineRollingUpdateDeploymentCodec: t.Type<MachineRollingUpdateDeployment> = struct(
  'MachineRollingUpdateDeployment',
  {},
  { maxUnavailable: IntOrString, maxSurge: IntOrString },
);

export type MachineDeploymentStrategyType = OpenString<KnownMachineDeploymentStrategyType>;

export interface MachineDeploymentStrategy {
  /** Only RollingUpdate exists (the default); the CRD does not restrict the string. */
  type?: MachineDeploymentStrategyType;
  rollingUpdate?: MachineRollingUpdateDeployment;
}

export const MachineDeploymentStrategyCodec: t.Type<MachineDeploymentStrategy> = struct(
  'MachineDeploymentStrategy',
  {},
  {
    type: openString<KnownMachineDeploymentStrategyType>(),
    rollingUpdate: MachineRollingUpdateDeploymentCodec,
  },
);

export interface MachineDeploymentSpec {
  /** Default 1. Never negative (the scale subresource checks it). */
  replicas?: number;
  selector: LabelSelector;
  template: MachineTemplateSpec;
  /** Default `{type: RollingUpdate}`. */
  strategy?: MachineDeploymentStrategy;
  /** Default 0. */
  minReadySeconds?: number;
  /** Default 1. */
  revisionHistoryLimit?: number;
  paused?: boolean;
  /** Default 600. */
  progressDeadlineSeconds?: number;
}

export const MachineDeploymentSpecCodec: t.Type<MachineDeploymentSpec> = struct(
  'MachineDeploymentSpec',
  { selector: LabelSelectorCodec, template: MachineTemplateSpecCodec },
  {
    replicas: replicaCount,
    strategy: MachineDeploymentStrategyCodec,
    minReadySeconds: int32,
    revisionHistoryLimit: int32,
    paused: boolean,
    progressDeadlineSeconds: int32,
  },
);

export interface MachineDeploymentStatus {
  observedGeneration?: number;
  /** The label selector in query-string form, for the scale subresource. */
  selector?: string;
  /** Never negative (the scale subresource checks it). */
  replicas?: number;
  updatedReplicas?: number;
  readyReplicas?: number;
  availableReplicas?: number;
  unavailableReplicas?: number;
}

export const MachineDeploymentStatusCodec: t.Type<MachineDeploymentStatus> = struct(
  'MachineDeploymentStatus',
  {},
  {
    observedGeneration: int64,
    selector: string,
    replicas: replicaCount,
    updatedReplicas: int32,
    readyReplicas: int32,
    availableReplicas: int32,
    unavailableReplicas: int32,
  },
);

/** `cluster.x-k8s.io/v1alpha2` MachineDeployment. */
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
