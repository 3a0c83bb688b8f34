/**
 * `@capi-kit/conversion`: every Cluster API version (v1alpha1 … v1beta2) to any other,
 * lossless, for single objects and whole manifests, with provider plug-ins for what v1alpha1
 * kept in `providerSpec`. The ConversionReview webhook is `@capi-kit/conversion/webhook`; what plug-in authors
 * need is `@capi-kit/conversion/plugin-kit`.
 */
export {
  type ContractCrd,
  CURRENT_CONTRACT,
  compareKubeAwareVersions,
  compatibleContracts,
  contractVersionFromLabels,
  type ReferenceApiVersionLookup,
  referenceApiVersionsFromCrds,
} from './chain/contract.js';
export { type ChainOptions, chainPath, convertAlongChain, convertTo } from './chain/convert.js';
export { durationToSeconds, parseGoDuration, secondsToDuration } from './chain/duration.js';
export type { Hop, HopMove, HopOptions, HopTable } from './chain/hop.js';
export { TABLE_HOPS } from './chain/hops/index.js';
export {
  CHAIN_KINDS,
  CHAIN_VERSIONS,
  type ChainKind,
  type ChainVersion,
  HUB_VERSION,
  isChainVersion,
  V1ALPHA3,
  V1ALPHA4,
  V1BETA1,
  V1BETA2,
} from './chain/versions.js';
export {
  type ConvertOptions,
  convertKind,
  convertObject,
  coreConvert,
  type DocumentConversion,
  KIND_TABLES,
  type ObjectConversion,
  type ResolvedMachineClass,
  toV1alpha1,
  toV1alpha2,
} from './convert.js';
export { type ConversionError, formatConversionError } from './errors.js';
export type { KeyPairRecord, SecretData } from './key-pairs.js';
export type { InfrastructureRole, KindTable } from './kind-table.js';
export {
  convertDocuments,
  convertManifest,
  type InputDocument,
  type ManifestConversion,
  type ManifestConversionOptions,
  type ManifestWriteOptions,
  type YamlWriter,
} from './manifest.js';
export {
  CONTROL_PLANE_LABEL,
  FINALIZER_RENAMES,
  LABEL_RENAMES,
  OBJECT_META_SUBSET,
} from './metadata.js';
export type { AppliedMove, FieldMove } from './moves.js';
export { isObject, type Json, type JsonObject, type Path } from './path.js';
export type { ConversionPlugin, GeneratedKind, PluginError } from './plugins.js';
export type { ConversionReport, DocumentReport, ObjectReport } from './report.js';
export { formatReport } from './report.js';
export { type SecretFieldRecord, STASHED_FOR_DATA_KEY, stashedFor } from './secret-fields.js';
export { CONVERSION_DATA_ANNOTATION, type Stash, type StashEntry } from './stash.js';
export {
  type ApiVersion,
  CONVERTIBLE_KINDS,
  type ConvertibleKind,
  type Direction,
  V1ALPHA1,
  V1ALPHA2,
} from './versions.js';
