export * from './providerid.js';
export { allConversionPlugins } from './conversion-plugins.js';
