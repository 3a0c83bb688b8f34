import { readFile } from 'node:fs/promises';
import { CliError, UsageError } from './exit-codes.js';

/** Where a command reads and writes. Real runs use the process; tests pass their own. */
export interface CliIO {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  readonly readStdin: () => Promise<string>;
  /**
   * Standard input a line at a time, each as soon as it has been read (for commands that
   * stream); the lines `readStdin` would give (see `stdinLines`). Absent: those of `readStdin`.
   */
  readonly readStdinLines?: () => AsyncIterable<string>;
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
  readStdinLines: processStdinLines,
  env: process.env,
  stdoutIsTTY: process.stdout.isTTY === true,
};

/** The lines of process.stdin as they arrive: split on '\n' bytes, each decoded as UTF-8. */
async function* processStdinLines(): AsyncGenerator<string> {
  let pending: Buffer[] = [];
  const at = { byte: 0, line: 1 }; // where the pending line starts
  const next = (bytes: Buffer): string => {
    const text = utf8Text(bytes, '<stdin>', at);
    at.byte += bytes.length + 1;
    at.line += 1;
    return text.endsWith('\r') ? text.slice(0, -1) : text;
  };
  for await (const chunk of process.stdin as AsyncIterable<Buffer>) {
    let start = 0;
    for (let nl = chunk.indexOf(0x0a); nl >= 0; nl = chunk.indexOf(0x0a, start)) {
      const bytes = Buffer.concat([...pending, chunk.subarray(start, nl)]);
      pending = [];
      start = nl + 1;
      yield next(bytes);
    }
    if (start < chunk.length) pending.push(chunk.subarray(start));
  }
  if (pending.length > 0) yield next(Buffer.concat(pending));
}

/**
 * The lines of a text: without their '\n' or '\r\n'; a last line without '\n' counts, and
 * a trailing '\n' (or an empty text) adds no empty line.
 */
export function textLines(text: string): string[] {
  if (text === '') return [];
  const all = text.split('\n').map((line) => (line.endsWith('\r') ? line.slice(0, -1) : line));
  if (all[all.length - 1] === '') all.pop();
  return all;
}

/** Standard input's lines (`textLines`), each as soon as it is read when `io` can stream. */
export function stdinLines(io: CliIO): AsyncIterable<string> {
  if (io.readStdinLines !== undefined) return io.readStdinLines();
  return (async function* () {
    yield* textLines(await io.readStdin());
  })();
}

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
// For text that does not start the input: a leading U+FEFF there is content, not a BOM.
const strictUtf8KeepingBOM = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * Decodes input as UTF-8, refusing invalid bytes (with their line) instead of turning them
 * into U+FFFD: a name or label would otherwise change silently. `from`: where `bytes` start
 * in the input (a line read on its own), for the message.
 */
export function utf8Text(bytes: Buffer, name: string, from = { byte: 0, line: 1 }): string {
  try {
    return (from.byte === 0 ? strictUtf8 : strictUtf8KeepingBOM).decode(bytes);
  } catch {
    const lossy = Buffer.from(bytes.toString('utf8'), 'utf8');
    let offset = 0;
    while (offset < bytes.length && bytes[offset] === lossy[offset]) offset++;
    const line = from.line - 1 + bytes.subarray(0, offset).toString('latin1').split('\n').length;
    throw new InputFileError(
      'input-not-utf8',
      `${name}: not valid UTF-8 (byte ${from.byte + offset}, line ${line})`,
    );
  }
}

/** A named input that cannot be read: an input error (exit 1), not a usage error. */
export class InputFileError extends CliError<'input-unreadable' | 'input-not-utf8'> {
  override readonly name = 'InputFileError';
}
