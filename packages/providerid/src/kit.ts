/**
 * `@capi-kit/providerid/kit`: what a grammar author needs to describe a cloud's
 * providerIDs. Every module under `clouds/` is written against this entry point only, as a
 * grammar outside this package would be.
 */

export { MESSAGE_TEXT_LIMIT, quoteInput } from './characters.js';
export {
  canonicalInteger,
  checkScheme,
  chosenScheme,
  type FieldsResult,
  foldUUID,
  formatFields,
  formatSegments,
  formatted,
  invalidField,
  isInt64Text,
  isToken,
  isUUID,
  malformed,
  missingField,
  type PositionalSpec,
  positionalGrammar,
  readAfterScheme,
  readField,
  readLayouts,
  readSegments,
  type SegmentField,
  type SegmentLayout,
  type SingleTokenCloud,
  singleTokenGrammar,
  type TokenRule,
  tokenFault,
  tokenFaultMessage,
  tokenRules,
} from './grammar-kit.js';
export { structuralIdentity } from './identity.js';
export { nonEmptySegments, splitProviderID } from './split.js';
export {
  type CloudProviderIDGrammar,
  type InstanceIdentity,
  type ProviderIDError,
  type ProviderIDErrorCode,
  type ProviderIDFields,
  providerIDError,
  type SplitProviderID,
} from './types.js';
