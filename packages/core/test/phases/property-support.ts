/** The public API plus the one internal helper the properties need to classify generated timestamps. */
export * from '../../src/phases/index.js';
export { isDeletionRequested as isDeletionRequestedForTest } from '../../src/phases/inputs.js';
