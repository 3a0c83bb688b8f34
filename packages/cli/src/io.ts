import { closeSync, constants as fsConstants, fstatSync, openSync, readSync } from 'node:fs';
import { type FileHandle, open } from 'node:fs/promises';
import { CliError, UsageError } from './exit-codes.js';

/**
 * The most bytes the CLI reads of an input it reads whole (`-f FILE`, `-f -`, the stdin of
 * `providerid parse`, a kubeconfig): 256 MiB. Far above any real manifest (the API server
 * refuses an object over 1.5 MiB, etcd's default request limit, so even thousands of objects
 * make a few MiB), and below what breaks Node: the input becomes one string, and V8 refuses a
 * string past about 512 MiB with an error from deep inside. Without a limit `-f /dev/zero`,
 * `yes | capi-kit validate -f -` or an endless FIFO were read until Node ran out of memory.
 * Reading stops as soon as the limit is passed; nothing past it is buffered.
 */
export const MAX_INPUT_BYTES = 256 * 1024 * 1024;

/**
 * The most bytes of one line of a stream read a line at a time (`providerid match` on stdin):
 * 4 MiB. A line holds two providerIDs, and a providerID is a field of a Node or Machine, whose
 * whole object the API server keeps under 1.5 MiB; an endless line (`tr -d '\n' </dev/zero`)
 * would otherwise grow memory until Node died.
 */
export const MAX_LINE_BYTES = 4 * 1024 * 1024;

const MiB = 1024 * 1024;

/** The error for an input past `limit` bytes: `NAME: more than 256 MiB; capi-kit reads WHAT whole`. */
export function inputTooLarge(name: string, what: string, limit = MAX_INPUT_BYTES): InputFileError {
  return new InputFileError(
    'input-too-large',
    `${name}: more than ${limit / MiB} MiB; capi-kit reads ${what} whole`,
  );
}

/** Reads `stream` to its end, or throws `tooLarge()` once more than `limit` bytes have come (and stops reading it). */
export async function readStreamBounded(
  stream: AsyncIterable<Buffer>,
  tooLarge: () => Error,
  limit = MAX_INPUT_BYTES,
): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of stream) {
    total += chunk.length;
    // (leaving the loop ends the iteration: a stream is destroyed, a file handle closed)
    if (total > limit) throw tooLarge();
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, total);
}

const CHUNK_BYTES = 1024 * 1024;

/** `readStreamBounded` for an open file, a read at a time (none is left pending when it throws). */
async function readHandleBounded(
  handle: FileHandle,
  tooLarge: () => Error,
  limit = MAX_INPUT_BYTES,
): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let total = 0;
  const buffer = Buffer.allocUnsafe(CHUNK_BYTES);
  for (;;) {
    const { bytesRead } = await handle.read(buffer, 0, CHUNK_BYTES, null);
    if (bytesRead === 0) return Buffer.concat(chunks, total);
    total += bytesRead;
    if (total > limit) throw tooLarge();
    // (a copy: a pipe gives 64 KiB a read, and each chunk would keep the whole buffer)
    chunks.push(Buffer.from(buffer.subarray(0, bytesRead)));
  }
}

/**
 * Reads the file at `path` whole, synchronously (kubeconfig files), or throws `tooLarge()`
 * once it has more than `limit` bytes: a regular file by its size, before reading, anything
 * else once that much has been read. Errors of `open` and `read` are thrown as they are.
 */
export function readFileBoundedSync(path: string, tooLarge: () => Error, limit = MAX_INPUT_BYTES): Buffer {
  const fd = openSync(path, 'r');
  try {
    const stats = fstatSync(fd);
    if (stats.isFile() && stats.size > limit) throw tooLarge();
    return readFdBoundedSync(fd, tooLarge, limit);
  } finally {
    closeSync(fd);
  }
}

