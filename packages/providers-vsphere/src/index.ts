export * from './providerid/index.js';
export * from './conversion/index.js';
