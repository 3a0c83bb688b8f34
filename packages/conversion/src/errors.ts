import type { OmittedErrors } from '@capi-kit/core/manifest';
import { formatObjectName, objectName } from '@capi-kit/core/objects';
import type { StashRefusalCode } from './stash-rules.js';

/**
 * Why a document could not be converted. Everything a person needs to find it: which
 * document of the manifest, which object, which field.
 */
/**
 * What went wrong, as a tag a program can branch on. The stash refusals are listed in
 * stash-rules.ts; the others:
 */
export type ConversionErrorCode =
  | StashRefusalCode
  /** The document is not an object, or misses or mistypes a field conversion needs. */
  | 'invalid-object'
  /** The apiVersion (or the target) is one no conversion knows. */
  | 'unsupported-version'
  /** A providerSpec no conversion plug-in claims. */
  | 'no-plugin'
  /** A plug-in refused the providerSpec (its own message follows). */
  | 'plugin-refused'
  /** A providerSpec.valueFrom.machineClass that the manifest cannot resolve. */
  | 'machine-class'
  /** Two documents would write the same object with different content. */
  | 'duplicate-output'
  /** The manifest text itself does not parse. */
  | 'manifest-syntax'
  /** The object nests deeper than the conversion's walks can go (too-deep.ts). */
  | 'too-deep'
  /** Going down: the Secret a stash names for a private key is not given (key-pairs.ts). */
  | 'secret-missing'
  /** Going down: that Secret holds another certificate, or no key. */
  | 'secret-key-mismatch'
  /**
   * Going down: the Secret a stash names for a field's value (secret-fields.ts) was not made
   * for this object by the conversion, or does not hold the field as base64 of UTF-8 text.
   */
  | 'secret-field-mismatch';

export interface ConversionError {
  readonly code: ConversionErrorCode;
  /** 0-based position of the document in the manifest (absent for a lone object). */
  readonly index?: number;
  /** 1-based line where the document starts, when it came from a manifest. */
  readonly line?: number;
  /** The object's kind (`objectKind`, as `kind` would read as the error's own kind). */
  readonly objectKind?: string;
  readonly name?: string;
  /** The object's `metadata.generateName`, when it has no name yet. */
  readonly generateName?: string;
  readonly namespace?: string;
  /** JSON path of the offending field, e.g. `spec.providerSpec.value`. */
  readonly path?: string;
  readonly message: string;
  /**
   * `manifest-syntax` only: on the note that ends the reader's errors past its cap (no error
   * itself), what it left out (`errorCountText` of `@capi-kit/core/manifest` counts them).
   */
  readonly omitted?: OmittedErrors;
}

/** A failure before it is placed in a document: what went wrong and where in the object. */
export type ConversionFailure = {
  readonly code?: ConversionErrorCode;
  readonly path?: string;
  readonly message: string;
};

/** The object an error is about, read from the document (kind as `objectKind`). */
export function erroneousObject(
  value: unknown,
): Pick<ConversionError, 'objectKind' | 'name' | 'generateName' | 'namespace'> {
  const { kind, ...names } = objectName(value);
  return { ...(kind === undefined ? {} : { objectKind: kind }), ...names };
}

/** `document 3 (Machine default/web-0, line 40): spec.providerSpec.value: no conversion plug-in …`. */
export function formatConversionError(error: Omit<ConversionError, 'code'>): string {
  const what = formatObjectName({
    ...error,
    ...(error.objectKind === undefined ? {} : { kind: error.objectKind }),
  });
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
