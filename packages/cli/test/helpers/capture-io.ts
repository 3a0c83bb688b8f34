import { type CliIO, textLines } from '../../src/io.js';
import { main } from '../../src/main.js';

/** A CliIO that records what a command writes, with `stdin` as its standard input. */
export function captureIO(stdin = '', env: Record<string, string | undefined> = {}) {
  const out: string[] = [];
  const err: string[] = [];
  const io: CliIO = {
    stdout: (t) => out.push(t),
    stderr: (t) => err.push(t),
    readStdin: async () => stdin,
    readStdinLines: async function* () {
      yield* textLines(stdin);
    },
    env,
  };
  return { io, stdout: () => out.join(''), stderr: () => err.join('') };
}

/** Runs `main(argv)` in process with `stdin` as standard input; what it wrote, and its exit code. */
export async function runMain(argv: readonly string[], stdin = '') {
  const c = captureIO(stdin);
  const code = await main(argv, c.io);
  return { code, stdout: c.stdout(), stderr: c.stderr() };
}
