export { allConversionPlugins } from './conversion-plugins.js';
export * from './providerid.js';
