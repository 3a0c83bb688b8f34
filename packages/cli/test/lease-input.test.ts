import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ExitCode } from '../src/exit-codes.js';
import { main } from '../src/main.js';
import { captureIO } from './helpers/capture-io.js';

// Issue #12: lease input is checked before any request (these never reach a server), and a
// kubeconfig that cannot be used is a clear cluster error (exit 3), never a stack trace.

async function lease(args: readonly string[], env: Record<string, string | undefined> = {}) {
  const c = captureIO('', { HOME: '/nonexistent-home', ...env });
  const code = await main(['lease', ...args], c.io);
  return { code, stdout: c.stdout(), stderr: c.stderr() };
}

describe('capi-kit lease: names and flags are checked before any request', () => {
  it.each([
    [['acquire', '.', '--holder', 'a'], 'NODE "." is not a valid node name'],
    [['acquire', '..', '--holder', 'a'], 'NODE ".." is not a valid node name'],
    [['acquire', 'a/b', '--holder', 'a'], 'NODE "a/b" is not a valid node name'],
    [['status', 'Node_1'], 'NODE "Node_1" is not a valid node name'],
    [['acquire', 'n1', '--holder', 'a', '-n', '..'], '--namespace ".." is not a valid namespace'],
    [['acquire', 'n1', '--holder', 'a', '-n', 'a/b'], '--namespace "a/b" is not a valid namespace'],
    [['acquire', 'n1', '--holder', ''], 'a holder identity is required'],
    [['acquire', 'n1', '--holder', 'a\u001b[2J'], 'without control characters'],
    [['acquire', 'n1', '--holder', 'kubeadm-x'], "starts with the reserved prefix 'kubeadm'"],
    [['acquire', 'n1', '--holder', 'a', '--duration', '-5'], '--duration must be 1..3600'],
    [['acquire', 'n1', '--holder', 'a', '--duration', '0'], '--duration must be 1..3600'],
    [['acquire', 'n1', '--holder', 'a', '--duration', '3601'], '--duration must be 1..3600'],
    // (a valid 250-character node name is a 255-character medik8s lease name: the server's 422)
    [
      ['acquire', 'n'.repeat(250), '--holder', 'a', '--layout', 'medik8s'],
      'has no valid lease name in the medik8s layout',
    ],
  ])('%j is a usage error: %s', async (args, message) => {
    const r = await lease(args, { KUBECONFIG: '/nonexistent' });
    expect(r.code).toBe(ExitCode.usage);
    expect(r.stderr).toContain(message);
    expect(r.stdout).toBe('');
  });
});

describe('capi-kit lease: an unusable kubeconfig is exit 3 with a clear message', () => {
  const dir = mkdtempSync(join(tmpdir(), 'capi-kit-kubeconfig-'));
  const empty = join(dir, 'empty');
  writeFileSync(empty, '');
  const garbage = join(dir, 'garbage');
  writeFileSync(garbage, ': : [not yaml\n');
  it.each([
    ['missing', { KUBECONFIG: join(dir, 'missing') }, 'none of the KUBECONFIG entries is a readable file'],
    // (an entry that exists but is no file is an error, as in kubectl; only missing ones are skipped)
    ['a directory', { KUBECONFIG: dir }, `cannot read kubeconfig ${dir}: not a readable file`],
    ['empty', { KUBECONFIG: empty }, 'is empty'],
    ['garbage', { KUBECONFIG: garbage }, `cannot load kubeconfig ${garbage}`],
    ['no kubeconfig at all', {}, 'no kubeconfig: set KUBECONFIG'],
  ])('%s', async (_, env, message) => {
    const r = await lease(['status', 'n1'], env);
    expect(r.code).toBe(ExitCode.cluster);
    expect(r.stderr).toContain(message);
    expect(r.stderr).not.toContain('skipTLSVerify');
    expect(r.stderr).not.toMatch(/^\s+at /m);
  });

  it('a KUBECONFIG list with a missing entry uses the others, as kubectl does', async () => {
    const r = await lease(['status', 'n1'], { KUBECONFIG: `${join(dir, 'missing')}:${empty}` });
    expect(r.code).toBe(ExitCode.cluster);
    expect(r.stderr).toContain(`kubeconfig ${empty} is empty`);
  });

  it('usage errors are reported before the kubeconfig is read', async () => {
    const r = await lease(['acquire', 'n1'], { KUBECONFIG: join(dir, 'missing') });
    expect(r.code).toBe(ExitCode.usage);
    expect(r.stderr).toContain('acquire needs --holder ID');
  });
});
