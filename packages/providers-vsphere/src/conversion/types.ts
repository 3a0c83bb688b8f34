import type { ProviderSpecType } from '@capi-kit/conversion/plugin-kit';

/**
 * The two v1alpha1 vSphere providerSpec generations:
 * - CAPV v0.3.x `vsphereproviderconfig` (examples write `vsphereproviderconfig/v1alpha1`,
 *   registered group `vsphereproviderconfig.sigs.k8s.io`): machine fields under `machineSpec`;
 * - CAPV v0.4.x `vsphere.cluster.k8s.io/v1alpha1` (its doc.go says `vsphere.cluster.sigs.k8s.io`):
 *   flat machine fields.
 * CAPV never checked the apiVersion, so every spelling is accepted.
 */
export const VSPHERE_V03_API_VERSIONS = [
  'vsphereproviderconfig/v1alpha1',
  'vsphereproviderconfig.sigs.k8s.io/v1alpha1',
] as const;
export const VSPHERE_V04_API_VERSIONS = [
  'vsphere.cluster.k8s.io/v1alpha1',
  'vsphere.cluster.sigs.k8s.io/v1alpha1',
] as const;

export const VSPHERE_V03_CLUSTER_KIND = 'VsphereClusterProviderConfig';
export const VSPHERE_V03_MACHINE_KIND = 'VsphereMachineProviderConfig';
export const VSPHERE_V04_CLUSTER_KIND = 'VsphereClusterProviderSpec';
export const VSPHERE_V04_MACHINE_KIND = 'VsphereMachineProviderSpec';

export const vsphereProviderSpecTypes: readonly ProviderSpecType[] = [
  ...VSPHERE_V03_API_VERSIONS.flatMap((apiVersion) => [
    { apiVersion, kind: VSPHERE_V03_CLUSTER_KIND },
    { apiVersion, kind: VSPHERE_V03_MACHINE_KIND },
  ]),
  ...VSPHERE_V04_API_VERSIONS.flatMap((apiVersion) => [
    { apiVersion, kind: VSPHERE_V04_CLUSTER_KIND },
    { apiVersion, kind: VSPHERE_V04_MACHINE_KIND },
  ]),
];

export function isV03(apiVersion: unknown): boolean {
  return (VSPHERE_V03_API_VERSIONS as readonly unknown[]).includes(apiVersion);
}
