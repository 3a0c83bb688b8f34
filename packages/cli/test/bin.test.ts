import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { describe, expect, it } from 'vitest';
import { cliBin, runCli } from './helpers/run-cli.js';

describe('the capi-kit binary', () => {
  it('answers --version and --help', () => {
    const v = runCli(['--version']);
    expect(v.code).toBe(0);
    expect(v.stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
    const h = runCli(['--help']);
    expect(h.code).toBe(0);
    expect(h.stdout).toContain('Usage: capi-kit <command>');
  });

  it('exits 2 on an unknown command', () => {
    const r = runCli(['frobnicate']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("unknown command 'frobnicate'");
  });

  it('exits 70 with "internal error" when something unexpected throws', () => {
    // A stdout whose write throws (not EPIPE) stands in for any bug the commands do not catch.
    const broken = 'data:text/javascript,process.stdout.write=()=>{throw new Error("disk on fire")}';
    const r = spawnSync(process.execPath, ['--import', broken, cliBin, '--version'], { encoding: 'utf8' });
    expect(r.status).toBe(70);
    expect(r.stderr).toMatch(/^capi-kit: internal error: Error: disk on fire/);
  });

  it('ends quietly with the exit code so far when the reader closes the pipe early (EPIPE)', async () => {
    // Enough output to overflow any pipe buffer: 20 000 providerIDs, one result line each.
    const ids = Array.from(
      { length: 20_000 },
      (_, i) => `aws:///eu-west-1a/i-${i.toString(16).padStart(17, '0')}`,
    );
    const child = spawn(process.execPath, [cliBin, 'providerid', 'parse'], {
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    child.stdout.once('data', () => child.stdout.destroy());
    child.stdin.end(`${ids.join('\n')}\n`);
    const [code] = await once(child, 'exit');
    expect(stderr).toBe('');
    expect(code).toBe(0);
  });
});
