import { objectLabel } from '../objects/object-name.js';

/** One document of a manifest, with where it came from. */
export interface ManifestDocument {
  /** 0-based position among the manifest's non-empty documents. */
  readonly index: number;
  /** 1-based line where the document's content starts. */
  readonly line: number;
  /** The parsed value, as plain JSON data (objects, arrays, strings, numbers, booleans, null). */
  readonly value: unknown;
}

/**
 * Why a document cannot be read, tagged `code` like every capi-kit error:
 * - `yaml-syntax`: the YAML parser's own error, an unresolved alias, or a raw character
 *   kubectl refuses (a control character, LS or PS);
 * - `too-deep`: nesting past `MAX_DOCUMENT_DEPTH`;
 * - `too-many-aliases`: aliases expand the manifest past `aliasExpansionBudget` nodes and
 *   string characters (an alias bomb), or an alias sits inside the node it names;
 * - `duplicate-key`: a mapping repeats a key (as kubectl names keys), or has a merge key
 *   (`<<`) that is not its first and only one;
 * - `not-json`: a value JSON cannot carry unchanged (a non-JSON tag, a null or non-scalar
 *   key, NaN or infinity, an integer a float would round, an unpaired surrogate);
 * - `unsafe-text`: a control character or lone surrogate in a name, label or annotation
 *   (with its `path`).
 */
export type ManifestErrorCode =
  | 'yaml-syntax'
  | 'too-deep'
  | 'too-many-aliases'
  | 'duplicate-key'
  | 'not-json'
  | 'unsafe-text';

/** An error in one document of a manifest. */
export interface ManifestError {
  readonly code: ManifestErrorCode;
  /** 0-based position of the document that holds the error (empty documents are not counted). */
  readonly index: number;
  /** 1-based line of the error. */
  readonly line: number;
  /** 1-based column of the error. */
  readonly column: number;
  /** The JSON path inside the document's value, when one field is to blame (`unsafe-text`). */
  readonly path?: string;
  /** What is wrong, without the position (see `formatManifestError`). */
  readonly message: string;
  /**
   * Only on the note that ends a manifest's errors past `MAX_REPORTED_ERRORS` (itself no
   * error of the text): what was left out. Count the errors with `errorCountText`.
   */
  readonly omitted?: OmittedErrors;
}

/** What `readManifest` leaves out of its errors past `MAX_REPORTED_ERRORS`. */
export interface OmittedErrors {
  /** Syntax errors not reported (the parser finds them anyway). */
  readonly syntaxErrors: number;
  /** Documents that parse but were not checked: each may hold errors of its own. */
  readonly documents: number;
}

/** `30 more syntax errors, and 2 more documents not checked`: what `omitted` left out. */
export function omittedText(omitted: OmittedErrors): string {
  const { syntaxErrors, documents } = omitted;
  return [
    syntaxErrors > 0 && `${syntaxErrors} more syntax error${syntaxErrors === 1 ? '' : 's'}`,
    documents > 0 && `${documents} more document${documents === 1 ? '' : 's'} not checked`,
  ]
    .filter(Boolean)
    .join(', and ');
}

/**
 * How many errors a list of them stands for, for a summary line: `3 error(s)`, or where the
 * list ends with the note of `omitted` errors, the errors shown and what the note counts:
 * `100 error(s) shown, then 30 more syntax errors` (not 101: the note is no error).
 */
export function errorCountText(errors: readonly { readonly omitted?: OmittedErrors }[]): string {
  const note = errors.find((e) => e.omitted !== undefined)?.omitted;
  if (note === undefined) return `${errors.length} error(s)`;
  return `${errors.length - 1} error(s) shown, then ${omittedText(note)}`;
}

/**
 * Names a document for people: `document 3 (Machine default/m-1, line 20)`.
 * The number is 1-based; kind and name appear when the document has them.
 */
export function documentLabel(doc: ManifestDocument): string {
  const where = `line ${doc.line}`;
  const what = objectLabel(doc.value);
  return `document ${doc.index + 1} (${what === '' ? where : `${what}, ${where}`})`;
}

/** `document 2, line 7, column 3: Map keys must be unique`. */
export function formatManifestError(error: ManifestError): string {
  return `document ${error.index + 1}, line ${error.line}, column ${error.column}: ${error.message}`;
}
