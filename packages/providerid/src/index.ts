/**
 * `@capi-kit/providerid`: parse, format and identify the providerIDs of every cloud, tell
 * whether two of them denote the same instance, and match Nodes to Machines at scale.
 *
 * - this entry point: the all-clouds registry and the functions bound to it, the registry
 *   and index types for a registry of your own choice of clouds;
 * - `@capi-kit/providerid/clouds/<cloud>`: one cloud's grammar and helpers, alone;
 * - `@capi-kit/providerid/kit`: building blocks for writing a grammar.
 */
export {
  createProviderIDIndex,
  formatProviderID,
  identifyProviderID,
  parseProviderID,
  providerIDRegistry,
  sameInstance,
} from './all-clouds.js';
export { MESSAGE_TEXT_LIMIT, quoteInput } from './characters.js';
export { allProviderIDGrammars } from './cloud-table.js';
export { GENERIC_CLOUD, genericProviderIDGrammar } from './generic.js';
export { identityKey, structuralIdentity, unqualifiedKey } from './identity.js';
export {
  type MatchedPair,
  type ProviderIDEntry,
  ProviderIDIndex,
  type ProviderIDMatchReport,
} from './provider-id-index.js';
export {
  compareIdentified,
  createProviderIDRegistry,
  GrammarConflictError,
  type IdentifiedProviderID,
  ProviderIDRegistry,
} from './registry.js';
export type {
  CloudProviderIDGrammar,
  InstanceIdentity,
  ParsedProviderID,
  ParseOptions,
  ParseProviderIDResult,
  ProviderIDError,
  ProviderIDErrorCode,
  ProviderIDFields,
  SameInstanceResult,
} from './types.js';
