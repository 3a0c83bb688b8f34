import {
  type ClusterPluginInput,
  clusterOutput,
  type PluginResult,
  type ProviderFieldMove,
  pluginFail,
  unexpectedProviderSpecKind,
} from '@capi-kit/conversion/plugin-kit';
import { AWS_CLUSTER_PROVIDER_SPEC } from './types.js';

/** AWSClusterProviderSpec (CAPA v0.3.9) → AWSCluster.spec (CAPA v0.4.x). */
export const awsClusterFieldMoves: readonly ProviderFieldMove[] = [
  { from: 'networkSpec', to: 'networkSpec' },
  { from: 'region', to: 'region' },
  { from: 'sshKeyName', to: 'sshKeyName' },
];

/**
 * Cluster providerSpec fields that go into the KubeadmConfig of the Cluster's Machines
 * (see machine.ts). The key pairs, which become Secrets, `clusterOutput` handles itself.
 */
export const awsClusterConsumedFields = ['clusterConfiguration', 'additionalUserDataFiles'] as const;

export function convertAwsCluster(input: ClusterPluginInput): PluginResult {
  const bad = unexpectedProviderSpecKind(input, AWS_CLUSTER_PROVIDER_SPEC);
  if (bad !== undefined) return pluginFail(bad);
  return clusterOutput(input, 'AWSCluster', awsClusterFieldMoves, awsClusterConsumedFields);
}
