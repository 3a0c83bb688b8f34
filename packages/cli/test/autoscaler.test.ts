// `capi-kit autoscaler` command-line errors, which need no cluster (the live behaviour is in
// autoscaler.integration.test.ts).
import { describe, expect, it } from 'vitest';
import { runMain } from './helpers/capture-io.js';

describe('capi-kit autoscaler usage', () => {
  it.each([
    ['no action', ['autoscaler'], 'missing action'],
    ['an unknown action', ['autoscaler', 'scale'], "action must be one of groups, node-group (got 'scale')"],
    ['node-group without NODE', ['autoscaler', 'node-group'], 'missing NODE'],
    ['an extra argument', ['autoscaler', 'groups', 'x'], "unexpected argument 'x'"],
    [
      'a NODE no Node can be named (before the kubeconfig is read)',
      ['autoscaler', 'node-group', 'BAD\u001b[2JNODE', '--kubeconfig', '/nonexistent/kc'],
      `NODE "BAD\\u001b[2JNODE" is not a valid node name`,
    ],
    [
      'a NODE of ..',
      ['autoscaler', 'node-group', '..', '--kubeconfig', '/nonexistent/kc'],
      'NODE ".." is not a valid node name',
    ],
    ['an unknown flag', ['autoscaler', 'groups', '--replicas', '3'], "Unknown option '--replicas'"],
    [
      'both workload sources',
      ['autoscaler', 'groups', '--workload-from-secret', '--workload-kubeconfig', 'f'],
      'exclude each other',
    ],
    [
      'a bad lease layout',
      ['autoscaler', 'groups', '--lease-layout', 'x'],
      '--lease-layout must be one of kep, medik8s',
    ],
  ])('%s: exit 2, nothing on stdout', async (_, argv, message) => {
    const { code, stdout, stderr } = await runMain(argv);
    expect([code, stdout]).toEqual([2, '']);
    expect(stderr).toContain(message);
  });

  it('a kubeconfig that cannot be read: exit 3 (as get and describe), naming it', async () => {
    const { code, stdout, stderr } = await runMain([
      'autoscaler',
      'groups',
      '--kubeconfig',
      '/nonexistent/kc',
    ]);
    expect([code, stdout]).toEqual([3, '']);
    expect(stderr).toContain('/nonexistent/kc');
  }, 60_000); // the first run imports client-node, slow on a loaded machine

  it('--help prints the usage', async () => {
    const { code, stdout } = await runMain(['autoscaler', '--help']);
    expect(code).toBe(0);
    expect(stdout).toContain('capi-kit autoscaler groups [--json]');
    expect(stdout).toContain('--workload-kubeconfig FILE');
  });
});
