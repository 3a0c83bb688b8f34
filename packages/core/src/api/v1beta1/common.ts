import type * as t from 'io-ts';
import { enumOf, IntOrString, mapOf, string, stringWith, struct } from '../schema/index.js';

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

export interface TemplateMetadata {
  annotations?: Record<string, string>;
  labels?: Record<string, string>;
}

export const TemplateMetadataCodec: t.Type<TemplateMetadata> = struct(
  'TemplateMetadata',
  {},
  {
    annotations: mapOf(string),
    labels: mapOf(string),
  },
);

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

export interface RemediationStrategy {
  maxInFlight?: IntOrString;
}

export const RemediationStrategyCodec: t.Type<RemediationStrategy> = struct(
  'RemediationStrategy',
  {},
  {
    maxInFlight: IntOrString,
  },
);

export interface MachineDeploymentStrategy {
  remediation?: RemediationStrategy;
  rollingUpdate?: MachineRollingUpdateDeployment;
  type?: 'RollingUpdate' | 'OnDelete';
}

export const MachineDeploymentStrategyCodec: t.Type<MachineDeploymentStrategy> = struct(
  'MachineDeploymentStrategy',
  {},
  {
    remediation: RemediationStrategyCodec,
    rollingUpdate: MachineRollingUpdateDeploymentCodec,
    type: enumOf('RollingUpdate', 'OnDelete'),
  },
);
