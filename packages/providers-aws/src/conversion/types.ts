import type { ProviderSpecType } from '@capi-kit/conversion/plugin-kit';

/**
 * The v1alpha1 AWS providerSpec types (CAPA v0.3.x). CAPA's own examples write the
 * apiVersion `awsprovider/v1alpha1`; the registered group is `awsprovider.k8s.io`. CAPA never
 * checked either, so both spellings are accepted.
 */
export const AWS_V1ALPHA1_API_VERSIONS = ['awsprovider/v1alpha1', 'awsprovider.k8s.io/v1alpha1'] as const;
export const AWS_CLUSTER_PROVIDER_SPEC = 'AWSClusterProviderSpec';
export const AWS_MACHINE_PROVIDER_SPEC = 'AWSMachineProviderSpec';

export const awsProviderSpecTypes: readonly ProviderSpecType[] = AWS_V1ALPHA1_API_VERSIONS.flatMap(
  (apiVersion) => [
    { apiVersion, kind: AWS_CLUSTER_PROVIDER_SPEC },
    { apiVersion, kind: AWS_MACHINE_PROVIDER_SPEC },
  ],
);
