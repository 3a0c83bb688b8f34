export * from './providerid/index.js';
