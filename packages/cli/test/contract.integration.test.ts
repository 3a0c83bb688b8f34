// The cluster items of the CLI contract (/work/shared/ARCHITECTURE.md): get, describe,
// autoscaler, lease and migrate through the built binary, and the library names that need a
// live cluster (createNodeGroupProvider's provider and groups, startControlPlane's handle)
// through the BUILT packages. One seeded scenario for the whole file: the shared control
// plane is the management cluster, a private one the workload cluster.
import { spawn, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { type ControlPlane, startControlPlane } from '@capi-kit/envtest';
import { noControlPlane, useControlPlane } from '@capi-kit/envtest/vitest';
import { CustomObjectsApi, PatchStrategy, setHeaderOptions } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { buildScenario, type ids } from '../../client/test/helpers/scenario.js';
import { crdDirs, seedSourceCluster } from '../../migrate/test/support/source-cluster.js';
import { cliBin, runCli } from './helpers/run-cli.js';

const management = useControlPlane();

// This file's own instances: its autoscaler reads the Machines of every namespace of the
// shared control plane, where other files build the scenario with `ids`.
const contractIds: typeof ids = {
  joined: 'aws:///us-east-1a/i-0c0ffee0c0ffee001',
  joinedRespelled: 'aws:////i-0c0ffee0c0ffee001',
  lonelyMachine: 'aws:///us-east-1a/i-0c0ffee0c0ffee002',
  lonelyNode: 'aws:///us-east-1a/i-0c0ffee0c0ffee003',
};

describe.skipIf(noControlPlane('private-local'))('contract: the cluster commands and names', () => {
  let workload: ControlPlane;
  let ns: string;
  let nodeNames: { joined: string; lonely: string };
  let migrateNs: string;
  const cli = (args: readonly string[], kubeconfig = management.kubeconfigPath) =>
    runCli(args, { env: { KUBECONFIG: kubeconfig } });

  beforeAll(async () => {
    workload = await startControlPlane({ log: () => {} });
    // v1alpha1, v1alpha2 and the v1alpha2 provider CRDs (not the later versions: see the brief).
    for (const dir of crdDirs) await management.installCRDs(dir);
    ns = management.namespace;
    ({ nodeNames } = await buildScenario(management.kubeConfig, workload, ns, contractIds));
    // A v0.1 cluster migrate can move (the scenario's legacy objects have empty providerSpecs).
    migrateNs = await management.createNamespace('contract-migrate');
    await seedSourceCluster(management.kubeConfig, migrateNs, { provider: 'aws', name: 'old', workers: 1 });
    // prod-md becomes an autoscaler node group (1..5).
    await management.kubeConfig.makeApiClient(CustomObjectsApi).patchNamespacedCustomObject(
      {
        group: 'cluster.x-k8s.io',
        version: 'v1alpha2',
        namespace: ns,
        plural: 'machinedeployments',
        name: 'prod-md',
        body: {
          metadata: {
            annotations: {
              'cluster.x-k8s.io/cluster-api-autoscaler-node-group-min-size': '1',
              'cluster.x-k8s.io/cluster-api-autoscaler-node-group-max-size': '5',
            },
          },
        },
      },
      setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
    );
  });

  afterAll(async () => {
    await workload?.stop();
  });

  it('startControlPlane() → kubeConfig, kubeconfigPath, installCRDs, stop', () => {
    expect(typeof workload.kubeConfig.makeApiClient).toBe('function');
    expect(workload.kubeconfigPath).toBeTypeOf('string');
    expect(workload.installCRDs).toBeTypeOf('function');
    expect(workload.stop).toBeTypeOf('function');
  });

  it.each(['clusters', 'machines', 'machinesets', 'machinedeployments'])(
    'get %s: a table (-n, -A, -o wide) and -o json|yaml a v1 List of the objects as served',
    (kind) => {
      const table = cli(['get', kind, '-n', ns]);
      expect(table.code).toBe(0);
      expect(table.stdout).toMatch(/^NAME\s/);
      expect(table.stdout).toContain('prod');
      const all = cli(['get', kind, '-A']);
      expect(all.code).toBe(0);
      expect(all.stdout).toMatch(/^NAMESPACE\s+NAME\s/);
      expect(all.stdout).toContain(`${ns} `);
      const wide = cli(['get', kind, '-n', ns, '-o', 'wide']);
      expect(wide.code).toBe(0);
      const columns = (t: string) => t.split('\n')[0]?.trim().split(/\s+/).length ?? 0;
      expect(columns(wide.stdout)).toBeGreaterThan(columns(table.stdout));
      const json = JSON.parse(cli(['get', kind, '-n', ns, '-o', 'json']).stdout);
      const yaml = parse(cli(['get', kind, '-n', ns, '-o', 'yaml']).stdout);
      for (const list of [json, yaml]) {
        expect(list).toMatchObject({ apiVersion: 'v1', kind: 'List' });
        expect(list.items.length).toBeGreaterThan(0);
        for (const item of list.items) expect(item.metadata.uid).toMatch(/^[0-9a-f-]{36}$/);
      }
      expect(yaml).toEqual(json);
    },
  );

  it('get -o json lists both API versions as served', () => {
    const list = JSON.parse(cli(['get', 'clusters', '-n', ns, '-o', 'json']).stdout);
    expect(list.items.map((i: { apiVersion: string }) => i.apiVersion).sort()).toEqual([
      'cluster.k8s.io/v1alpha1',
      'cluster.x-k8s.io/v1alpha2',
    ]);
  });

  it('describe cluster --json: exactly the contract shape, the same through --workload-kubeconfig', () => {
    const described = cli(['describe', 'cluster', 'prod', '-n', ns, '--json']);
    expect(described.code).toBe(0);
    const out = JSON.parse(described.stdout);
    expect(Object.keys(out)).toEqual(['cluster', 'machines', 'nodesWithoutMachine', 'problems']);
    expect(Object.keys(out.cluster).sort()).toEqual(['apiVersion', 'kind', 'name', 'namespace', 'phase']);
    expect(out.machines.length).toBe(3);
    for (const m of out.machines) {
      expect(Object.keys(m).sort()).toEqual([
        'maintenance',
        'name',
        'namespace',
        'node',
        'owner',
        'phase',
        'providerID',
      ]);
      if (m.owner !== null) expect(Object.keys(m.owner).sort()).toEqual(['kind', 'name']);
      if (m.node !== null) expect(Object.keys(m.node).sort()).toEqual(['name', 'ready']);
      if (m.maintenance !== null) expect(Object.keys(m.maintenance).sort()).toEqual(['holder', 'state']);
    }
    const joined = out.machines.find((m: { providerID: string }) => m.providerID === contractIds.joined);
    expect(joined).toMatchObject({
      owner: { kind: 'MachineSet', name: 'prod-ms' },
      node: { name: nodeNames.joined, ready: true },
      maintenance: { holder: 'reboot-agent/ops-1', state: 'held' },
    });
    expect(out.nodesWithoutMachine).toEqual([nodeNames.lonely]);
    expect(out.problems.length).toBeGreaterThan(0);
    for (const p of out.problems) expect(Object.keys(p)).toEqual(['object', 'message']);

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
    expect(given.code).toBe(0);
    expect(JSON.parse(given.stdout)).toEqual(out);
  });

  it('describe cluster: a tree with control characters escaped; unknown cluster exit 1, nothing on stdout', () => {
    const tree = cli(['describe', 'cluster', 'prod', '-n', ns]);
    expect(tree.code).toBe(0);
    expect(tree.stdout).toContain('prod-m-2');
    // prod-m-2's errorMessage holds an ESC from the cluster.
    expect(tree.stdout).not.toContain('\u001b');
    expect(cli(['describe', 'cluster', 'nope', '-n', ns])).toMatchObject({ code: 1, stdout: '' });
  });

  const autoscaler = (args: string[]) =>
    cli([
      'autoscaler',
      ...args,
      '--workload-kubeconfig',
      workload.kubeconfigPath,
      '--auto-discovery',
      `clusterapi:namespace=${ns}`,
    ]);

  it('autoscaler groups --json and node-group NODE --json (--workload-kubeconfig)', () => {
    const groups = autoscaler(['groups', '--json']);
    expect(groups.code, groups.stderr).toBe(0);
    const lines = groups.stdout
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ min: 1, max: 5, target: 3 });
    expect(JSON.stringify(lines[0])).toContain('prod-md');
    expect(autoscaler(['groups']).stdout).toContain('prod-md');

    const group = autoscaler(['node-group', nodeNames.joined, '--json']);
    expect(group.code, group.stderr).toBe(0);
    expect(JSON.stringify(JSON.parse(group.stdout))).toContain('prod-md');
  });

  it('lease status|acquire|renew|release NODE --holder ID [--duration S] [-n NS] --json', () => {
    const lease = (...args: string[]) =>
      cli(['lease', ...args, '-n', 'contract-leases', '--json'], workload.kubeconfigPath);
    const node = `contract-${ns}`;
    expect(lease('acquire', node, '--holder', 'alice', '--duration', '30', '--ensure-namespace').code).toBe(
      0,
    );
    const status = lease('status', node);
    expect(status.code).toBe(0);
    expect(JSON.parse(status.stdout)).toMatchObject({ node, holder: 'alice', leaseDurationSeconds: 30 });
    expect(lease('acquire', node, '--holder', 'bob').code).toBe(1);
    expect(lease('renew', node, '--holder', 'alice').code).toBe(0);
    expect(lease('renew', node, '--holder', 'bob').code).toBe(1);
    expect(lease('release', node, '--holder', 'bob').code).toBe(1);
    expect(lease('release', node, '--holder', 'alice').code).toBe(0);
  });

  it('lease hold: holds until SIGTERM, then releases (exit 0)', async () => {
    const node = `contract-hold-${ns}`;
    const child = spawn(
      process.execPath,
      [
        cliBin,
        'lease',
        'hold',
        node,
        '--holder',
        'carol',
        '-n',
        'contract-leases',
        '--ensure-namespace',
        '--json',
      ],
      { env: { ...process.env, KUBECONFIG: workload.kubeconfigPath } },
    );
    let stdout = '';
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    await new Promise<void>((resolve, reject) => {
      child.stdout.on('data', (chunk: Buffer) => {
        stdout += chunk.toString();
        if (stdout.includes('\n')) resolve();
      });
      child.on('exit', () => reject(new Error(`hold exited before holding: ${stdout}`)));
    });
    expect(JSON.parse(stdout.split('\n')[0] ?? '')).toMatchObject({ holding: node, holder: 'carol' });
    const held = cli(['lease', 'status', node, '-n', 'contract-leases', '--json'], workload.kubeconfigPath);
    expect(JSON.parse(held.stdout)).toMatchObject({ holder: 'carol' });
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(stdout).toContain('"released"');
  });

  it('migrate plan|apply|verify|prune -n NS [-o json] [--dry-run] [--confirm]; prune refuses without --confirm', () => {
    const migrate = (...args: string[]) => cli(['migrate', ...args, '-n', migrateNs]);
    const plan = migrate('plan', '-o', 'json');
    expect(plan.code, plan.stderr).toBe(0);
    expect(JSON.stringify(JSON.parse(plan.stdout))).toContain('"old"');
    const dryRun = migrate('apply', '--dry-run');
    expect(dryRun.code, dryRun.stderr).toBe(0);
    // Before apply, verify fails (exit 1) and prune --confirm, which runs verify first, refuses.
    expect(migrate('verify')).toMatchObject({ code: 1, stdout: '' });
    expect(migrate('prune', '--confirm')).toMatchObject({ code: 1, stdout: '' });
    // Without --confirm prune refuses whatever the state (exit 1: a refusal).
    expect(migrate('prune')).toMatchObject({ code: 1, stdout: '' });
    const applied = migrate('apply');
    expect(applied.code, applied.stderr).toBe(0);
    const verify = migrate('verify', '-o', 'json');
    expect(verify.code, verify.stderr).toBe(0);
    const pruned = migrate('prune', '--confirm');
    expect(pruned.code, pruned.stderr).toBe(0);
    const left = JSON.parse(cli(['get', 'clusters', '-n', migrateNs, '-o', 'json']).stdout);
    expect(left.items.map((i: { apiVersion: string }) => i.apiVersion)).toEqual([
      'cluster.x-k8s.io/v1alpha2',
    ]);
  });

  it('createNodeGroupProvider from the built @capi-kit/autoscaler: nodeGroups(), nodeGroupForNode(), stop(); groups with the contract members', () => {
    const script = `
      import { KubeConfig } from '@kubernetes/client-node';
      import { createNodeGroupProvider } from '@capi-kit/autoscaler';
      const load = (p) => { const k = new KubeConfig(); k.loadFromFile(p); return k; };
      const provider = await createNodeGroupProvider({
        management: load(process.env.MANAGEMENT), workload: load(process.env.WORKLOAD),
        autoDiscovery: ['clusterapi:namespace=' + process.env.NS],
      });
      const groups = provider.nodeGroups();
      const g = groups[0];
      const forNode = provider.nodeGroupForNode(process.env.NODE);
      const kinds = Object.fromEntries(['targetSize', 'increaseSize', 'decreaseTargetSize', 'deleteNodes', 'nodes']
        .map((m) => [m, typeof g[m]]));
      const out = {
        resolved: import.meta.resolve('@capi-kit/autoscaler'),
        provider: { nodeGroups: typeof provider.nodeGroups, nodeGroupForNode: typeof provider.nodeGroupForNode, stop: typeof provider.stop },
        groups: groups.length, id: g.id, minSize: g.minSize, maxSize: g.maxSize, kinds,
        targetSize: await g.targetSize(), nodes: (await g.nodes()).length, forNode: forNode?.id ?? null,
      };
      await provider.stop();
      console.log(JSON.stringify(out));
    `;
    const result = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
      cwd: fileURLToPath(new URL('..', import.meta.url)),
      encoding: 'utf8',
      timeout: 120_000,
      env: {
        ...process.env,
        NODE_OPTIONS: '',
        MANAGEMENT: management.kubeconfigPath,
        WORKLOAD: workload.kubeconfigPath,
        NS: ns,
        NODE: nodeNames.joined,
      },
    });
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    const out = JSON.parse(result.stdout);
    expect(out.resolved).toMatch(/\/dist\/index\.js$/);
    expect(out.provider).toEqual({ nodeGroups: 'function', nodeGroupForNode: 'function', stop: 'function' });
    expect(out).toMatchObject({ groups: 1, minSize: 1, maxSize: 5, targetSize: 3, nodes: 3 });
    expect(out.id).toContain('prod-md');
    expect(out.forNode).toBe(out.id);
    expect(out.kinds).toEqual({
      targetSize: 'function',
      increaseSize: 'function',
      decreaseTargetSize: 'function',
      deleteNodes: 'function',
      nodes: 'function',
    });
  });
});
