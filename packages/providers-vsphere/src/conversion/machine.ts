import {
  isObject,
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
import { isV03, VSPHERE_V03_MACHINE_KIND, VSPHERE_V04_MACHINE_KIND } from './types.js';

/**
 * VsphereMachineProviderConfig (CAPV v0.3) → VSphereMachine.spec (CAPV v0.5). v0.3 nested the
 * machine under `machineSpec` and called the memory `memoryMB`, but sized it in MiB (its
 * templates fill it from VSPHERE_MEM_MIB), so the number moves unchanged.
 */
export const vsphereV03MachineFieldMoves: readonly ProviderFieldMove[] = [
  { from: 'machineSpec.datacenter', to: 'datacenter' },
  { from: 'machineSpec.template', to: 'template' },
  { from: 'machineSpec.network', to: 'network' },
  { from: 'machineSpec.numCPUs', to: 'numCPUs' },
  { from: 'machineSpec.memoryMB', to: 'memoryMiB' },
  { from: 'machineSpec.diskGiB', to: 'diskGiB' },
];

/** VsphereMachineProviderSpec (CAPV v0.4) → VSphereMachine.spec (CAPV v0.5): same names. */
export const vsphereV04MachineFieldMoves: readonly ProviderFieldMove[] = [
  { from: 'datacenter', to: 'datacenter' },
  { from: 'template', to: 'template' },
  { from: 'network', to: 'network' },
  { from: 'numCPUs', to: 'numCPUs' },
  { from: 'numCoresPerSocket', to: 'numCoresPerSocket' },
  { from: 'memoryMiB', to: 'memoryMiB' },
  { from: 'diskGiB', to: 'diskGiB' },
];

/** Fields that go to the KubeadmConfig instead (`ntpServers` → `ntp.servers`). */
const consumedV03 = ['kubeadmConfiguration', 'machineSpec.ntpServers'] as const;
const consumedV04 = ['kubeadmConfiguration', 'ntpServers'] as const;

/** Placement fields CAPV moved from the machine to the cluster's cloud-provider workspace. */
const WORKSPACE_FIELDS = new Set(['datastore', 'resourcePool', 'vmFolder', 'folder']);

/** VSphereMachine requires these (CAPV v0.5 CRD). */
const REQUIRED = ['datacenter', 'template', 'network'] as const;

/** The user CAPV v0.5 templates create for SSH access. */
export const VSPHERE_SSH_USER = 'capv';

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

function kubeadmParts(input: MachinePluginInput, v03: boolean, warnings: string[]): KubeadmParts {
  const spec = input.providerSpec;
  if (input.clusterName !== undefined && input.cluster === undefined) {
    warnings.push(
      `Cluster ${input.clusterName} is not among the objects converted: its sshAuthorizedKeys and clusterConfiguration are not in the bootstrap config`,
    );
  }
  const keys = strings(input.cluster?.providerSpec?.sshAuthorizedKeys);
  const machineSpec = v03 ? spec.machineSpec : spec;
  const ntp = strings(isObject(machineSpec) ? machineSpec.ntpServers : undefined);
  return {
    ...kubeadmConfigurationParts(input),
    ntpServers: ntp,
    users:
      keys.length === 0
        ? []
        : [{ name: VSPHERE_SSH_USER, sshAuthorizedKeys: keys, sudo: 'ALL=(ALL) NOPASSWD:ALL' }],
  };
}

function build(input: MachinePluginInput, kind: string, reportPrefix: string): MachineParts | string {
  const value = input.providerSpec;
  const v03 = isV03(value.apiVersion);
  const bad = unexpectedProviderSpecKind(input, v03 ? VSPHERE_V03_MACHINE_KIND : VSPHERE_V04_MACHINE_KIND);
  if (bad !== undefined) return bad;
  const table = v03 ? vsphereV03MachineFieldMoves : vsphereV04MachineFieldMoves;
  const at = machineNamed(input);
  const fields = moveProviderFields(value, table, labelOf(kind, at), reportPrefix);
  const missing = REQUIRED.filter((f) => fields.object[f] === undefined);
  if (missing.length > 0) {
    const where = v03 ? 'machineSpec.' : '';
    return `${missing.map((f) => `${where}${f}`).join(', ')} missing: ${kind.replace('Template', '')} requires them`;
  }
  const consumed = v03 ? consumedV03 : consumedV04;
  const unmapped = [
    ...unmappedFields(value, table, consumed),
    ...(v03 ? unmappedFields(value, table, consumed, 'machineSpec') : []),
  ];
  const warnings = noHomeWarnings(unmapped, input.providerSpecSource).map((w, i) =>
    WORKSPACE_FIELDS.has(unmapped[i]!.replace('machineSpec.', ''))
      ? `${w} (CAPV v0.5 reads it from VSphereCluster spec.cloudProviderConfiguration.workspace)`
      : w,
  );
  const bootstrap = kubeadmSpec(kubeadmParts(input, v03, warnings), input.controlPlane);
  return { at, spec: fields.object, moves: fields.moves, bootstrap, warnings };
}

const hooks = machineHooks('VSphereMachine', build);

/** Machine → VSphereMachine + KubeadmConfig, both named after the Machine. */
export const convertVsphereMachine = hooks.machine;

/** MachineSet / MachineDeployment template → VSphereMachineTemplate + KubeadmConfigTemplate. */
export const convertVsphereMachineTemplate = hooks.machineTemplate;

/** The references those two hooks set, without building the objects (the way down checks a stash with them). */
export const vsphereMachineReferences = hooks.machineReferences;
