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
 * pairs, which become Secrets, `clusterOutput` handles itself.
 */
export const vsphereClusterConsumedFields = ['clusterConfiguration', 'sshAuthorizedKeys'] as const;

/**
 * The vCenter credentials of each generation. No v1alpha2 object has a place for them (CAPV
 * v0.5 reads its manager's), and a stash annotation is no place for a password: they go into
 * Secret `<cluster>-vsphere-credentials`, kept only for the way back, which the stash names.
 * (v0.3's `vsphereCredentialSecret` is only a Secret's name: it stays in the stash, warned.)
 */
export const vsphereCredentialFields = {
  v03: ['vsphereUser', 'vspherePassword'],
  v04: ['username', 'password'],
} as const;

export const VSPHERE_CREDENTIALS_SUFFIX = 'vsphere-credentials';

export function convertVsphereCluster(input: ClusterPluginInput): PluginResult {
  const v03 = isV03(input.providerSpec.apiVersion);
  const bad = unexpectedProviderSpecKind(input, v03 ? VSPHERE_V03_CLUSTER_KIND : VSPHERE_V04_CLUSTER_KIND);
  if (bad !== undefined) return pluginFail(bad);
  const table = v03 ? vsphereV03ClusterFieldMoves : vsphereV04ClusterFieldMoves;
  return clusterOutput(input, 'VSphereCluster', table, vsphereClusterConsumedFields, {
    fields: vsphereCredentialFields[v03 ? 'v03' : 'v04'],
    suffix: VSPHERE_CREDENTIALS_SUFFIX,
  });
}
