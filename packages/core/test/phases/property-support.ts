/** The public API of the phases, as the properties use it. */
export * from '../../src/phases/index.js';
