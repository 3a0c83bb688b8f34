import { readFile } from 'node:fs/promises';
import { UsageError } from './exit-codes.js';

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
    return Buffer.concat(chunks).toString('utf8');
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
  try {
    return { name: file, text: await readFile(file, 'utf8') };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new InputFileError(`cannot read ${file}: ${code === 'ENOENT' ? 'no such file' : String(error)}`);
  }
}

/** A named input that cannot be read: an input error (exit 1), not a usage error. */
export class InputFileError extends Error {
  override readonly name = 'InputFileError';
}
