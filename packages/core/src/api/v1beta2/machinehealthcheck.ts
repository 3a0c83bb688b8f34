import type * as t from 'io-ts';
import { type LabelSelector, LabelSelectorCodec } from '../meta/label-selector.js';
import { type ListMeta, type ObjectMeta, ObjectMetaCodec } from '../meta/object-meta.js';
import { type ListItem, listCodec, resourceCodecs } from '../meta/resource.js';
import { arrayOf, integerWith, stringWith, struct } from '../schema/index.js';
import {
  type MachineHealthCheckChecks,
  MachineHealthCheckChecksCodec,
  type MachineHealthCheckRemediation,
  MachineHealthCheckRemediationCodec,
} from './common.js';
import { APIVersion } from './constants.js';
import { type Condition, ConditionCodec, type V1Beta1Condition, V1Beta1ConditionCodec } from './machine.js';

export interface MachineHealthCheckSpec {
  checks?: MachineHealthCheckChecks;
  clusterName: string;
  remediation?: MachineHealthCheckRemediation;
  selector: LabelSelector;
}

export const MachineHealthCheckSpecCodec: t.Type<MachineHealthCheckSpec> = struct(
  'MachineHealthCheckSpec',
  {
    clusterName: stringWith({ minLength: 1, maxLength: 63 }),
    selector: LabelSelectorCodec,
  },
  {
    checks: MachineHealthCheckChecksCodec,
    remediation: MachineHealthCheckRemediationCodec,
  },
);

export interface MachineHealthCheckV1Beta1DeprecatedStatus {
  conditions?: V1Beta1Condition[];
}

export const MachineHealthCheckV1Beta1DeprecatedStatusCodec: t.Type<MachineHealthCheckV1Beta1DeprecatedStatus> =
  struct(
    'MachineHealthCheckV1Beta1DeprecatedStatus',
    {},
    {
      conditions: arrayOf(V1Beta1ConditionCodec),
    },
  );

export interface MachineHealthCheckDeprecatedStatus {
  v1beta1?: MachineHealthCheckV1Beta1DeprecatedStatus;
}

export const MachineHealthCheckDeprecatedStatusCodec: t.Type<MachineHealthCheckDeprecatedStatus> = struct(
  'MachineHealthCheckDeprecatedStatus',
  {},
  {
    v1beta1: MachineHealthCheckV1Beta1DeprecatedStatusCodec,
  },
);

export interface MachineHealthCheckStatus {
  conditions?: Condition[];
  currentHealthy?: number;
  deprecated?: MachineHealthCheckDeprecatedStatus;
  expectedMachines?: number;
  observedGeneration?: number;
  remediationsAllowed?: number;
  targets?: string[];
}

export const MachineHealthCheckStatusCodec: t.Type<MachineHealthCheckStatus> = struct(
  'MachineHealthCheckStatus',
  {},
  {
    conditions: arrayOf(ConditionCodec, { maxItems: 32, listMapKeys: ['type'] }),
    currentHealthy: integerWith('int32', { minimum: 0 }),
    deprecated: MachineHealthCheckDeprecatedStatusCodec,
    expectedMachines: integerWith('int32', { minimum: 0 }),
    observedGeneration: integerWith('int64', { minimum: 1 }),
    remediationsAllowed: integerWith('int32', { minimum: 0 }),
    targets: arrayOf(stringWith({ minLength: 1, maxLength: 253 }), { maxItems: 10000 }),
  },
  { minProperties: 1 },
);

/** `cluster.x-k8s.io/v1beta2` MachineHealthCheck. */
export interface MachineHealthCheck {
  apiVersion: typeof APIVersion;
  kind: 'MachineHealthCheck';
  metadata?: ObjectMeta;
  spec: MachineHealthCheckSpec;
  status?: MachineHealthCheckStatus;
}

const machineHealthCheck = resourceCodecs<MachineHealthCheck>(
  APIVersion,
  'MachineHealthCheck',
  { spec: MachineHealthCheckSpecCodec },
  { metadata: ObjectMetaCodec, status: MachineHealthCheckStatusCodec },
);
export const MachineHealthCheckCodec: t.Type<MachineHealthCheck> = machineHealthCheck.codec;

export interface MachineHealthCheckList {
  apiVersion: typeof APIVersion;
  kind: 'MachineHealthCheckList';
  metadata?: ListMeta;
  items: ListItem<MachineHealthCheck>[] | null;
}

export const MachineHealthCheckListCodec: t.Type<MachineHealthCheckList> = listCodec<
  MachineHealthCheckList,
  ListItem<MachineHealthCheck>
>(APIVersion, 'MachineHealthCheckList', machineHealthCheck.itemCodec);
