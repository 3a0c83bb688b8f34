/**
 * `@capi-kit/core/manifest`: read and write multi-document YAML / JSON manifests.
 *
 * `readManifest(text)` → `Either<ManifestError[], ManifestDocument[]>`;
 * `writeManifest(values, 'yaml' | 'json')`; `documentLabel(doc)` and
 * `formatManifestError(error)` for messages that say `document N` (1-based) and the line;
 * `errorCountText(errors)` for a summary that counts them (past `MAX_REPORTED_ERRORS` too).
 */
export {
  documentLabel,
  errorCountText,
  formatManifestError,
  type ManifestDocument,
  type ManifestError,
  type ManifestErrorCode,
  type OmittedErrors,
  omittedText,
} from './document.js';
export { kubernetesYamlTags, readManifest } from './read.js';
export {
  type ManifestFormat,
  parentKey,
  type QuoteString,
  type WriteManifestOptions,
  writeManifest,
} from './write.js';
