import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ExitCode } from '../src/exit-codes.js';
import { main } from '../src/main.js';
import { captureIO, runMain } from './helpers/capture-io.js';
import { badMachineManifest, mixedJsonLines, mixedManifest } from './phase-fixtures.js';

function phase(args: string[], stdin = '') {
  return runMain(['phase', ...args], stdin);
}

const machine = (name: string, status: string, extra = '') => `apiVersion: cluster.x-k8s.io/v1alpha2
kind: Machine
metadata: {name: ${name}${extra}}
spec:
  bootstrap: {configRef: {kind: KubeadmConfig, name: ${name}}}
  infrastructureRef: {kind: AWSMachine, name: ${name}}
status: ${status}
`;

describe('capi-kit phase (in process)', () => {
  it('prints kind, namespace/name and phase of each Machine and Cluster', async () => {
    const r = await phase(['-f', '-'], mixedManifest);
    expect(r.code).toBe(ExitCode.ok);
    expect(r.stdout).toBe(
      [
        'KIND     NAME             PHASE',
        'Cluster  infra/prod       provisioned',
        'Machine  infra/prod-cp-0  deleting',
        'Machine  infra/prod-md-0  failed',
        'Machine  infra/prod-md-1  provisioning',
        'Machine  legacy-0         deleting',
        '',
      ].join('\n'),
    );
  });

  it('says on stderr which documents it ignored and which phases it normalised', async () => {
    const r = await phase(['-f', '-'], mixedManifest);
    expect(r.stderr).toContain(
      'document 5 (Secret infra/prod-kubeconfig, line 64): ignored v1 Secret: only Machines and Clusters have a phase',
    );
    expect(r.stderr).toContain(
      'document 6 (Machine legacy-0, line 70): v1alpha1 free-text status.phase "Terminating" normalised to "deleting"',
    );
    expect(r.stderr.split('\n').filter((line) => line !== '')).toHaveLength(2);
  });

  it('prints one JSON object a line with --json', async () => {
    const r = await phase(['-f', '-', '--json'], mixedManifest);
    expect(r.code).toBe(ExitCode.ok);
    expect(r.stdout).toBe(mixedJsonLines);
  });

  it('reads a file given with -f', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'capi-kit-phase-')), 'm.yaml');
    writeFileSync(file, mixedManifest);
    const r = await phase(['--file', file, '--json']);
    expect(r.code).toBe(ExitCode.ok);
    expect(r.stdout).toBe(mixedJsonLines);
  });

  it('writes back an unrecognised v1alpha2 phase that no rule replaces, and says so', async () => {
    const r = await phase(['-f', '-', '--json'], machine('m1', '{phase: Running}'));
    expect(r.stdout).toBe(
      `${JSON.stringify({ kind: 'Machine', name: 'm1', namespace: '', phase: 'Running' })}\n`,
    );
    expect(r.stderr).toContain('status.phase "Running" is not a v1alpha2 phase');
  });

  it('replaces it once a rule fires', async () => {
    const r = await phase(
      ['-f', '-', '--json'],
      machine('m1', '{phase: Running, infrastructureReady: true}'),
    );
    expect(JSON.parse(r.stdout).phase).toBe('provisioned');
  });

  it('reports v1alpha1 Machines with unknown phases and v1alpha1 Clusters as unknown', async () => {
    const manifest = `apiVersion: cluster.k8s.io/v1alpha1
kind: Machine
metadata: {name: a, namespace: ns}
spec: {providerSpec: {}}
status: {phase: Stopped}
---
apiVersion: cluster.k8s.io/v1alpha1
kind: Cluster
metadata: {name: c, namespace: ns}
spec:
  clusterNetwork:
    services: {cidrBlocks: [10.96.0.0/12]}
    pods: {cidrBlocks: [192.168.0.0/16]}
    serviceDomain: cluster.local
`;
    const r = await phase(['-f', '-'], manifest);
    expect(r.code).toBe(ExitCode.ok);
    expect(r.stdout).toBe('KIND     NAME  PHASE\nMachine  ns/a  unknown\nCluster  ns/c  unknown\n');
    expect(r.stderr).toContain(
      'document 1 (Machine ns/a, line 1): v1alpha1 free-text status.phase "Stopped" not recognised',
    );
    expect(r.stderr).toContain('document 2 (Cluster ns/c, line 7): v1alpha1 Clusters have no status.phase');
    const json = await phase(['-f', '-', '--json'], manifest);
    expect(
      json.stdout
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line).phase),
    ).toEqual(['', '']);
  });

  it('reads the items of a v1 List and of a typed List without TypeMeta on the items', async () => {
    const manifest = JSON.stringify({
      apiVersion: 'v1',
      kind: 'List',
      items: [
        {
          apiVersion: 'cluster.x-k8s.io/v1alpha2',
          kind: 'MachineList',
          items: [
            {
              metadata: { name: 'x', namespace: 'ns' },
              spec: { bootstrap: { data: '' }, infrastructureRef: { kind: 'AWSMachine', name: 'x' } },
              status: { infrastructureReady: true, nodeRef: { name: 'n' } },
            },
          ],
        },
        { apiVersion: 'cluster.x-k8s.io/v1alpha2', kind: 'Cluster', metadata: { name: 'c' } },
      ],
    });
    const r = await phase(['-f', '-', '--json'], manifest);
    expect(r.code).toBe(ExitCode.ok);
    expect(r.stdout).toBe(
      `${JSON.stringify({ kind: 'Machine', name: 'x', namespace: 'ns', phase: 'running' })}\n${JSON.stringify({ kind: 'Cluster', name: 'c', namespace: '', phase: 'pending' })}\n`,
    );
  });

  it('ignores Machines of versions whose rules it does not know, and says so', async () => {
    const r = await phase(
      ['-f', '-'],
      'apiVersion: cluster.x-k8s.io/v1beta3\nkind: Machine\nmetadata: {name: m}\n',
    );
    expect(r.code).toBe(ExitCode.ok);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('document 1 (Machine m, line 1): ignored cluster.x-k8s.io/v1beta3 Machine');
    expect(r.stderr).toContain('no Machines or Clusters');
  });

  it('fails with the document index and JSON path of an invalid Machine, printing nothing', async () => {
    const r = await phase(['-f', '-', '--json'], badMachineManifest);
    expect(r.code).toBe(ExitCode.input);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(
      /^document 2 \(Machine default\/bad, line 5\): status\.bootstrapReady: expected .*boolean.*"yes"/m,
    );
    expect(r.stderr).toContain('1 error(s); no phases printed');
  });

  it('fails with document index and line on a YAML syntax error', async () => {
    const r = await phase(['-f', '-'], `${machine('ok', '{}')}---\nkind: [unclosed\n`);
    expect(r.code).toBe(ExitCode.input);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^document 2, line \d+, column \d+: /m);
  });

  it('fails on a document that is not a mapping', async () => {
    const r = await phase(['-f', '-'], `${machine('ok', '{}')}---\n- just\n- a list\n`);
    expect(r.code).toBe(ExitCode.input);
    expect(r.stderr).toContain('document 2 (line 9): not a Kubernetes object');
  });

  it('fails on apiVersion or kind that is not a string, rather than ignoring the document', async () => {
    const r = await phase(
      ['-f', '-'],
      `${machine('ok', '{}')}---\napiVersion: 5\nkind: Machine\nmetadata: {name: m}\n`,
    );
    expect(r.code).toBe(ExitCode.input);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('document 2 (Machine m, line 9): apiVersion: must be a string, not a number');
  });

  it('exits 1 when the file cannot be read', async () => {
    const r = await phase(['-f', '/nonexistent/capi-kit/manifest.yaml']);
    expect(r.code).toBe(ExitCode.input);
    expect(r.stderr).toContain('no such file');
  });

  it.each([[[]], [['-f', '-', 'extra']], [['-f', '-', '--yaml']]])(
    'exits 2 on a bad command line %j',
    async (args) => {
      const r = await phase(args);
      expect(r.code).toBe(ExitCode.usage);
      expect(r.stderr).toContain('capi-kit phase --help');
    },
  );

  it('has usage text and is listed in --help', async () => {
    const usage = await phase(['--help']);
    expect(usage.code).toBe(ExitCode.ok);
    expect(usage.stdout).toContain('Usage: capi-kit phase -f FILE|- [--json]');
    const c = captureIO();
    await main(['--help'], c.io);
    expect(c.stdout()).toMatch(/^ {2}phase +compute the phase of each Machine and Cluster/m);
  });
});
