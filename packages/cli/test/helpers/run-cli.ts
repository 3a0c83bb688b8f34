import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** The built CLI (`pnpm test` builds before running vitest). */
export const cliBin = fileURLToPath(new URL('../../dist/bin.js', import.meta.url));

/** Runs the real `capi-kit` binary in a child process, as a user or script would. */
export function runCli(args: readonly string[], options: { stdin?: string; env?: NodeJS.ProcessEnv } = {}) {
  const result = spawnSync(process.execPath, [cliBin, ...args], {
    input: options.stdin ?? '',
    encoding: 'utf8',
    env: { ...process.env, ...options.env },
    timeout: 120_000,
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}
