export * from './providerid.js';
