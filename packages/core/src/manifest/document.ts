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

/** A syntax error in one document of a manifest. */
export interface ManifestError {
  /** 0-based position of the document that holds the error (empty documents are not counted). */
  readonly index: number;
  /** 1-based line of the error. */
  readonly line: number;
  /** 1-based column of the error. */
  readonly column: number;
  /** What is wrong, without the position (see `formatManifestError`). */
  readonly message: string;
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
