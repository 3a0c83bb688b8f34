import {
  type ClusterPluginInput,
  clusterOutput,
  type PluginResult,
  type ProviderFieldMove,
  pluginFail,
  unexpectedProviderSpecKind,
} from '@capi-kit/conversion/plugin-kit';
import { isV03, VSPHERE_V03_CLUSTER_KIND, VSPHERE_V04_CLUSTER_KIND } from './types.js';

/** VsphereClusterProviderConfig (CAPV v0.3) → VSphereCluster.spec (CAPV v0.5). */
export const vsphereV03ClusterFieldMoves: readonly ProviderFieldMove[] = [
  { from: 'vsphereServer', to: 'server' },
];

/** VsphereClusterProviderSpec (CAPV v0.4) → VSphereCluster.spec (CAPV v0.5). */
export const vsphereV04ClusterFieldMoves: readonly ProviderFieldMove[] = [
  { from: 'server', to: 'server' },
  { from: 'insecure', to: 'insecure' },
  { from: 'cloudProviderConfiguration', to: 'cloudProviderConfiguration' },
];

/**
 * Fields that go into the KubeadmConfig of the Cluster's Machines (machine.ts); the key
 * pairs, which become Secrets, `clusterOutput` handles itself. Credentials
 * (`username`/`password`, `vsphereUser`/`vspherePassword`, `vsphereCredentialSecret`) have
 * no place in a v1alpha2 object: CAPV v0.5 reads them from its manager's configuration, so
 * they only stay in the stash, with a warning.
 */
export const vsphereClusterConsumedFields = ['clusterConfiguration', 'sshAuthorizedKeys'] as const;

export function convertVsphereCluster(input: ClusterPluginInput): PluginResult {
  const v03 = isV03(input.providerSpec.apiVersion);
  const bad = unexpectedProviderSpecKind(input, v03 ? VSPHERE_V03_CLUSTER_KIND : VSPHERE_V04_CLUSTER_KIND);
  if (bad !== undefined) return pluginFail(bad);
  const table = v03 ? vsphereV03ClusterFieldMoves : vsphereV04ClusterFieldMoves;
  return clusterOutput(input, 'VSphereCluster', table, vsphereClusterConsumedFields);
}
