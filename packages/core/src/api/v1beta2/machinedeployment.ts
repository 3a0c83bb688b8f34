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
  integerWith,
  replicaCount,
  stringWith,
  struct,
} from '../schema/index.js';
import {
  type MachineDeploymentTopologyRolloutSpec,
  MachineDeploymentTopologyRolloutSpecCodec,
  type StatusVersion,
  StatusVersionCodec,
} from './common.js';
import { APIVersion } from './constants.js';
import { type Condition, ConditionCodec, type V1Beta1Condition, V1Beta1ConditionCodec } from './machine.js';
import {
  type MachineNamingSpec,
  MachineNamingSpecCodec,
  type MachineSetDeletionSpec,
  MachineSetDeletionSpecCodec,
  type MachineTemplateSpec,
  MachineTemplateSpecCodec,
} from './machineset.js';

export interface MachineDeploymentRemediationSpec {
  maxInFlight?: IntOrString;
}

export const MachineDeploymentRemediationSpecCodec: t.Type<MachineDeploymentRemediationSpec> = struct(
  'MachineDeploymentRemediationSpec',
  {},
  {
    maxInFlight: IntOrString,
  },
  { minProperties: 1 },
);

export interface MachineDeploymentSpec {
  clusterName: string;
  deletion?: MachineSetDeletionSpec;
  machineNaming?: MachineNamingSpec;
  paused?: boolean;
  remediation?: MachineDeploymentRemediationSpec;
  replicas?: number;
  rollout?: MachineDeploymentTopologyRolloutSpec;
  selector: LabelSelector;
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
    deletion: MachineSetDeletionSpecCodec,
    machineNaming: MachineNamingSpecCodec,
    paused: boolean,
    remediation: MachineDeploymentRemediationSpecCodec,
    replicas: replicaCount,
    rollout: MachineDeploymentTopologyRolloutSpecCodec,
  },
);

export interface MachineDeploymentV1Beta1DeprecatedStatus {
  availableReplicas?: number;
  conditions?: V1Beta1Condition[];
  readyReplicas?: number;
  unavailableReplicas?: number;
  updatedReplicas?: number;
}

export const MachineDeploymentV1Beta1DeprecatedStatusCodec: t.Type<MachineDeploymentV1Beta1DeprecatedStatus> =
  struct(
    'MachineDeploymentV1Beta1DeprecatedStatus',
    {},
    {
      availableReplicas: int32,
      conditions: arrayOf(V1Beta1ConditionCodec),
      readyReplicas: int32,
      unavailableReplicas: int32,
      updatedReplicas: int32,
    },
  );

export interface MachineDeploymentDeprecatedStatus {
  v1beta1?: MachineDeploymentV1Beta1DeprecatedStatus;
}

export const MachineDeploymentDeprecatedStatusCodec: t.Type<MachineDeploymentDeprecatedStatus> = struct(
  'MachineDeploymentDeprecatedStatus',
  {},
  {
    v1beta1: MachineDeploymentV1Beta1DeprecatedStatusCodec,
  },
);

export interface MachineDeploymentStatus {
  availableReplicas?: number;
  conditions?: Condition[];
  deprecated?: MachineDeploymentDeprecatedStatus;
  observedGeneration?: number;
  phase?: 'ScalingUp' | 'ScalingDown' | 'Running' | 'Failed' | 'Unknown';
  readyReplicas?: number;
  replicas?: number;
  selector?: string;
  upToDateReplicas?: number;
  versions?: StatusVersion[];
}

export const MachineDeploymentStatusCodec: t.Type<MachineDeploymentStatus> = struct(
  'MachineDeploymentStatus',
  {},
  {
    availableReplicas: int32,
    conditions: arrayOf(ConditionCodec, { maxItems: 32, listMapKeys: ['type'] }),
    deprecated: MachineDeploymentDeprecatedStatusCodec,
    observedGeneration: integerWith('int64', { minimum: 1 }),
    phase: enumOf('ScalingUp', 'ScalingDown', 'Running', 'Failed', 'Unknown'),
    readyReplicas: int32,
    replicas: replicaCount,
    selector: stringWith({ minLength: 1, maxLength: 4096 }),
    upToDateReplicas: int32,
    versions: arrayOf(StatusVersionCodec, { minItems: 1, maxItems: 100, listMapKeys: ['version'] }),
  },
  { minProperties: 1 },
);

/** `cluster.x-k8s.io/v1beta2` MachineDeployment. */
export interface MachineDeployment {
  apiVersion: typeof APIVersion;
  kind: 'MachineDeployment';
  metadata?: ObjectMeta;
  spec: MachineDeploymentSpec;
  status?: MachineDeploymentStatus;
}

const machineDeployment = resourceCodecs<MachineDeployment>(
  APIVersion,
  'MachineDeployment',
  { spec: MachineDeploymentSpecCodec },
  { metadata: ObjectMetaCodec, status: MachineDeploymentStatusCodec },
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
