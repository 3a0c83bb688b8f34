import { formatObjectName } from '@capi-kit/core/objects';
import type { StashRefusalCode } from './stash-rules.js';

/**
 * Why a document could not be converted. Everything a person needs to find it: which
 * document of the manifest, which object, which field.
 */
export interface ConversionError {
  /** Set for refusals of a conversion stash (see stash-rules.ts), so callers can tell them apart. */
  readonly code?: StashRefusalCode;
  /** 0-based position of the document in the manifest (absent for a lone object). */
  readonly index?: number;
  /** 1-based line where the document starts, when it came from a manifest. */
  readonly line?: number;
  readonly kind?: string;
  readonly name?: string;
  /** The object's `metadata.generateName`, when it has no name yet. */
  readonly generateName?: string;
  readonly namespace?: string;
  /** JSON path of the offending field, e.g. `spec.providerSpec.value`. */
  readonly path?: string;
  readonly message: string;
}

/** `document 3 (Machine default/web-0, line 40): spec.providerSpec.value: no conversion plug-in …`. */
export function formatConversionError(error: ConversionError): string {
  const what = formatObjectName(error);
  const details = [
    what === '' ? undefined : what,
    error.line === undefined ? undefined : `line ${error.line}`,
  ]
    .filter((p) => p !== undefined)
    .join(', ');
  const where =
    error.index === undefined
      ? details === ''
        ? ''
        : `${details}: `
      : `document ${error.index + 1}${details === '' ? '' : ` (${details})`}: `;
  return `${where}${error.path === undefined || error.path === '' ? '' : `${error.path}: `}${error.message}`;
}
