/**
 * providerID grammar, registry, matcher and index (`@capi-kit/core/providerid`).
 * Cloud grammars live in the `@capi-kit/providers-*` packages; `@capi-kit/providers`
 * bundles them into one registry.
 */
export { GENERIC_CLOUD, genericProviderIDGrammar } from './generic.js';
export { identityKey, structuralIdentity, unqualifiedKey } from './identity.js';
export {
  canonicalInteger,
  checkScheme,
  chosenScheme,
  type FieldsResult,
  foldUUID,
  formatSegments,
  formatted,
  invalidField,
  isInt64Text,
  isToken,
  isUUID,
  malformed,
  missingField,
  readField,
  readSegments,
  type SegmentField,
  type SingleTokenCloud,
  singleTokenGrammar,
  type TokenRule,
  tokenRules,
} from './kit.js';
export {
  type MatchedPair,
  type ProviderIDEntry,
  ProviderIDIndex,
  type ProviderIDMatchReport,
} from './provider-id-index.js';
export {
  compareIdentified,
  createProviderIDRegistry,
  type IdentifiedProviderID,
  ProviderIDRegistry,
} from './registry.js';
export { nonEmptySegments, splitProviderID } from './split.js';
export {
  type CloudProviderIDGrammar,
  type InstanceIdentity,
  type ParsedProviderID,
  type ParseOptions,
  type ParseProviderIDResult,
  type ProviderIDError,
  type ProviderIDErrorKind,
  type ProviderIDFields,
  providerIDError,
  type SameInstanceResult,
  type SplitProviderID,
} from './types.js';
