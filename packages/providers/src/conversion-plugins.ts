import { awsConversionPlugin, type ConversionPlugin } from '@capi-kit/providers-aws';
import { vsphereConversionPlugin } from '@capi-kit/providers-vsphere';

/**
 * Every v1alpha1 → v1alpha2 conversion plug-in capi-kit ships, in the order they are asked.
 * Pass it as `plugins` to `convertManifest` / `toV1alpha2` from `@capi-kit/conversion`.
 */
export const allConversionPlugins: readonly ConversionPlugin[] = [
  awsConversionPlugin,
  vsphereConversionPlugin,
];
