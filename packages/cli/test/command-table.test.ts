import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { commands } from '../src/commands/index.js';
import { runMain } from './helpers/capture-io.js';
import { cliBin } from './helpers/run-cli.js';

const recordImports = fileURLToPath(new URL('./helpers/record-imports.mjs', import.meta.url));

/** The module URLs the built CLI loads for `args`. */
function modulesLoadedBy(args: readonly string[]): string[] {
  const run = spawnSync(process.execPath, ['--import', recordImports, cliBin, ...args], {
    encoding: 'utf8',
    timeout: 120_000,
  });
  expect(run.status, run.stderr).toBe(0);
  const [, list = ''] = run.stderr.split('--- loaded modules ---\n');
  return list.split('\n').filter((line) => line !== '');
}

describe('the command table', () => {
  it('has one row per command name, each loading a module with usage and run', async () => {
    expect(new Set(commands.map((c) => c.name)).size).toBe(commands.length);
    for (const entry of commands) {
      const body = await entry.load();
      expect(typeof body.run, entry.name).toBe('function');
      expect(body.usage, entry.name).toContain(`capi-kit ${entry.name}`);
      const help = await runMain([entry.name, '--help']);
      expect(help.code, entry.name).toBe(0);
      expect(help.stdout, entry.name).toBe(body.usage.endsWith('\n') ? body.usage : `${body.usage}\n`);
    }
  });

  it('lists every row in --help without loading any command', async () => {
    const help = await runMain(['--help']);
    for (const entry of commands) expect(help.stdout).toContain(`${entry.name}`);
    for (const args of [['--version'], ['--help']]) {
      const loaded = modulesLoadedBy(args);
      expect(loaded.some((url) => url.endsWith('/dist/main.js'))).toBe(true);
      const commandModules = loaded.filter(
        (url) => url.includes('/dist/commands/') && !url.endsWith('/index.js'),
      );
      expect(commandModules, args.join(' ')).toEqual([]);
      expect(loaded.filter((url) => url.includes('@capi-kit/') || url.includes('/packages/core/'))).toEqual(
        [],
      );
    }
  });

  it('loads only the chosen command', () => {
    const loaded = modulesLoadedBy(['providerid', 'parse', 'aws:///us-east-1a/i-0abc', '--json']);
    const commandModules = loaded.filter(
      (url) => url.includes('/dist/commands/') && !url.endsWith('/index.js'),
    );
    expect(commandModules.map((url) => url.slice(url.lastIndexOf('/') + 1))).toEqual(['providerid.js']);
    expect(loaded.some((url) => url.includes('client-node'))).toBe(false);
  });
});
