import {
  isObject,
  type JsonObject,
  type KubeadmParts,
  kubeadmConfigurationParts,
  kubeadmSpec,
  labelOf,
  type MachineParts,
  type MachinePluginInput,
  machineHooks,
  machineNamed,
  moveProviderFields,
  noHomeWarnings,
  type ProviderFieldMove,
  unexpectedProviderSpecKind,
  unmappedFields,
} from '@capi-kit/conversion/plugin-kit';
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

/** CAPA `Files` {path, owner, permissions, content} are KubeadmConfig `files` as they are. */
function files(value: unknown): JsonObject[] {
  return Array.isArray(value) ? value.filter(isObject) : NO_FILES;
}

/** (shared, never written: kubeadmSpec copies what it keeps) */
const NO_FILES: JsonObject[] = [];

function kubeadmParts(input: MachinePluginInput, warnings: string[]): KubeadmParts {
  if (input.controlPlane && input.clusterName !== undefined && input.cluster === undefined) {
    warnings.push(
      `Cluster ${input.clusterName} is not among the objects converted: its clusterConfiguration and additionalUserDataFiles are not in the KubeadmConfig`,
    );
  }
  const clusterFiles = files(input.cluster?.providerSpec?.additionalUserDataFiles);
  const machineFiles = files(input.providerSpec.additionalUserDataFiles);
  // (a fresh object from kubeadmConfigurationParts: completed in place, not spread)
  const parts: { -readonly [K in keyof KubeadmParts]: KubeadmParts[K] } = kubeadmConfigurationParts(input);
  // Upstream carried only the cluster's files; the machine's own list is kept too.
  parts.files = clusterFiles.length === 0 ? machineFiles : [...clusterFiles, ...machineFiles];
  return parts;
}

/** The AWSMachine(Template) spec fields and KubeadmConfig spec; `kind` and `reportPrefix` label the moves. */
function build(input: MachinePluginInput, kind: string, reportPrefix: string): MachineParts | string {
  const bad = unexpectedProviderSpecKind(input, AWS_MACHINE_PROVIDER_SPEC);
  if (bad !== undefined) return bad;
  const at = machineNamed(input);
  const fields = moveProviderFields(
    input.providerSpec,
    awsMachineFieldMoves,
    labelOf(kind, at),
    reportPrefix,
  );
  const warnings = noHomeWarnings(
    unmappedFields(input.providerSpec, awsMachineFieldMoves, awsMachineConsumedFields),
    input.providerSpecSource,
  );
  const bootstrap = kubeadmSpec(kubeadmParts(input, warnings), input.controlPlane);
  return { at, spec: fields.object, moves: fields.moves, bootstrap, warnings };
}

const hooks = machineHooks('AWSMachine', build);

/** Machine → AWSMachine + KubeadmConfig, both named after the Machine. */
export const convertAwsMachine = hooks.machine;

/**
 * MachineSet / MachineDeployment template → AWSMachineTemplate + KubeadmConfigTemplate,
 * named after the MachineSet / MachineDeployment, and referenced by that same name
 * (upstream named the reference after the template's spec.metadata.name, usually empty).
 */
export const convertAwsMachineTemplate = hooks.machineTemplate;

/** The references those two hooks set, without building the objects (the way down checks a stash with them). */
export const awsMachineReferences = hooks.machineReferences;
