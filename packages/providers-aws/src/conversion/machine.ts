import {
  INFRASTRUCTURE_V1ALPHA2,
  type JsonObject,
  type KubeadmParts,
  kubeadmConfig,
  kubeadmConfigTemplate,
  kubeadmSpec,
  labelOf,
  type MachinePluginInput,
  moveProviderFields,
  type Named,
  noHomeWarnings,
  objectRef,
  type PluginResult,
  type ProviderFieldMove,
  pluginFail,
  pluginOk,
  providerObject,
  unmappedFields,
} from '@capi-kit/conversion';
import { AWS_MACHINE_PROVIDER_SPEC } from './types.js';

/** AWSMachineProviderSpec (CAPA v0.3.9) → AWSMachine.spec (CAPA v0.4.x), relative to the spec. */
export const awsMachineFieldMoves: readonly ProviderFieldMove[] = [
  { from: 'ami', to: 'ami' },
  { from: 'imageLookupOrg', to: 'imageLookupOrg' },
  { from: 'instanceType', to: 'instanceType' },
  { from: 'additionalTags', to: 'additionalTags' },
  { from: 'iamInstanceProfile', to: 'iamInstanceProfile' },
  { from: 'publicIP', to: 'publicIP' },
  { from: 'additionalSecurityGroups', to: 'additionalSecurityGroups' },
  { from: 'availabilityZone', to: 'availabilityZone' },
  // Upstream's converter always wrote a (possibly empty) subnet; here it moves only if set.
  { from: 'subnet', to: 'subnet' },
  { from: 'keyName', to: 'sshKeyName' },
  { from: 'rootDeviceSize', to: 'rootDeviceSize' },
];

/** Machine providerSpec fields that go to the KubeadmConfig instead. */
export const awsMachineConsumedFields = ['kubeadmConfiguration', 'additionalUserDataFiles'] as const;

function objectOrUndefined(value: unknown): JsonObject | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as JsonObject)
    : undefined;
}

/** CAPA `Files` {path, owner, permissions, content} are KubeadmConfig `files` as they are. */
function files(value: unknown): JsonObject[] {
  return Array.isArray(value) ? value.filter((f): f is JsonObject => objectOrUndefined(f) !== undefined) : [];
}

function kubeadmParts(input: MachinePluginInput, warnings: string[]): KubeadmParts {
  const kubeadm = objectOrUndefined(input.providerSpec.kubeadmConfiguration);
  const clusterSpec = input.cluster?.providerSpec;
  const clusterConfiguration = objectOrUndefined(clusterSpec?.clusterConfiguration);
  if (input.controlPlane && input.clusterName !== undefined && input.cluster === undefined) {
    warnings.push(
      `Cluster ${input.clusterName} is not in this manifest: its clusterConfiguration and additionalUserDataFiles are not in the KubeadmConfig`,
    );
  }
  const init = objectOrUndefined(kubeadm?.init);
  const join = objectOrUndefined(kubeadm?.join);
  return {
    ...(init === undefined ? {} : { init }),
    ...(join === undefined ? {} : { join }),
    ...(input.controlPlane && clusterConfiguration !== undefined ? { clusterConfiguration } : {}),
    // Upstream carried only the cluster's files; the machine's own list is kept too.
    files: [
      ...files(clusterSpec?.additionalUserDataFiles),
      ...files(input.providerSpec.additionalUserDataFiles),
    ],
  };
}

function check(input: MachinePluginInput): string | undefined {
  const kind = input.providerSpec.kind;
  return kind === AWS_MACHINE_PROVIDER_SPEC
    ? undefined
    : `a ${input.owner.kind} needs an ${AWS_MACHINE_PROVIDER_SPEC}, not ${String(kind)}`;
}

function named(input: MachinePluginInput): Named {
  return {
    name: input.owner.name,
    ...(input.owner.namespace === undefined ? {} : { namespace: input.owner.namespace }),
    ...(input.clusterName === undefined ? {} : { clusterName: input.clusterName }),
  };
}

/** Machine → AWSMachine + KubeadmConfig, both named after the Machine. */
export function convertAwsMachine(input: MachinePluginInput): PluginResult {
  const bad = check(input);
  if (bad !== undefined) return pluginFail(bad);
  const at = named(input);
  const label = labelOf('AWSMachine', at);
  const fields = moveProviderFields(input.providerSpec, awsMachineFieldMoves, label, 'spec.');
  const spec = fields.object;
  const moves = [...fields.moves];
  if (input.providerID !== undefined) {
    spec.providerID = input.providerID;
    moves.push({ from: '(Machine spec.providerID)', to: `${label} spec.providerID` });
  }
  const warnings = noHomeWarnings(
    unmappedFields(input.providerSpec, awsMachineFieldMoves, awsMachineConsumedFields),
    input.providerSpecSource,
  );
  const bootstrap = kubeadmConfig(at, kubeadmSpec(kubeadmParts(input, warnings), input.controlPlane));
  return pluginOk({
    infrastructureRef: objectRef(INFRASTRUCTURE_V1ALPHA2, 'AWSMachine', at.name, at.namespace),
    bootstrap: { configRef: bootstrap.ref },
    objects: [providerObject(INFRASTRUCTURE_V1ALPHA2, 'AWSMachine', at, spec), bootstrap.object],
    moves: [...moves, { from: 'kubeadmConfiguration', to: `${labelOf('KubeadmConfig', at)} spec` }],
    warnings,
  });
}

/**
 * MachineSet / MachineDeployment template → AWSMachineTemplate + KubeadmConfigTemplate,
 * named after the MachineSet / MachineDeployment, and referenced by that same name
 * (upstream named the reference after the template's spec.metadata.name, usually empty).
 */
export function convertAwsMachineTemplate(input: MachinePluginInput): PluginResult {
  const bad = check(input);
  if (bad !== undefined) return pluginFail(bad);
  const at = named(input);
  const label = labelOf('AWSMachineTemplate', at);
  const fields = moveProviderFields(input.providerSpec, awsMachineFieldMoves, label, 'spec.template.spec.');
  const moves = [...fields.moves];
  const warnings = noHomeWarnings(
    unmappedFields(input.providerSpec, awsMachineFieldMoves, awsMachineConsumedFields),
    input.providerSpecSource,
  );
  const bootstrap = kubeadmConfigTemplate(at, kubeadmSpec(kubeadmParts(input, warnings), input.controlPlane));
  return pluginOk({
    infrastructureRef: objectRef(INFRASTRUCTURE_V1ALPHA2, 'AWSMachineTemplate', at.name, at.namespace),
    bootstrap: { configRef: bootstrap.ref },
    objects: [
      providerObject(INFRASTRUCTURE_V1ALPHA2, 'AWSMachineTemplate', at, {
        template: { spec: fields.object },
      }),
      bootstrap.object,
    ],
    moves: [
      ...moves,
      { from: 'kubeadmConfiguration', to: `${labelOf('KubeadmConfigTemplate', at)} spec.template.spec` },
    ],
    warnings,
  });
}
