import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { noControlPlane, useControlPlane } from '@capi-kit/envtest/vitest';
import { type KubernetesObject, KubernetesObjectApi } from '@kubernetes/client-node';
import { beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { crdDirs, type SourceCluster, seedSourceCluster } from '../../migrate/test/support/source-cluster.js';
import { main } from '../src/main.js';
import { captureIO } from './helpers/capture-io.js';
import { RAW_IN_YAML } from './helpers/raw-in-yaml.js';
import { runCli } from './helpers/run-cli.js';

const env = useControlPlane();

/** Merges `object` into the object of its kind and name on the control plane. */
async function mergePatch(object: KubernetesObject & Record<string, unknown>): Promise<void> {
  await KubernetesObjectApi.makeApiClient(env.kubeConfig).patch(
    object,
    undefined,
    undefined,
    undefined,
    undefined,
    'application/merge-patch+json',
  );
}

async function count(apiVersion: string, kind: string, namespace: string): Promise<number> {
  const client = KubernetesObjectApi.makeApiClient(env.kubeConfig);
  return (await client.list(apiVersion, kind, namespace)).items.length;
}

describe('capi-kit migrate: usage and kubeconfig errors come before any request', () => {
  const scratch = mkdtempSync(join(tmpdir(), 'capi-kit-migrate-cli-'));
  it.each([
    [[], 'missing action'],
    [['move'], "unknown action 'move'"],
    [['plan', '-n', 'a', '-A'], '-n and -A exclude each other'],
    [['verify', '--dry-run'], '--dry-run goes with apply'],
    [['plan', '-o', 'xml'], '-o must be one of text, json, yaml'],
    [
      ['plan', '--to', 'cluster.k8s.io/v1alpha1'],
      '--to must be a cluster.x-k8s.io version from v1alpha2 to v1beta2',
    ],
  ])('migrate %j is a usage error (exit 2)', (args, message) => {
    const result = runCli(['migrate', ...args], { env: { KUBECONFIG: join(scratch, 'missing') } });
    expect(result).toMatchObject({ code: 2, stdout: '' });
    expect(result.stderr).toContain(message);
  });

  it('migrate prune without --confirm is refused (exit 1) before the kubeconfig is read', () => {
    // (the contract: prune refuses without --confirm; a refusal is exit 1, not a usage error)
    const result = runCli(['migrate', 'prune'], { env: { KUBECONFIG: join(scratch, 'missing') } });
    expect(result).toMatchObject({ code: 1, stdout: '' });
    expect(result.stderr).toContain('run prune --confirm');
    expect(result.stderr).not.toContain('--help');
  });

  it.each([
    ['a missing file', () => join(scratch, 'missing'), 'none of the KUBECONFIG entries is a readable file'],
    // (an entry that exists but is no file is an error, as in kubectl)
    ['a directory', () => scratch, 'not a readable file'],
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

    // A v0.1 controller still running: prune warns (it has cleared finalizers, so it is safe).
    const system = await env.createNamespace('cluster-api-system');
    await KubernetesObjectApi.makeApiClient(env.kubeConfig).create({
      apiVersion: 'apps/v1',
      kind: 'StatefulSet',
      metadata: { name: 'cluster-api-controller-manager', namespace: system },
      spec: {
        replicas: 1,
        serviceName: 'manager',
        selector: { matchLabels: { app: 'manager' } },
        template: {
          metadata: { labels: { app: 'manager' } },
          spec: {
            containers: [
              {
                name: 'manager',
                image: 'us.gcr.io/k8s-artifacts-prod/cluster-api/cluster-api-controller:v0.1.10',
              },
            ],
          },
        },
      },
    } as KubernetesObject);
    const pruned = migrate('prune', '--confirm');
    expect(pruned.code, pruned.stderr).toBe(0);
    expect(pruned.stderr).toContain(
      `warning: StatefulSet ${system}/cluster-api-controller-manager has 1 replica(s): stop the v0.1 controllers`,
    );
    expect(pruned.stdout).toContain(`pruned ${source.objects} v1alpha1 object(s)`);
    expect(await count('cluster.k8s.io/v1alpha1', 'Machine', env.namespace)).toBe(0);
    expect(await count('cluster.x-k8s.io/v1alpha2', 'Machine', env.namespace)).toBe(
      source.workers.length + 1,
    );
    expect(await count('v1', 'Secret', env.namespace)).toBeGreaterThanOrEqual(1);
  });

  it.skipIf(noControlPlane('client-certificates'))(
    'a user who may only read gets exit 3, the 403 named with the verb and resource, and nothing written',
    async () => {
      const other = await env.createNamespace('migrate-cli-rbac');
      await seedSourceCluster(env.kubeConfig, other, { provider: 'aws', name: 'ro', workers: 1 });
      const user = `reader-${other}`;
      await env.grant(user, [{ apiGroups: ['*'], resources: ['*'], verbs: ['get', 'list'] }]);
      const kubeconfig = join(mkdtempSync(join(tmpdir(), 'capi-kit-migrate-rbac-')), 'kubeconfig');
      writeFileSync(kubeconfig, (await env.kubeConfigFor(user)).exportConfig());
      // RBAC reaches the authorizer's cache shortly after the binding: poll until it reads.
      let result = runCli(['migrate', 'apply', '-n', other], { env: { KUBECONFIG: kubeconfig } });
      for (let i = 0; i < 30 && !result.stderr.includes('create machines.cluster.x-k8s.io'); i++) {
        await new Promise((resolve) => setTimeout(resolve, 300));
        result = runCli(['migrate', 'apply', '-n', other], { env: { KUBECONFIG: kubeconfig } });
      }
      expect(result).toMatchObject({ code: 3, stdout: '' });
      expect(result.stderr).toContain('create machines.cluster.x-k8s.io');
      expect(result.stderr).toContain('403');
      expect(await count('cluster.x-k8s.io/v1alpha2', 'Cluster', other)).toBe(0);
    },
  );

  it("plan -o json|yaml shows a key-pair Secret's values by size only, and no key in the stash", async () => {
    const namespace = await env.createNamespace('migrate-keys');
    const keys = await seedSourceCluster(env.kubeConfig, namespace, {
      provider: 'aws',
      name: 'keys',
      workers: 1,
    });
    const key = Buffer.from('PRIVATE-KEY-MATERIAL').toString('base64');
    await mergePatch({
      apiVersion: 'cluster.k8s.io/v1alpha1',
      kind: 'Cluster',
      metadata: { name: keys.name, namespace },
      spec: { providerSpec: { value: { caKeyPair: { cert: Buffer.from('C').toString('base64'), key } } } },
    });
    for (const format of ['json', 'yaml']) {
      const plan = runCli(['migrate', 'plan', '-n', namespace, '-o', format], {
        env: { KUBECONFIG: env.kubeconfigPath },
      });
      expect(plan.code, plan.stderr).toBe(0);
      // Nowhere: the Cluster's conversion stash names the Secret instead of keeping the key
      // (key-pairs.ts), and the Secret's value is shown by size.
      expect(plan.stdout).not.toContain(key);
      if (format === 'json') {
        const { objects } = JSON.parse(plan.stdout);
        const cluster = objects.find((o: { object: { kind: string } }) => o.object.kind === 'Cluster');
        const stash = JSON.parse(cluster.object.metadata.annotations['conversion.capi-kit.dev/data']);
        expect(stash.patch).toContainEqual({
          pair: ['spec', 'providerSpec', 'value', 'caKeyPair'],
          secret: 'keys-ca',
        });
        const secret = objects.find((o: { name: string }) => o.name === 'keys-ca');
        expect(secret.object.data).toEqual({
          'tls.crt': '(4 characters, not shown)',
          'tls.key': `(${key.length} characters, not shown)`,
        });
      }
    }
  });

  it('plan -o yaml: bidi, invisible and control characters from the cluster are escaped, the values as -o json', async () => {
    const namespace = await env.createNamespace('migrate-yaml');
    const seeded = await seedSourceCluster(env.kubeConfig, namespace, {
      provider: 'aws',
      name: 'hostile',
      workers: 1,
    });
    const annotations = {
      'capi-kit.dev/note': `a\u202eb\u2066c\u200bd\ufeffe\u00a0f\u3000g\u2028h\u009b31mi\u{e0041}j é 日本 😀`,
      'capi-kit.dev/long': `${'word '.repeat(15)}ab\u202ecd ${'more words '.repeat(8)}`,
      'capi-kit.dev/lines': `first\u202e line\nsecond line, long enough for a block scalar\n \n\u2067third\n`,
    };
    await mergePatch({
      apiVersion: 'cluster.k8s.io/v1alpha1',
      kind: 'Cluster',
      metadata: { name: seeded.name, namespace, annotations },
      spec: { providerSpec: { value: { 'ke\u202ey': { 'nested\u2066': ['\u202e', 'plain'] } } } },
    });
    const plan = async (format: string) => {
      const io = captureIO('', { KUBECONFIG: env.kubeconfigPath });
      expect(await main(['migrate', 'plan', '-n', namespace, '-o', format], io.io), io.stderr()).toBe(0);
      return io.stdout();
    };
    const yaml = await plan('yaml');
    expect(yaml).not.toMatch(RAW_IN_YAML);
    expect(yaml).toContain('"a\\u202eb\\u2066c');
    const data = parse(yaml);
    expect(data).toEqual(JSON.parse(await plan('json')));
    const cluster = data.objects.find(
      (o: { object: { kind: string } }) => o.object.kind === 'Cluster',
    ).object;
    expect(cluster.metadata.annotations).toMatchObject(annotations);
  });

  it('verify exits 1 listing what is missing, with nothing on stdout', async () => {
    const other = await env.createNamespace('migrate-cli');
    await seedSourceCluster(env.kubeConfig, other, { provider: 'vsphere', name: 'lab', workers: 1 });
    const result = runCli(['migrate', 'verify', '-n', other], { env: { KUBECONFIG: env.kubeconfigPath } });
    expect(result).toMatchObject({ code: 1, stdout: '' });
    expect(result.stderr).toContain(`Machine ${other}/lab-controlplane-0: missing`);
  });
});
