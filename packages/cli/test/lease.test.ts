import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ExitCode } from '../src/exit-codes.js';
import { runMain } from './helpers/capture-io.js';
import { runCli } from './helpers/run-cli.js';

// Command-line handling of `capi-kit lease`, in process. Everything here is refused before
// any request is made; what the server decides is tested end to end in
// lease.integration.test.ts.
async function lease(...args: string[]) {
  return runMain(['lease', ...args]);
}

describe('capi-kit lease command line', () => {
  it('prints its usage with the actions and exit codes', async () => {
    const help = await lease('--help');
    expect(help.code).toBe(ExitCode.ok);
    expect(help.stdout).toContain('Usage: capi-kit lease status|acquire|renew|release|hold NODE');
    expect(help.stdout).toContain('--trust-renew-time');
    expect(help.stdout).toContain('3 cluster or API error');
  });

  it.each([
    [['acquire', 'n1'], 'acquire needs --holder ID'],
    [['hold', 'n1'], 'hold needs --holder ID'],
    [[], 'missing action'],
    [['acquire'], 'missing NODE'],
    [['steal', 'n1', '--holder', 'a'], 'action must be one of status, acquire, renew, release, hold'],
    [['status', 'n1', 'n2'], "unexpected argument 'n2'"],
    [['status', 'n1', '--layout', 'kured'], '--layout must be one of kep, medik8s'],
    [['acquire', 'n1', '--holder', 'a', '--duration', '1.5'], '--duration must be 1..3600'],
    [['acquire', 'n1', '--holder', 'a', '--duration', '0'], '--duration must be 1..3600'],
    [['acquire', 'n1', '--holder', 'a', '--duration', '7200'], '--duration must be 1..3600'],
    [['acquire', 'n1', '--holder', 'a', '--wait=0'], '--wait must be 1..3600'],
    [['acquire', 'n1', '--holder', 'a', '--wait=5s'], '--wait must be 1..3600'],
    [['acquire', 'n1', '--holder', 'a', '--wait', '30'], "unexpected argument '30'"],
    [['status', 'n1', '--wait'], '--wait applies to acquire only'],
    [['hold', 'n1', '--holder', 'a', '--wait=5'], '--wait applies to acquire only'],
    [['acquire', 'n1', '--holder', 'kubeadm-ops'], "starts with the reserved prefix 'kubeadm'"],
    [['acquire', 'n1', '--holder', ''], 'a holder identity is required'],
    [['status', 'n1', '--bogus'], "Unknown option '--bogus'"],
  ])('refuses %j with exit 2', async (args, message) => {
    const result = await lease(...args);
    expect(result.code).toBe(ExitCode.usage);
    expect(result.stderr).toContain(message);
    expect(result.stdout).toBe('');
  });
});

describe('capi-kit lease without a cluster to talk to', () => {
  it('exits 3 naming the problem when the kubeconfig has no current cluster', () => {
    const dir = mkdtempSync(join(tmpdir(), 'capi-kit-lease-'));
    const kubeconfig = join(dir, 'kubeconfig');
    // A cluster and a user, but no current-context: nothing says which to use.
    writeFileSync(
      kubeconfig,
      JSON.stringify({
        apiVersion: 'v1',
        kind: 'Config',
        clusters: [{ name: 'c', cluster: { server: 'https://127.0.0.1:1' } }],
        users: [{ name: 'u', user: { token: 't' } }],
        contexts: [{ name: 'ctx', context: { cluster: 'c', user: 'u' } }],
      }),
    );
    for (const args of [
      ['status', 'n1'],
      ['acquire', 'n1', '--holder', 'a'],
    ]) {
      const result = runCli(['lease', ...args], { env: { KUBECONFIG: kubeconfig } });
      expect(result.code).toBe(ExitCode.cluster);
      expect(result.stderr).toContain(`no current cluster in the kubeconfig (${kubeconfig})`);
      expect(result.stdout).toBe('');
    }
  });
});
