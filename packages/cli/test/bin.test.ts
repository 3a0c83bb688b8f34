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

  describe('when something unexpected throws', () => {
    // A stdout whose write throws (not EPIPE) stands in for any bug the commands do not catch.
    const broken = 'data:text/javascript,process.stdout.write=()=>{throw new Error("disk on fire")}';
    const run = (env: NodeJS.ProcessEnv) =>
      spawnSync(process.execPath, ['--import', broken, cliBin, '--version'], {
        encoding: 'utf8',
        env: { ...process.env, CAPI_KIT_DEBUG: undefined, ...env },
      });
    const STACK = /^\s+at .+[(:]\d+/m;

    it('exits 70 with "internal error", what was thrown and what to do, and no stack trace', () => {
      const r = run({});
      expect(r.status).toBe(70);
      expect(r.stderr.split('\n')).toEqual([
        'capi-kit: internal error: Error: disk on fire',
        'capi-kit: this is a bug in capi-kit; please report it with the command that caused it (CAPI_KIT_DEBUG=1 shows where it happened)',
        '',
      ]);
      expect(r.stderr).not.toMatch(STACK);
      expect(run({ CAPI_KIT_DEBUG: '0' }).stderr).not.toMatch(STACK);
    });

    it('the same for what throws outside the command (an event handler), exit 70 and no stack', () => {
      // (Node printed such an exception with its stack, and exited 1: client-node's informer
      // threw so on a watch event without an object)
      const late = 'data:text/javascript,setTimeout(()=>{throw new TypeError("handler on fire")},0)';
      // (parse reads 20,000 IDs from stdin, so the timer fires while the command runs)
      const ids = Array.from(
        { length: 20_000 },
        (_, i) => `aws:///eu-west-1a/i-${i.toString(16).padStart(17, '0')}`,
      );
      const r = spawnSync(process.execPath, ['--import', late, cliBin, 'providerid', 'parse'], {
        encoding: 'utf8',
        input: `${ids.join('\n')}\n`,
        env: { ...process.env, CAPI_KIT_DEBUG: undefined },
      });
      expect(r.status).toBe(70);
      expect(r.stderr).toMatch(
        /^capi-kit: internal error: TypeError: handler on fire\ncapi-kit: this is a bug/,
      );
      expect(r.stderr).not.toMatch(STACK);
    });

    it('shows the stack trace with CAPI_KIT_DEBUG=1', () => {
      const r = run({ CAPI_KIT_DEBUG: '1' });
      expect(r.status).toBe(70);
      expect(r.stderr).toMatch(/^capi-kit: internal error: Error: disk on fire\n\s+at /);
      expect(r.stderr).toMatch(STACK);
    });
  });

  /**
   * Runs the built CLI with its stdout on a pipe whose reader closes after the first chunk,
   * as `capi-kit … | head -c1` does; stdin is `input`.
   */
  async function intoEarlyClosingReader(args: readonly string[], input: string) {
    const child = spawn(process.execPath, [cliBin, ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
    let stderr = '';
    let firstChunk = 0;
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    child.stdout.once('data', (chunk: Buffer) => {
      firstChunk = chunk.length;
      child.stdout.destroy();
    });
    child.stdin.end(input);
    const [code, signal] = await once(child, 'exit');
    return { code, signal, stderr, firstChunk };
  }

  // Both outputs are far larger than a pipe's buffer (64 KiB on Linux), so the reader is
  // gone before the CLI has written everything, whatever the scheduling.
  it('reports a reader that closed the pipe early (EPIPE) once, exit 1, no stack trace: convert', async () => {
    const machines = Array.from(
      { length: 2000 },
      (_, i) =>
        `apiVersion: cluster.k8s.io/v1alpha1\nkind: Machine\nmetadata: {name: worker-${i}, namespace: default}\nspec:\n  versions: {kubelet: 1.16.2}\n  providerSpec: {value: {apiVersion: awsprovider/v1alpha1, kind: AWSMachineProviderSpec, instanceType: m5.large}}\n`,
    ).join('---\n');
    expect(machines.length).toBeGreaterThan(256 * 1024); // the output is larger still
    const run = await intoEarlyClosingReader(['convert', '-f', '-'], machines);
    expect(run.firstChunk).toBeGreaterThan(0);
    expect(run.signal).toBeNull();
    expect(run.code).toBe(1);
    expect(run.stderr).toBe('capi-kit: cannot write to standard output: EPIPE\n');
  });

  it('reports a reader that closed the pipe early (EPIPE) once, exit 1: providerid parse, streamed', async () => {
    // 20 000 providerIDs, one result line each.
    const ids = Array.from(
      { length: 20_000 },
      (_, i) => `aws:///eu-west-1a/i-${i.toString(16).padStart(17, '0')}`,
    );
    const run = await intoEarlyClosingReader(['providerid', 'parse'], `${ids.join('\n')}\n`);
    expect(run.code).toBe(1);
    expect(run.stderr).toBe('capi-kit: cannot write to standard output: EPIPE\n');
  });
});
