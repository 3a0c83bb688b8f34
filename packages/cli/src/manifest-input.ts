import {
  errorCountText,
  formatManifestError,
  type ManifestDocument,
  readManifest,
} from '@capi-kit/core/manifest';
import { type CliIO, readInput } from './io.js';
import { printable } from './text.js';

/** The manifest named by `-f FILE|-`: its name for messages, and its documents. */
export interface ManifestInput {
  readonly name: string;
  readonly documents: readonly ManifestDocument[];
}

/**
 * Reads `-f FILE|-` and parses it as a manifest (multi-document YAML or JSON). When it is
 * not valid YAML/JSON, writes each syntax error (document, line, column) to `errorsTo`, a
 * summary to stderr, and resolves to `undefined`: the command then exits with
 * `ExitCode.input`.
 */
export async function readManifestInput(
  io: CliIO,
  file: string | undefined,
  errorsTo: (text: string) => void,
): Promise<ManifestInput | undefined> {
  const input = await readInput(io, file);
  const manifest = readManifest(input.text);
  if (manifest._tag === 'Right') return { name: input.name, documents: manifest.right };
  // (the file name is the user's; the messages may quote the text: both are escaped)
  for (const error of manifest.left) errorsTo(`${printable(formatManifestError(error))}\n`);
  // (past MAX_REPORTED_ERRORS the last line is a note counting what was left out, no error)
  io.stderr(`${printable(input.name)}: cannot be read as a manifest (${errorCountText(manifest.left)})\n`);
  return undefined;
}
