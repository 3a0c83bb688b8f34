import type { CliIO } from '../../src/io.js';

/** A CliIO that records what a command writes, with `stdin` as its standard input. */
export function captureIO(stdin = '', env: Record<string, string | undefined> = {}) {
  const out: string[] = [];
  const err: string[] = [];
  const io: CliIO = {
    stdout: (t) => out.push(t),
    stderr: (t) => err.push(t),
    readStdin: async () => stdin,
    env,
  };
  return { io, stdout: () => out.join(''), stderr: () => err.join('') };
}
