/**
 * `@capi-kit/conversion/plugin-kit`: what a provider plug-in author needs: the plug-in
 * interface and its inputs and outputs, `pluginOk` / `pluginFail`, and helpers that build the
 * usual v1alpha2 infrastructure and kubeadm bootstrap objects from a providerSpec.
 */

export { isObject, type Json, type JsonObject, type Path } from './path.js';
export {
  certificateSecrets,
  clusterNamed,
  clusterOutput,
  credentialsSecret,
  generatedKinds,
  KEY_PAIR_SECRETS,
  type KubeadmParts,
  kubeadmConfig,
  kubeadmConfigTemplate,
  kubeadmConfigurationParts,
  kubeadmSpec,
  labelOf,
  type MachineParts,
  type MachinePartsBuilder,
  machineHooks,
  machineNamed,
  machineOutput,
  machineTemplateOutput,
  moveProviderFields,
  type Named,
  noHomeWarnings,
  type ProviderFieldMove,
  type ProviderFieldResult,
  providerObject,
  unexpectedProviderSpecKind,
  unmappedFields,
} from './plugin-helpers.js';
export {
  BOOTSTRAP_V1ALPHA2,
  type ClusterInfo,
  type ClusterPluginInput,
  type ConversionPlugin,
  findPlugin,
  type GeneratedKind,
  INFRASTRUCTURE_V1ALPHA2,
  type MachinePluginInput,
  type MachineReferences,
  type ObjectRef,
  type OwnerInfo,
  objectRef,
  type PluginError,
  type PluginOutput,
  type PluginResult,
  type ProviderSpecType,
  pluginFail,
  pluginOk,
  providerSpecType,
} from './plugins.js';
