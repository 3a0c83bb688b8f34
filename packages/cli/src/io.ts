import { readFile } from 'node:fs/promises';
import { CliError, UsageError } from './exit-codes.js';

/** Where a command reads and writes. Real runs use the process; tests pass their own. */
export interface CliIO {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  readonly readStdin: () => Promise<string>;
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Whether stdout is a terminal (colour is for terminals only; absent: not one). */
  readonly stdoutIsTTY?: boolean;
}

export const processIO: CliIO = {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  readStdin: async () => {
    const chunks: Buffer[] = [];
    for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
    return utf8Text(Buffer.concat(chunks), '<stdin>');
  },
  env: process.env,
  stdoutIsTTY: process.stdout.isTTY === true,
};

/** Reads `-f FILE` (or `-f -` for stdin) as UTF-8 text. */
export async function readInput(
  io: CliIO,
  file: string | undefined,
): Promise<{ name: string; text: string }> {
  if (file === undefined) throw new UsageError('missing -f FILE (use -f - to read standard input)');
  if (file === '-') return { name: '<stdin>', text: await io.readStdin() };
  let bytes: Buffer;
  try {
    bytes = await readFile(file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new InputFileError(
      'input-unreadable',
      `cannot read ${file}: ${code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'is a directory' : (code ?? String(error))}`,
    );
  }
  return { name: file, text: utf8Text(bytes, file) };
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Decodes input as UTF-8, refusing invalid bytes (with their line) instead of turning them
 * into U+FFFD: a name or label would otherwise change silently.
 */
export function utf8Text(bytes: Buffer, name: string): string {
  try {
    return strictUtf8.decode(bytes);
  } catch {
    const lossy = Buffer.from(bytes.toString('utf8'), 'utf8');
    let offset = 0;
    while (offset < bytes.length && bytes[offset] === lossy[offset]) offset++;
    const line = bytes.subarray(0, offset).toString('latin1').split('\n').length;
    throw new InputFileError('input-not-utf8', `${name}: not valid UTF-8 (byte ${offset}, line ${line})`);
  }
}

/** A named input that cannot be read: an input error (exit 1), not a usage error. */
export class InputFileError extends CliError<'input-unreadable' | 'input-not-utf8'> {
  override readonly name = 'InputFileError';
}
