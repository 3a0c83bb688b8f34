/**
 * The AWS providerID grammar, re-exported from `@capi-kit/providerid/clouds/aws` so that
 * `@capi-kit/providers-aws/providerid` works without loading the conversion engine.
 */
export * from '@capi-kit/providerid/clouds/aws';
