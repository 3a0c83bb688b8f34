/**
 * The vSphere providerID grammar, re-exported from `@capi-kit/providerid/clouds/vsphere` so that
 * `@capi-kit/providers-vsphere/providerid` works without loading the conversion engine.
 */
export * from '@capi-kit/providerid/clouds/vsphere';
