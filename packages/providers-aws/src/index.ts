export * from './conversion/index.js';
export * from './providerid.js';
