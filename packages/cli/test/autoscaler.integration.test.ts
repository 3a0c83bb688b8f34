// `capi-kit autoscaler groups|node-group` against real API servers: the run's shared control
// plane is the management cluster, a private one the workload cluster with the Nodes.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type ControlPlane, startControlPlane } from '@capi-kit/envtest';
import { noControlPlane, useControlPlane } from '@capi-kit/envtest/vitest';
import { NodeLeaseClient } from '@capi-kit/lease';
import { CoreV1Api, CustomObjectsApi } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runMain } from './helpers/capture-io.js';
import { CONTROL_BUT_NEWLINE, setLeaseHolder } from './helpers/hostile-lease.js';

const crds = fileURLToPath(new URL('../../../testdata/crds/v1alpha2', import.meta.url));
const management = useControlPlane();
const scratch = mkdtempSync(join(tmpdir(), 'capi-kit-autoscaler-cli-'));
const group = 'cluster.x-k8s.io';
const version = 'v1alpha2';
const leaseNamespace = 'cli-autoscaler-leases';

describe.skipIf(noControlPlane('private-local'))('capi-kit autoscaler', () => {
  let workload: ControlPlane;
  let workloadKubeconfig: string;
  const md = 'pool-a';
  const ids = [0, 1, 2].map((i) => `aws:///eu-west-1b/i-0abcdef0123456${i}8a`);
  const nodes = [0, 1, 2].map((i) => `pool-a-node-${i}`);

  beforeAll(async () => {
    await management.installCRDs(crds);
    workload = await startControlPlane({ backend: 'local', log: () => {} });
    workloadKubeconfig = workload.kubeconfigPath;
    const api = management.kubeConfig.makeApiClient(CustomObjectsApi);
    const namespace = management.namespace;
    const create = (plural: string, kind: string, body: Record<string, unknown>) =>
      api.createNamespacedCustomObject({
        group,
        version,
        namespace,
        plural,
        body: { apiVersion: `${group}/${version}`, kind, ...body },
      });
    const template = {
      metadata: { labels: { pool: md } },
      spec: {
        bootstrap: { data: 'eA==' },
        infrastructureRef: { apiVersion: 'infrastructure.example/v1', kind: 'TestMachine', name: 'x' },
      },
    };
    const deployment = await create('machinedeployments', 'MachineDeployment', {
      metadata: {
        name: md,
        labels: { 'cluster.x-k8s.io/cluster-name': 'east' },
        annotations: {
          'cluster.x-k8s.io/cluster-api-autoscaler-node-group-min-size': '1',
          'cluster.x-k8s.io/cluster-api-autoscaler-node-group-max-size': '6',
        },
      },
      spec: { replicas: 3, selector: { matchLabels: { pool: md } }, template },
    });
    const ref = (o: { kind: string; metadata: { name: string; uid: string } }) => ({
      apiVersion: `${group}/${version}`,
      kind: o.kind,
      name: o.metadata.name,
      uid: o.metadata.uid,
    });
    const set = await create('machinesets', 'MachineSet', {
      metadata: { name: `${md}-x`, ownerReferences: [ref(deployment)] },
      spec: { replicas: 3, selector: { matchLabels: { pool: md } }, template },
    });
    const core = workload.kubeConfig.makeApiClient(CoreV1Api);
    for (const i of [0, 1, 2]) {
      await create('machines', 'Machine', {
        metadata: {
          name: `${md}-m${i}`,
          labels: { 'cluster.x-k8s.io/cluster-name': 'east' },
          ownerReferences: [ref(set)],
        },
        spec: { ...template.spec, providerID: ids[i] },
      });
      // The Node spells its ID without the zone: matched by identity all the same.
      await core.createNode({
        body: { metadata: { name: nodes[i] }, spec: { providerID: ids[i]!.replace('/eu-west-1b/', '//') } },
      });
    }
    const ops = new NodeLeaseClient({
      kubeConfig: workload.kubeConfig,
      namespace: leaseNamespace,
      holderIdentity: 'ops-kernel-upgrade',
      ensureNamespace: true,
    });
    await ops.tryAcquire(nodes[2]!);
    // The Cluster's kubeconfig Secret, for --workload-from-secret.
    await management.kubeConfig.makeApiClient(CoreV1Api).createNamespacedSecret({
      namespace,
      body: {
        metadata: { name: 'east-kubeconfig' },
        stringData: { value: workload.kubeConfig.exportConfig() },
      },
    });
  });

  afterAll(async () => {
    await workload?.stop();
  });

  const autoscaler = (...args: string[]) =>
    runMain([
      'autoscaler',
      ...args,
      '--kubeconfig',
      management.kubeconfigPath,
      '--auto-discovery',
      `clusterapi:namespace=${management.namespace}`,
      '--lease-namespace',
      leaseNamespace,
    ]);

  it('groups --json: id, bounds, target, nodes and the nodes under maintenance', async () => {
    const { code, stdout, stderr } = await autoscaler(
      'groups',
      '--json',
      '--workload-kubeconfig',
      workloadKubeconfig,
    );
    expect([code, stderr]).toEqual([0, '']);
    const lines = stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      id: `MachineDeployment/${management.namespace}/${md}`,
      min: 1,
      max: 6,
      target: 3,
      nodesUnderMaintenance: [{ node: nodes[2], holder: 'ops-kernel-upgrade', state: 'held' }],
    });
    expect(lines[0].nodes.map((n: { id: string; node: string }) => [n.id, n.node]).sort()).toEqual(
      ids.map((id, i) => [id, nodes[i]]),
    );
  });

  it('groups: a table', async () => {
    const { code, stdout } = await autoscaler('groups', '--workload-kubeconfig', workloadKubeconfig);
    expect(code).toBe(0);
    const [header, row] = stdout.trim().split('\n');
    expect(header!.split(/\s{2,}/)).toEqual(['ID', 'MIN', 'MAX', 'TARGET', 'NODES', 'UNDER MAINTENANCE']);
    expect(row!.split(/\s{2,}/)).toEqual([
      `MachineDeployment/${management.namespace}/${md}`,
      '1',
      '6',
      '3',
      '3',
      `${nodes[2]} (ops-kernel-upgrade)`,
    ]);
  });

  it("node-group NODE: the node's group and how it was found, also through the Cluster's Secret", async () => {
    for (const workloadFlags of [['--workload-kubeconfig', workloadKubeconfig], ['--workload-from-secret']]) {
      const { code, stdout } = await autoscaler('node-group', nodes[1]!, '--json', ...workloadFlags);
      expect(code).toBe(0);
      expect(JSON.parse(stdout)).toMatchObject({
        node: nodes[1],
        group: { id: `MachineDeployment/${management.namespace}/${md}`, min: 1, max: 6 },
        machine: { namespace: management.namespace, name: `${md}-m1` },
        matchedBy: 'provider-id',
        problems: [],
      });
    }
    const text = await autoscaler('node-group', nodes[0]!, '--workload-kubeconfig', workloadKubeconfig);
    expect(text.stdout).toContain(
      `node ${nodes[0]}: node group MachineDeployment/${management.namespace}/${md}`,
    );
  });

  it("groups: a maintenance lease's hostile holder identity is printed escaped", async () => {
    const at = { name: nodes[2]!, namespace: leaseNamespace };
    await setLeaseHolder(workload.kubeConfig, at, 'evil\nMachineDeployment/forged  9  9\u001b[2J\u009b31m');
    try {
      const { code, stdout } = await autoscaler('groups', '--workload-kubeconfig', workloadKubeconfig);
      expect(code).toBe(0);
      const lines = stdout.trim().split('\n');
      expect(lines).toHaveLength(2);
      expect(lines[1]).toContain(`${nodes[2]} (evil\\x0aMachineDeployment/forged  9  9\\x1b[2J\\x9b31m)`);
      expect(stdout).not.toMatch(CONTROL_BUT_NEWLINE);
    } finally {
      await setLeaseHolder(workload.kubeConfig, at, 'ops-kernel-upgrade');
    }
  });

  it('groups: a lease that cannot be read lists its node as under maintenance, says why and exits 3', async () => {
    // A workload user whom the API server lets read Nodes, and the leases of nodes 0 and 2 only.
    const user = 'cli-autoscaler-lease-reader';
    await workload.grant(user, [{ apiGroups: [''], resources: ['nodes'], verbs: ['get', 'list', 'watch'] }]);
    await workload.grant(
      user,
      [
        {
          apiGroups: ['coordination.k8s.io'],
          resources: ['leases'],
          resourceNames: [nodes[0]!, nodes[2]!],
          verbs: ['get'],
        },
      ],
      { namespace: leaseNamespace },
    );
    const kubeconfig = join(scratch, 'lease-reader.kubeconfig');
    writeFileSync(kubeconfig, (await workload.kubeConfigFor(user)).exportConfig());

    const listed = await autoscaler('groups', '--json', '--workload-kubeconfig', kubeconfig);
    expect(listed.code).toBe(3);
    const [record] = listed.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(record.nodes).toHaveLength(3);
    const byNode = (a: { node: string }, b: { node: string }) => a.node.localeCompare(b.node);
    expect([...record.nodesUnderMaintenance].sort(byNode)).toEqual([
      { node: nodes[1], holder: null, state: 'unknown', error: expect.stringContaining('403') },
      { node: nodes[2], holder: 'ops-kernel-upgrade', state: 'held' },
    ]);
    expect(listed.stderr).toMatch(
      new RegExp(`^warning: read the maintenance lease of node "${nodes[1]}": .*\\n$`),
    );

    const table = await autoscaler('groups', '--workload-kubeconfig', kubeconfig);
    expect(table.code).toBe(3);
    expect(table.stdout).toContain(`${nodes[1]} (unknown)`);
    expect(table.stderr).toBe(listed.stderr);
  });

  it('exit codes: 1 for an unknown node, 2 for usage, 3 when the cluster cannot be reached', async () => {
    const unknown = await autoscaler(
      'node-group',
      'no-such-node',
      '--workload-kubeconfig',
      workloadKubeconfig,
    );
    expect([unknown.code, unknown.stdout]).toEqual([1, '']);
    expect(unknown.stderr).toContain('no-such-node');
    expect((await runMain(['autoscaler'])).code).toBe(2);
    expect((await runMain(['autoscaler', 'groups', 'extra'])).code).toBe(2);
    expect((await autoscaler('groups', '--workload-from-secret', '--workload-kubeconfig', 'x')).code).toBe(2);
    expect(
      (
        await runMain([
          'autoscaler',
          'groups',
          '--kubeconfig',
          management.kubeconfigPath,
          '--auto-discovery',
          'asg:x',
        ])
      ).code,
    ).toBe(2);
    const dead = join(scratch, 'dead.kubeconfig');
    const config = JSON.parse(management.kubeConfig.exportConfig());
    for (const c of config.clusters) c.cluster.server = 'https://127.0.0.1:1';
    writeFileSync(dead, JSON.stringify(config));
    const unreachable = await runMain(['autoscaler', 'groups', '--kubeconfig', dead]);
    expect([unreachable.code, unreachable.stdout]).toEqual([3, '']);
    expect(unreachable.stderr).toMatch(/^capi-kit autoscaler: /);
  });

  it('node-group --workload-from-secret: a Node not found while a workload cluster could not be read names that cluster (exit 3)', async () => {
    // Cluster `west`: a node group of it (only those clusters are reached), and a kubeconfig
    // Secret whose server refuses connections.
    const namespace = management.namespace;
    const custom = management.kubeConfig.makeApiClient(CustomObjectsApi);
    const westLabels = { 'cluster.x-k8s.io/cluster-name': 'west' };
    const westSet = await custom.createNamespacedCustomObject({
      group,
      version,
      namespace,
      plural: 'machinesets',
      body: {
        apiVersion: `${group}/${version}`,
        kind: 'MachineSet',
        metadata: {
          name: 'west-ms',
          labels: westLabels,
          annotations: {
            'cluster.x-k8s.io/cluster-api-autoscaler-node-group-min-size': '1',
            'cluster.x-k8s.io/cluster-api-autoscaler-node-group-max-size': '3',
          },
        },
        spec: {
          replicas: 1,
          selector: { matchLabels: { set: 'west-ms' } },
          template: {
            metadata: { labels: { set: 'west-ms' } },
            spec: {
              bootstrap: { data: 'eA==' },
              infrastructureRef: { apiVersion: 'infrastructure.example/v1', kind: 'TestMachine', name: 'x' },
            },
          },
        },
      },
    });
    await custom.createNamespacedCustomObject({
      group,
      version,
      namespace,
      plural: 'machines',
      body: {
        apiVersion: `${group}/${version}`,
        kind: 'Machine',
        metadata: {
          name: 'west-m0',
          labels: westLabels,
          ownerReferences: [
            {
              apiVersion: `${group}/${version}`,
              kind: 'MachineSet',
              name: 'west-ms',
              uid: westSet.metadata.uid,
              controller: true,
            },
          ],
        },
        spec: {
          bootstrap: { data: 'eA==' },
          infrastructureRef: { apiVersion: 'infrastructure.example/v1', kind: 'TestMachine', name: 'x' },
        },
      },
    });
    const config = JSON.parse(workload.kubeConfig.exportConfig());
    for (const c of config.clusters) c.cluster.server = 'https://127.0.0.1:1';
    await management.kubeConfig.makeApiClient(CoreV1Api).createNamespacedSecret({
      namespace,
      body: { metadata: { name: 'west-kubeconfig' }, stringData: { value: JSON.stringify(config) } },
    });
    const result = await autoscaler('node-group', 'west-node-0', '--workload-from-secret');
    expect([result.code, result.stdout]).toEqual([3, '']);
    expect(result.stderr).toContain('no Node named west-node-0');
    expect(result.stderr).toContain(`warning: workload cluster ${namespace}/west: `);
    // A Node of a cluster that was read is still found.
    expect((await autoscaler('node-group', nodes[1]!, '--workload-from-secret')).code).toBe(0);
  });
});
