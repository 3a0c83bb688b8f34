import type * as t from 'io-ts';
import { type LabelSelector, LabelSelectorCodec } from '../meta/label-selector.js';
import { type ListMeta, type ObjectMeta, ObjectMetaCodec } from '../meta/object-meta.js';
import { type ObjectReference, ObjectReferenceCodec } from '../meta/object-reference.js';
import { type ListItem, listCodec, resourceCodecs } from '../meta/resource.js';
import { arrayOf, IntOrString, int64, integerWith, string, stringWith, struct } from '../schema/index.js';
import * as patterns from '../schema/patterns.js';
import { APIVersion } from './constants.js';
import { type Condition, ConditionCodec } from './machine.js';

export interface UnhealthyCondition {
  status: string;
  timeout: string;
  type: string;
}

export const UnhealthyConditionCodec: t.Type<UnhealthyCondition> = struct(
  'UnhealthyCondition',
  {
    status: stringWith({ minLength: 1 }),
    timeout: string,
    type: stringWith({ minLength: 1 }),
  },
  {},
);

export interface MachineHealthCheckSpec {
  clusterName: string;
  maxUnhealthy?: IntOrString;
  nodeStartupTimeout?: string;
  remediationTemplate?: ObjectReference;
  selector: LabelSelector;
  unhealthyConditions: UnhealthyCondition[];
  unhealthyRange?: string;
}

export const MachineHealthCheckSpecCodec: t.Type<MachineHealthCheckSpec> = struct(
  'MachineHealthCheckSpec',
  {
    clusterName: stringWith({ minLength: 1 }),
    selector: LabelSelectorCodec,
    unhealthyConditions: arrayOf(UnhealthyConditionCodec, { minItems: 1 }),
  },
  {
    maxUnhealthy: IntOrString,
    nodeStartupTimeout: string,
    remediationTemplate: ObjectReferenceCodec,
    unhealthyRange: stringWith({ pattern: patterns.unhealthyRange }),
  },
);

export interface MachineHealthCheckStatus {
  conditions?: Condition[];
  currentHealthy?: number;
  expectedMachines?: number;
  observedGeneration?: number;
  remediationsAllowed?: number;
  targets?: string[];
}

export const MachineHealthCheckStatusCodec: t.Type<MachineHealthCheckStatus> = struct(
  'MachineHealthCheckStatus',
  {},
  {
    conditions: arrayOf(ConditionCodec),
    currentHealthy: integerWith('int32', { minimum: 0 }),
    expectedMachines: integerWith('int32', { minimum: 0 }),
    observedGeneration: int64,
    remediationsAllowed: integerWith('int32', { minimum: 0 }),
    targets: arrayOf(string),
  },
);

/** `cluster.x-k8s.io/v1alpha4` MachineHealthCheck. */
export interface MachineHealthCheck {
  apiVersion: typeof APIVersion;
  kind: 'MachineHealthCheck';
  metadata?: ObjectMeta;
  spec?: MachineHealthCheckSpec;
  status?: MachineHealthCheckStatus;
}

const machineHealthCheck = resourceCodecs<MachineHealthCheck>(
  APIVersion,
  'MachineHealthCheck',
  {},
  { metadata: ObjectMetaCodec, spec: MachineHealthCheckSpecCodec, status: MachineHealthCheckStatusCodec },
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
