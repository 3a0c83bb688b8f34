import type * as t from 'io-ts';
import {
  arrayOf,
  enumOf,
  IntOrString,
  integerWith,
  mapOf,
  string,
  stringWith,
  struct,
  Time,
} from '../schema/index.js';
import * as patterns from '../schema/patterns.js';

export interface UnhealthyMachineCondition {
  status: 'True' | 'False' | 'Unknown';
  timeoutSeconds: number;
  type: string;
}

export const UnhealthyMachineConditionCodec: t.Type<UnhealthyMachineCondition> = struct(
  'UnhealthyMachineCondition',
  {
    status: enumOf('True', 'False', 'Unknown'),
    timeoutSeconds: integerWith('int32', { minimum: 0 }),
    type: stringWith({
      minLength: 1,
      maxLength: 316,
      pattern: patterns.qualifiedName,
      notIn: ['Ready', 'Available', 'HealthCheckSucceeded', 'OwnerRemediated', 'ExternallyRemediated'],
    }),
  },
  {},
);

export interface UnhealthyNodeCondition {
  status: string;
  timeoutSeconds: number;
  type: string;
}

export const UnhealthyNodeConditionCodec: t.Type<UnhealthyNodeCondition> = struct(
  'UnhealthyNodeCondition',
  {
    status: stringWith({ minLength: 1 }),
    timeoutSeconds: integerWith('int32', { minimum: 0 }),
    type: stringWith({ minLength: 1 }),
  },
  {},
);

export interface MachineHealthCheckChecks {
  nodeStartupTimeoutSeconds?: number;
  unhealthyMachineConditions?: UnhealthyMachineCondition[];
  unhealthyNodeConditions?: UnhealthyNodeCondition[];
}

export const MachineHealthCheckChecksCodec: t.Type<MachineHealthCheckChecks> = struct(
  'MachineHealthCheckChecks',
  {},
  {
    nodeStartupTimeoutSeconds: integerWith('int32', { minimum: 0 }),
    unhealthyMachineConditions: arrayOf(UnhealthyMachineConditionCodec, { minItems: 1, maxItems: 100 }),
    unhealthyNodeConditions: arrayOf(UnhealthyNodeConditionCodec, { minItems: 1, maxItems: 100 }),
  },
  { minProperties: 1 },
);

export interface MachineHealthCheckRemediationTemplateReference {
  apiVersion: string;
  kind: string;
  name: string;
}

export const MachineHealthCheckRemediationTemplateReferenceCodec: t.Type<MachineHealthCheckRemediationTemplateReference> =
  struct(
    'MachineHealthCheckRemediationTemplateReference',
    {
      apiVersion: stringWith({ minLength: 1, maxLength: 317, pattern: patterns.groupVersion }),
      kind: stringWith({ minLength: 1, maxLength: 63, pattern: patterns.kindName }),
      name: stringWith({ minLength: 1, maxLength: 253, pattern: patterns.dnsSubdomain }),
    },
    {},
  );

export interface MachineHealthCheckRemediationTriggerIf {
  unhealthyInRange?: string;
  unhealthyLessThanOrEqualTo?: IntOrString;
}

export const MachineHealthCheckRemediationTriggerIfCodec: t.Type<MachineHealthCheckRemediationTriggerIf> =
  struct(
    'MachineHealthCheckRemediationTriggerIf',
    {},
    {
      unhealthyInRange: stringWith({ minLength: 1, maxLength: 32, pattern: patterns.unhealthyRange }),
      unhealthyLessThanOrEqualTo: IntOrString,
    },
    { minProperties: 1 },
  );

export interface MachineHealthCheckRemediation {
  templateRef?: MachineHealthCheckRemediationTemplateReference;
  triggerIf?: MachineHealthCheckRemediationTriggerIf;
}

export const MachineHealthCheckRemediationCodec: t.Type<MachineHealthCheckRemediation> = struct(
  'MachineHealthCheckRemediation',
  {},
  {
    templateRef: MachineHealthCheckRemediationTemplateReferenceCodec,
    triggerIf: MachineHealthCheckRemediationTriggerIfCodec,
  },
  { minProperties: 1 },
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
  { minProperties: 1 },
);

export interface MachineDeploymentTopologyRolloutStrategyRollingUpdate {
  maxSurge?: IntOrString;
  maxUnavailable?: IntOrString;
}

export const MachineDeploymentTopologyRolloutStrategyRollingUpdateCodec: t.Type<MachineDeploymentTopologyRolloutStrategyRollingUpdate> =
  struct(
    'MachineDeploymentTopologyRolloutStrategyRollingUpdate',
    {},
    {
      maxSurge: IntOrString,
      maxUnavailable: IntOrString,
    },
    { minProperties: 1 },
  );

export interface MachineDeploymentTopologyRolloutStrategy {
  rollingUpdate?: MachineDeploymentTopologyRolloutStrategyRollingUpdate;
  type: 'RollingUpdate' | 'OnDelete';
}

export const MachineDeploymentTopologyRolloutStrategyCodec: t.Type<MachineDeploymentTopologyRolloutStrategy> =
  struct(
    'MachineDeploymentTopologyRolloutStrategy',
    {
      type: enumOf('RollingUpdate', 'OnDelete'),
    },
    {
      rollingUpdate: MachineDeploymentTopologyRolloutStrategyRollingUpdateCodec,
    },
    { minProperties: 1 },
  );

export interface MachineDeploymentTopologyRolloutSpec {
  after?: Time;
  strategy?: MachineDeploymentTopologyRolloutStrategy;
}

export const MachineDeploymentTopologyRolloutSpecCodec: t.Type<MachineDeploymentTopologyRolloutSpec> = struct(
  'MachineDeploymentTopologyRolloutSpec',
  {},
  {
    after: Time,
    strategy: MachineDeploymentTopologyRolloutStrategyCodec,
  },
  { minProperties: 1 },
);

export interface StatusVersion {
  replicas?: number;
  version: string;
}

export const StatusVersionCodec: t.Type<StatusVersion> = struct(
  'StatusVersion',
  {
    version: stringWith({ minLength: 1, maxLength: 256 }),
  },
  {
    replicas: integerWith('int32', { minimum: 1 }),
  },
);
