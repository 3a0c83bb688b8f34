import {
  type ClusterPluginInput,
  clusterOutput,
  type PluginResult,
  type ProviderFieldMove,
  pluginFail,
} from '@capi-kit/conversion/plugin-kit';
import { AWS_CLUSTER_PROVIDER_SPEC } from './types.js';

/** AWSClusterProviderSpec (CAPA v0.3.9) → AWSCluster.spec (CAPA v0.4.x). */
export const awsClusterFieldMoves: readonly ProviderFieldMove[] = [
  { from: 'networkSpec', to: 'networkSpec' },
  { from: 'region', to: 'region' },
  { from: 'sshKeyName', to: 'sshKeyName' },
];

/**
 * Cluster providerSpec fields that go somewhere other than the AWSCluster: the key pairs
 * become Secrets here; `clusterConfiguration` and `additionalUserDataFiles` go into the
 * KubeadmConfig of the Cluster's Machines (see machine.ts).
 */
export const awsClusterConsumedFields = [
  'caKeyPair',
  'etcdCAKeyPair',
  'frontProxyCAKeyPair',
  'saKeyPair',
  'clusterConfiguration',
  'additionalUserDataFiles',
] as const;

export function convertAwsCluster(input: ClusterPluginInput): PluginResult {
  const kind = input.providerSpec.kind;
  if (kind !== AWS_CLUSTER_PROVIDER_SPEC) {
    return pluginFail(`a Cluster needs an ${AWS_CLUSTER_PROVIDER_SPEC}, not ${String(kind)}`);
  }
  return clusterOutput(input, 'AWSCluster', awsClusterFieldMoves, awsClusterConsumedFields);
}
