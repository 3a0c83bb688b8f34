import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { noControlPlane, useControlPlane } from '@capi-kit/envtest/vitest';
import { KubernetesObjectApi } from '@kubernetes/client-node';
import { beforeAll, describe, expect, it } from 'vitest';
import { crdDirs, type SourceCluster, seedSourceCluster } from '../../migrate/test/support/source-cluster.js';
import { runCli } from './helpers/run-cli.js';

const env = useControlPlane();

async function count(apiVersion: string, kind: string, namespace: string): Promise<number> {
  const client = KubernetesObjectApi.makeApiClient(env.kubeConfig);
  return (await client.list(apiVersion, kind, namespace)).items.length;
}

describe('capi-kit migrate: usage and kubeconfig errors come before any request', () => {
  const scratch = mkdtempSync(join(tmpdir(), 'capi-kit-migrate-cli-'));
  it.each([
    [[], 'missing action'],
    [['move'], "unknown action 'move'"],
    [['prune'], 'prune --confirm'],
    [['plan', '-n', 'a', '-A'], '-n and -A exclude each other'],
    [['verify', '--dry-run'], '--dry-run goes with apply'],
    [['plan', '-o', 'xml'], '-o must be one of text, json, yaml'],
  ])('migrate %j is a usage error (exit 2)', (args, message) => {
    const result = runCli(['migrate', ...args], { env: { KUBECONFIG: join(scratch, 'missing') } });
    expect(result).toMatchObject({ code: 2, stdout: '' });
    expect(result.stderr).toContain(message);
  });

  it.each([
    ['a missing file', () => join(scratch, 'missing'), 'none of the KUBECONFIG entries is a readable file'],
    ['a directory', () => scratch, 'none of the KUBECONFIG entries is a readable file'],
    ['an empty file', () => file('empty', ''), 'is empty'],
    [
      'without a current context',
      () => file('no-context', 'apiVersion: v1\nkind: Config\nclusters: []\n'),
      'no current cluster',
    ],
    ['garbage', () => file('garbage', '{{{ not yaml'), 'cannot load kubeconfig'],
  ])('a kubeconfig that is %s: exit 3 with the reason, no stack trace', (_name, path, message) => {
    const result = runCli(['migrate', 'plan'], { env: { KUBECONFIG: path() } });
    expect(result).toMatchObject({ code: 3, stdout: '' });
    expect(result.stderr).toContain(message);
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });

  function file(name: string, text: string): string {
    const path = join(scratch, name);
    writeFileSync(path, text);
    return path;
  }
});

describe.skipIf(noControlPlane())('capi-kit migrate against a live management cluster', () => {
  let source: SourceCluster;
  beforeAll(async () => {
    for (const dir of crdDirs) await env.installCRDs(dir);
    source = await seedSourceCluster(env.kubeConfig, env.namespace, { provider: 'aws', name: 'cli' });
  });
  const migrate = (...args: string[]) =>
    runCli(['migrate', ...args, '-n', env.namespace], { env: { KUBECONFIG: env.kubeconfigPath } });

  it('plan, apply --dry-run, apply, apply again, verify, prune --confirm', async () => {
    const plan = migrate('plan', '-o', 'json');
    expect(plan.code, plan.stderr).toBe(0);
    const planned = JSON.parse(plan.stdout) as {
      objects: { kind: string; name: string; generated: boolean }[];
      secrets: unknown[];
    };
    expect(planned.objects.filter((o) => !o.generated).map((o) => o.kind)).toEqual([
      'Cluster',
      'MachineDeployment',
      'MachineSet',
      'Machine',
      'Machine',
      'Machine',
    ]);
    expect(planned.secrets).toEqual([{ namespace: env.namespace, name: 'cli-kubeconfig', cluster: 'cli' }]);
    expect(migrate('plan').stdout).toContain(
      `1. Cluster ${env.namespace}/cli (from Cluster ${env.namespace}/cli)`,
    );

    const dryRun = migrate('apply', '--dry-run');
    expect(dryRun.code, dryRun.stderr).toBe(0);
    expect(dryRun.stdout).toContain(`dry run: would create ${planned.objects.length}`);
    expect(await count('cluster.x-k8s.io/v1alpha2', 'Machine', env.namespace)).toBe(0);

    const applied = migrate('apply', '-o', 'json');
    expect(applied.code, applied.stderr).toBe(0);
    expect(JSON.parse(applied.stdout)).toMatchObject({
      dryRun: false,
      reownedSecrets: [`Secret ${env.namespace}/cli-kubeconfig`],
    });
    expect(await count('cluster.x-k8s.io/v1alpha2', 'Machine', env.namespace)).toBe(
      source.workers.length + 1,
    );

    const again = migrate('apply');
    expect(again).toMatchObject({ code: 0, stdout: expect.stringContaining('created 0, already present') });

    const verified = migrate('verify');
    expect(verified).toMatchObject({ code: 0, stdout: expect.stringContaining('no differences') });

    const pruned = migrate('prune', '--confirm');
    expect(pruned.code, pruned.stderr).toBe(0);
    expect(pruned.stdout).toContain(`pruned ${source.objects} v1alpha1 object(s)`);
    expect(await count('cluster.k8s.io/v1alpha1', 'Machine', env.namespace)).toBe(0);
    expect(await count('cluster.x-k8s.io/v1alpha2', 'Machine', env.namespace)).toBe(
      source.workers.length + 1,
    );
    expect(await count('v1', 'Secret', env.namespace)).toBeGreaterThanOrEqual(1);
  });

  it('verify exits 1 listing what is missing, with nothing on stdout', async () => {
    const other = await env.createNamespace('migrate-cli');
    await seedSourceCluster(env.kubeConfig, other, { provider: 'vsphere', name: 'lab', workers: 1 });
    const result = runCli(['migrate', 'verify', '-n', other], { env: { KUBECONFIG: env.kubeconfigPath } });
    expect(result).toMatchObject({ code: 1, stdout: '' });
    expect(result.stderr).toContain(`Machine ${other}/lab-controlplane-0: missing`);
  });
});
