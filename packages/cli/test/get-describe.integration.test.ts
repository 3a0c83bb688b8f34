import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type ControlPlane, startControlPlane, waitForAccess } from '@capi-kit/envtest';
import { noControlPlane, useControlPlane } from '@capi-kit/envtest/vitest';
import { CoreV1Api, CustomObjectsApi } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { capiCrdDirs } from '../../client/test/helpers/fixtures.js';
import { buildScenario, ids } from '../../client/test/helpers/scenario.js';
import type { CliIO } from '../src/io.js';
import { main } from '../src/main.js';
import { captureIO } from './helpers/capture-io.js';
import { CONTROL_BUT_NEWLINE, setLeaseHolder } from './helpers/hostile-lease.js';
import { RAW_IN_YAML } from './helpers/raw-in-yaml.js';
import { runCli } from './helpers/run-cli.js';
import { startSilentServer } from './helpers/silent-server.js';

// `capi-kit get` and `capi-kit describe` as a user runs them: the built binary, the shared
// control plane as the management cluster, a private one as the workload cluster.
const management = useControlPlane();
const scratch = mkdtempSync(join(tmpdir(), 'capi-kit-get-describe-'));

describe.skipIf(noControlPlane('private-local'))('capi-kit get and describe', () => {
  let workload: ControlPlane;
  let nodeNames: { joined: string; lonely: string };
  let ns: string;
  const cli = (args: readonly string[], env: NodeJS.ProcessEnv = {}) =>
    runCli(args, { env: { KUBECONFIG: management.kubeconfigPath, ...env } });

  beforeAll(async () => {
    workload = await startControlPlane({ log: () => {} });
    for (const dir of capiCrdDirs) await management.installCRDs(dir);
    ns = management.namespace;
    ({ nodeNames } = await buildScenario(management.kubeConfig, workload, ns));
  });

  afterAll(async () => {
    await workload?.stop();
  });

  it('get clusters: a table of both API versions, and -o json a v1 List of the objects as served', () => {
    const table = cli(['get', 'clusters', '-n', ns]);
    expect(table.code).toBe(0);
    const lines = table.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^NAME\s+APIVERSION\s+PHASE\s+MACHINES\s+AGE$/);
    expect(lines.slice(1).map((l) => l.split(/\s+/).slice(0, 4))).toEqual([
      ['legacy', 'cluster.k8s.io/v1alpha1', '<unknown>', '1/1'],
      ['prod', 'cluster.x-k8s.io/v1alpha2', 'pending', '0/3'],
    ]);

    const json = cli(['get', 'clusters', '-n', ns, '-o', 'json']);
    expect(json.code).toBe(0);
    const list = JSON.parse(json.stdout);
    expect(list).toMatchObject({ apiVersion: 'v1', kind: 'List' });
    expect(
      list.items.map(
        (i: { apiVersion: string; metadata: { name: string } }) => `${i.apiVersion} ${i.metadata.name}`,
      ),
    ).toEqual(['cluster.k8s.io/v1alpha1 legacy', 'cluster.x-k8s.io/v1alpha2 prod']);
    expect(list.items[1].metadata.uid).toMatch(/^[0-9a-f-]{36}$/);
    expect(list.items[0].spec.clusterNetwork.serviceDomain).toBe('cluster.local');
  });

  it('get machines, machinesets, machinedeployments: -A adds NAMESPACE, wide adds columns, yaml parses', () => {
    const wide = cli(['get', 'machines', '-A', '-o', 'wide']);
    expect(wide.code).toBe(0);
    expect(wide.stdout.split('\n')[0]).toMatch(
      /^NAMESPACE\s+NAME\s+APIVERSION\s+CLUSTER\s+PHASE\s+PROVIDERID\s+AGE\s+NODE\s+VERSION\s+OWNER$/,
    );
    const row = wide.stdout.split('\n').find((l) => l.startsWith(`${ns} `) && l.includes('prod-m-0'));
    expect(row?.split(/\s+/).slice(0, 6)).toEqual([
      ns,
      'prod-m-0',
      'cluster.x-k8s.io/v1alpha2',
      'prod',
      'provisioning',
      ids.joined,
    ]);
    expect(row).toContain('MachineSet/prod-ms');

    const sets = cli(['get', 'ms', '-n', ns]);
    expect(sets.stdout).toMatch(/^NAME\s+APIVERSION\s+CLUSTER\s+REPLICAS\s+READY\s+AVAILABLE\s+AGE\n/);
    expect(sets.stdout).toMatch(/legacy-ms\s+cluster\.k8s\.io\/v1alpha1\s+legacy\s+1\s+0\s+0/);
    expect(sets.stdout).toMatch(/prod-ms\s+cluster\.x-k8s\.io\/v1alpha2\s+prod\s+3\s+0\s+0/);

    const yaml = cli(['get', 'machinedeployments', '-n', ns, '-o', 'yaml']);
    expect(yaml.code).toBe(0);
    expect(parse(yaml.stdout).items.map((i: { metadata: { name: string } }) => i.metadata.name)).toEqual([
      'prod-md',
    ]);

    const empty = cli(['get', 'machines', '-n', 'no-such-namespace']);
    expect(empty).toMatchObject({ code: 0, stdout: '' });
    expect(empty.stderr).toBe('No resources found in no-such-namespace namespace.\n');
  });

  it('get machines for a user who may not list Clusters, and get clusters for one who may not list Machines', async () => {
    // (each needs the other kind only for one column: both exited 3 with the 403)
    const grant = async (user: string, resources: string[]) => {
      await management.grant(
        user,
        [{ apiGroups: ['cluster.x-k8s.io', 'cluster.k8s.io'], resources, verbs: ['get', 'list'] }],
        { namespace: ns },
      );
      for (const [group, resource] of [
        ['cluster.x-k8s.io', resources[0]],
        ['cluster.k8s.io', resources[0]],
      ] as const)
        expect(
          await waitForAccess(management.kubeConfig, user, { namespace: ns, group, resource, verb: 'list' }),
        ).toBe(true);
      const path = join(scratch, `${user}.kubeconfig`);
      writeFileSync(path, (await management.kubeConfigFor(user)).exportConfig());
      return path;
    };
    const run = async (argv: string[], kubeconfig: string) => {
      const c = captureIO('', { KUBECONFIG: kubeconfig });
      return { code: await main(argv, c.io), stdout: c.stdout(), stderr: c.stderr() };
    };

    const machineReader = await grant('machine-reader', ['machines']);
    const machines = await run(['get', 'machines', '-n', ns], machineReader);
    expect(machines.code).toBe(0);
    expect(machines.stdout.split('\n')[0]).toMatch(
      /^NAME\s+APIVERSION\s+CLUSTER\s+PHASE\s+PROVIDERID\s+AGE$/,
    );
    expect(machines.stdout).toMatch(/\nprod-m-0\s+cluster\.x-k8s\.io\/v1alpha2\s+prod\s+provisioning\s/);
    expect(machines.stderr).toMatch(
      /^capi-kit get: warning: .*forbidden.*; whether a Cluster is paused is unknown/i,
    );
    // -o json needs no Clusters at all
    expect((await run(['get', 'machines', '-n', ns, '-o', 'json'], machineReader)).stderr).toBe('');

    const clusterReader = await grant('cluster-reader', ['clusters']);
    const clusters = await run(['get', 'clusters', '-n', ns], clusterReader);
    expect(clusters.code).toBe(0);
    expect(
      clusters.stdout
        .split('\n')
        .slice(1, 3)
        .map((l) => l.split(/\s+/).slice(0, 4)),
    ).toEqual([
      ['legacy', 'cluster.k8s.io/v1alpha1', '<unknown>', '<unknown>'],
      ['prod', 'cluster.x-k8s.io/v1alpha2', 'pending', '<unknown>'],
    ]);
    expect(clusters.stderr).toMatch(/^capi-kit get: warning: .*forbidden.*; MACHINES is <unknown>\n$/i);
  });

  it('describe cluster --json: the contract object, joined across both clusters', () => {
    const described = cli(['describe', 'cluster', 'prod', '-n', ns, '--json']);
    expect(described.code).toBe(0);
    const out = JSON.parse(described.stdout);
    expect(Object.keys(out)).toEqual(['cluster', 'machines', 'nodesWithoutMachine', 'problems']);
    expect(out.cluster).toEqual({
      apiVersion: 'cluster.x-k8s.io/v1alpha2',
      kind: 'Cluster',
      name: 'prod',
      namespace: ns,
      phase: 'pending',
    });
    expect(out.machines[0]).toEqual({
      name: 'prod-m-0',
      namespace: ns,
      phase: 'provisioning',
      providerID: ids.joined,
      owner: { kind: 'MachineSet', name: 'prod-ms' },
      node: { name: nodeNames.joined, ready: true },
      maintenance: { holder: 'reboot-agent/ops-1', state: 'held' },
    });
    expect(out.nodesWithoutMachine).toEqual([nodeNames.lonely]);
    expect(out.problems).toHaveLength(4);
    for (const p of out.problems) expect(Object.keys(p)).toEqual(['object', 'message']);

    // The same through --workload-kubeconfig instead of the Secret.
    const given = cli([
      'describe',
      'cluster',
      'prod',
      '-n',
      ns,
      '--json',
      '--workload-kubeconfig',
      workload.kubeconfigPath,
    ]);
    expect(JSON.parse(given.stdout)).toEqual(out);
  });

  it('describe cluster: a plain tree when piped, control characters escaped', () => {
    const text = cli(['describe', 'cluster', 'prod', '-n', ns]);
    expect(text.code).toBe(0);
    expect(text.stdout).not.toContain('\u001b');
    const lines = text.stdout.split('\n');
    expect(lines[0]).toBe(`Cluster ${ns}/prod (cluster.x-k8s.io/v1alpha2)  phase pending`);
    expect(lines[1]).toBe('└─ MachineDeployment prod-md  replicas 3');
    expect(lines[2]).toBe('   └─ MachineSet prod-ms  replicas 3');
    expect(lines[3]).toBe(
      `      ├─ Machine prod-m-0  provisioning  ${ids.joined}  node ${nodeNames.joined} Ready  maintenance: held by reboot-agent/ops-1`,
    );
    expect(text.stdout).toContain(`Machine ${ns}/prod-m-2: failed: CreateError: quota \\x1b[31mexceeded`);
  });

  it("describe cluster: a maintenance lease's hostile holder identity is printed escaped", async () => {
    const at = { name: nodeNames.joined, namespace: 'kube-node-maintenance' };
    await setLeaseHolder(workload.kubeConfig, at, 'evil\n      ├─ Machine forged\u001b[2J\u009b31m');
    try {
      const text = cli(['describe', 'cluster', 'prod', '-n', ns]);
      expect(text.code).toBe(0);
      expect(text.stdout.split('\n')[3]).toBe(
        `      ├─ Machine prod-m-0  provisioning  ${ids.joined}  node ${nodeNames.joined} Ready  maintenance: held by evil\\x0a      ├─ Machine forged\\x1b[2J\\x9b31m`,
      );
      expect(text.stdout).not.toMatch(CONTROL_BUT_NEWLINE);
      expect(text.stdout.split('\n').filter((l) => l.startsWith('      ├─ Machine forged'))).toEqual([]);
    } finally {
      await setLeaseHolder(workload.kubeConfig, at, 'reboot-agent/ops-1');
    }
  });

  it('describe cluster: colour on a terminal only, still escaping what came from the cluster', async () => {
    const out: string[] = [];
    const io: CliIO = {
      stdout: (t) => out.push(t),
      stderr: () => {},
      readStdin: async () => '',
      env: { KUBECONFIG: management.kubeconfigPath },
      stdoutIsTTY: true,
    };
    expect(await main(['describe', 'cluster', 'prod', '-n', ns], io)).toBe(0);
    const text = out.join('');
    expect(text).toContain('\u001b[1mMachine\u001b[0m prod-m-0');
    expect(text).toContain('quota \\x1b[31mexceeded');
    expect(text).not.toContain('quota \u001b[31m');
  });

  it('get -o yaml: bidi, invisible and control characters from the cluster are escaped, the values as -o json', async () => {
    // Its own namespace, so the other tests' Cluster lists stay as they are.
    const hostileNs = await management.createNamespace('get-yaml-escapes');
    const note = `a\u202eb\u2066c\u200bd\ufeffe\u00a0f\u3000g\u2028h\u2029i\u009b31mj\u007fk\u001b[2Jl\u{e0041}m é 日本 😀`;
    const annotations = {
      'capi-kit.dev/note': note,
      'capi-kit.dev/long': `${'word '.repeat(15)}ab\u202ecd ${'more words '.repeat(8)}`,
      'capi-kit.dev/lines': `first\u202e line\nsecond line, long enough for a block scalar\n \n\u2067third\n`,
      'capi-kit.dev/visible': 'é 日本 😀',
    };
    await management.kubeConfig.makeApiClient(CustomObjectsApi).createNamespacedCustomObject({
      group: 'cluster.k8s.io',
      version: 'v1alpha1',
      namespace: hostileNs,
      plural: 'clusters',
      body: {
        apiVersion: 'cluster.k8s.io/v1alpha1',
        kind: 'Cluster',
        metadata: { name: 'hostile', annotations },
        spec: {
          clusterNetwork: {
            services: { cidrBlocks: ['10.96.0.0/12'] },
            pods: { cidrBlocks: ['192.168.0.0/16'] },
            serviceDomain: 'cluster.local',
          },
          providerSpec: { value: { 'ke\u202ey': { 'nested\u2066': ['\u202e', 'plain'] } } },
        },
      },
    });
    const run = async (output: string) => {
      const io = captureIO('', { KUBECONFIG: management.kubeconfigPath });
      expect(await main(['get', 'clusters', '-n', hostileNs, '-o', output], io.io)).toBe(0);
      return io.stdout();
    };
    const yaml = await run('yaml');
    expect(yaml).not.toMatch(RAW_IN_YAML);
    expect(yaml).toContain('"ke\\u202ey":');
    expect(yaml).toContain('capi-kit.dev/visible: é 日本 😀\n');
    const list = parse(yaml);
    expect(list).toEqual(JSON.parse(await run('json')));
    expect(list.items[0].metadata.annotations).toEqual(annotations);
    expect(list.items[0].spec.providerSpec.value).toEqual({
      'ke\u202ey': { 'nested\u2066': ['\u202e', 'plain'] },
    });
  });

  it('describe: an unknown cluster exits 1 with nothing on stdout; nodes unknown are a problem, not a failure', () => {
    const missing = cli(['describe', 'cluster', 'nope', '-n', ns]);
    expect(missing).toMatchObject({ code: 1, stdout: '' });
    expect(missing.stderr).toContain(`Cluster ${ns}/nope not found`);

    const legacy = cli(['describe', 'cluster', 'legacy', '-n', ns, '--json']);
    expect(legacy.code).toBe(0);
    expect(JSON.parse(legacy.stdout).problems).toEqual([
      {
        object: `Secret ${ns}/legacy-kubeconfig`,
        message: `nodes unknown: the workload kubeconfig Secret ${ns}/legacy-kubeconfig does not exist`,
      },
    ]);
  });

  it('describe: a workload cluster from the Secret that never answers is cut by the request deadline', async () => {
    // Its own namespace, so the other tests' Cluster lists stay as they are.
    const quietNs = 'describe-silent-workload';
    const silent = await startSilentServer();
    const core = management.kubeConfig.makeApiClient(CoreV1Api);
    const objects = management.kubeConfig.makeApiClient(CustomObjectsApi);
    try {
      await core.createNamespace({ body: { metadata: { name: quietNs } } });
      await objects.createNamespacedCustomObject({
        group: 'cluster.x-k8s.io',
        version: 'v1alpha2',
        namespace: quietNs,
        plural: 'clusters',
        body: {
          apiVersion: 'cluster.x-k8s.io/v1alpha2',
          kind: 'Cluster',
          metadata: { name: 'quiet' },
          spec: {},
        },
      });
      await core.createNamespacedSecret({
        namespace: quietNs,
        body: { metadata: { name: 'quiet-kubeconfig' }, stringData: { value: silent.kubeconfig } },
      });
      const out: string[] = [];
      const io: CliIO = {
        stdout: (t) => out.push(t),
        stderr: () => {},
        readStdin: async () => '',
        env: { KUBECONFIG: management.kubeconfigPath, CAPI_KIT_REQUEST_TIMEOUT_SECONDS: '1' },
      };
      const started = Date.now();
      // (before, the workload KubeConfig built from the Secret had no deadline: this hung)
      expect(await main(['describe', 'cluster', 'quiet', '-n', quietNs, '--json'], io)).toBe(0);
      // (the lease read's own default deadline is 20 s: the 1 s must reach it too)
      expect(Date.now() - started).toBeLessThan(10_000);
      // (no Machines, so the lease list is not reported; its deadline is the same 1 s)
      expect(JSON.parse(out.join('')).problems).toEqual([
        {
          object: `Cluster ${quietNs}/quiet`,
          message: expect.stringMatching(/^nodes unknown: .*aborted due to timeout/),
        },
      ]);
    } finally {
      await silent.close();
      await core.deleteNamespace({ name: quietNs });
    }
  }, 60_000);

  it('unusable kubeconfigs exit 3 with nothing on stdout; bad command lines exit 2', () => {
    const garbage = join(scratch, 'garbage.yaml');
    writeFileSync(garbage, 'clusters: [: not yaml');
    for (const result of [
      cli(['get', 'clusters'], { KUBECONFIG: garbage }),
      cli(['get', 'clusters'], { KUBECONFIG: join(scratch, 'missing.yaml') }),
      cli(['describe', 'cluster', 'prod', '-n', ns, '--workload-kubeconfig', join(scratch, 'missing.yaml')]),
    ]) {
      expect(result).toMatchObject({ code: 3, stdout: '' });
      expect(result.stderr).not.toBe('');
    }
    expect(cli(['get', 'widgets']).code).toBe(2);
    expect(cli(['get', 'machines', '-A', '-n', ns]).code).toBe(2);
    expect(cli(['describe', 'machine', 'x']).code).toBe(2);
    expect(cli(['describe', 'cluster']).code).toBe(2);
  });
});
