import {
  type ClusterPluginInput,
  certificateSecrets,
  INFRASTRUCTURE_V1ALPHA2,
  labelOf,
  moveProviderFields,
  noHomeWarnings,
  objectRef,
  type PluginResult,
  type ProviderFieldMove,
  pluginFail,
  pluginOk,
  providerObject,
  unmappedFields,
} from '@capi-kit/conversion';
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
  const { providerSpec, owner } = input;
  if (providerSpec.kind !== AWS_CLUSTER_PROVIDER_SPEC) {
    return pluginFail(`a Cluster needs an ${AWS_CLUSTER_PROVIDER_SPEC}, not ${String(providerSpec.kind)}`);
  }
  const at = {
    name: owner.name,
    clusterName: owner.name,
    ...(owner.namespace === undefined ? {} : { namespace: owner.namespace }),
  };
  const fields = moveProviderFields(providerSpec, awsClusterFieldMoves, labelOf('AWSCluster', at), 'spec.');
  const awsCluster = providerObject(INFRASTRUCTURE_V1ALPHA2, 'AWSCluster', at, fields.object);
  const secrets = certificateSecrets(providerSpec, at);
  return pluginOk({
    infrastructureRef: objectRef(INFRASTRUCTURE_V1ALPHA2, 'AWSCluster', owner.name, owner.namespace),
    objects: [awsCluster, ...secrets.objects],
    moves: [...fields.moves, ...secrets.moves],
    warnings: [
      ...noHomeWarnings(
        unmappedFields(providerSpec, awsClusterFieldMoves, awsClusterConsumedFields),
        input.providerSpecSource,
      ),
      ...secrets.warnings,
    ],
  });
}