/**
 * Reads the regular file at `path` whole, synchronously (the certificate, key, CA and token
 * files a kubeconfig names), or throws `notRegular()` if what it names is no regular file (a
 * directory, a FIFO, a device such as /dev/zero) and `tooLarge()` if it has more than `limit`
 * bytes. It is opened without blocking (opening a FIFO waits for a writer) and checked on the
 * open descriptor, so a file swapped after a check cannot slip past; its size is checked before
 * reading, and the read stops once more than `limit` bytes have come (a file that grows while
 * it is read). Errors of `open` and `read` are thrown as they are.
 */
export function readRegularFileBoundedSync(
  path: string,
  refusals: { readonly notRegular: () => Error; readonly tooLarge: () => Error },
  limit: number,
): Buffer {
  // (O_NONBLOCK is undefined where there are no FIFOs to wait on: Windows)
  const fd = openSync(path, fsConstants.O_RDONLY | (fsConstants.O_NONBLOCK ?? 0));
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile()) throw refusals.notRegular();
    if (stats.size > limit) throw refusals.tooLarge();
    return readFdBoundedSync(fd, refusals.tooLarge, limit);
  } finally {
    closeSync(fd);
  }
}

/** The rest of open file `fd`, or `tooLarge()` once more than `limit` bytes have been read. */
function readFdBoundedSync(fd: number, tooLarge: () => Error, limit: number): Buffer {
  const chunks: Buffer[] = [];
  let total = 0;
  const buffer = Buffer.allocUnsafe(Math.min(CHUNK_BYTES, limit + 1));
  for (let n = readSync(fd, buffer); n > 0; n = readSync(fd, buffer)) {
    total += n;
    if (total > limit) throw tooLarge();
    chunks.push(Buffer.from(buffer.subarray(0, n)));
  }
  return Buffer.concat(chunks, total);
}

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
    const tooLarge = () => inputTooLarge('<stdin>', 'standard input');
    return utf8Text(await readStreamBounded(process.stdin, tooLarge), '<stdin>');
  },
  readStdinLines: processStdinLines,
  env: process.env,
  stdoutIsTTY: process.stdout.isTTY === true,
};

/**
 * The lines of process.stdin as they arrive: split on '\n' bytes, each decoded as UTF-8; a
 * line longer than `MAX_LINE_BYTES` is an input error, thrown once that much of it has come.
 */
async function* processStdinLines(): AsyncGenerator<string> {
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  const at = { byte: 0, line: 1 }; // where the pending line starts
  const tooLong = () =>
    new InputFileError(
      'input-too-large',
      `<stdin>: line ${at.line} is longer than ${MAX_LINE_BYTES / MiB} MiB; capi-kit reads standard input a line at a time`,
    );
  const next = (bytes: Buffer): string => {
    const text = utf8Text(bytes, '<stdin>', at);
    at.byte += bytes.length + 1;
    at.line += 1;
    return text.endsWith('\r') ? text.slice(0, -1) : text;
  };
  for await (const chunk of process.stdin as AsyncIterable<Buffer>) {
    let start = 0;
    for (let nl = chunk.indexOf(0x0a); nl >= 0; nl = chunk.indexOf(0x0a, start)) {
      if (pendingBytes + (nl - start) > MAX_LINE_BYTES) throw tooLong();
      const bytes = Buffer.concat([...pending, chunk.subarray(start, nl)]);
      pending = [];
      pendingBytes = 0;
      start = nl + 1;
      yield next(bytes);
    }
    if (start < chunk.length) {
      pendingBytes += chunk.length - start;
      if (pendingBytes > MAX_LINE_BYTES) throw tooLong();
      pending.push(chunk.subarray(start));
    }
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
    const handle = await open(file, 'r');
    try {
      const stats = await handle.stat();
      if (stats.isFile() && stats.size > MAX_INPUT_BYTES) throw inputTooLarge(`-f ${file}`, 'a manifest');
      // (a pipe or FIFO, `-f <(cmd)`, has no size: it is read up to the limit)
      bytes = await readHandleBounded(handle, () => inputTooLarge(`-f ${file}`, 'a manifest'));
    } finally {
      await handle.close();
    }
  } catch (error) {
    if (error instanceof InputFileError) throw error;
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
export class InputFileError extends CliError<'input-unreadable' | 'input-not-utf8' | 'input-too-large'> {
  override readonly name = 'InputFileError';
}
