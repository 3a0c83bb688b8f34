import { type ControlPlane, startControlPlane } from '@capi-kit/envtest';
import { noControlPlane, useControlPlane } from '@capi-kit/envtest/vitest';
import { medik8sLeases, NodeLeaseClient, nodeNamedLeases } from '@capi-kit/lease';
import { CoreV1Api } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CapiClient, connect, describeCluster, workloadKubeConfig } from '../src/index.js';
import { capiCrdDirs, unwrap, unwrapLeft } from './helpers/fixtures.js';
import { buildScenario, create, ids, owner } from './helpers/scenario.js';

// Two control planes: the run's shared one is the management cluster, a private one is the
// workload cluster (its Nodes and maintenance leases), reached through the kubeconfig Secret.
const management = useControlPlane();

describe.skipIf(noControlPlane('private-local'))(
  'describeCluster across a management and a workload cluster',
  () => {
    let workload: ControlPlane;
    let client: CapiClient;
    let nodeNames: { joined: string; lonely: string };

    beforeAll(async () => {
      workload = await startControlPlane({ log: () => {} });
      for (const dir of capiCrdDirs) await management.installCRDs(dir);
      ({ client, nodeNames } = await buildScenario(management.kubeConfig, workload, management.namespace));
    });

    afterAll(async () => {
      await workload?.stop();
    });

    it('joins Machines to Nodes by providerID identity, with Ready, maintenance leases and problems', async () => {
      const ns = management.namespace;
      const described = unwrap(await describeCluster(client, 'prod', { namespace: ns }));
      expect(described.cluster).toEqual({
        apiVersion: 'cluster.x-k8s.io/v1alpha2',
        kind: 'Cluster',
        name: 'prod',
        namespace: ns,
        phase: 'pending',
      });
      expect(described.nodesKnown).toBe(true);
      expect(described.machineDeployments.map((d) => d.name)).toEqual(['prod-md']);
      expect(described.machineSets).toEqual([
        {
          kind: 'MachineSet',
          name: 'prod-ms',
          namespace: ns,
          replicas: 3,
          owner: { kind: 'MachineDeployment', name: 'prod-md' },
        },
      ]);
      const byName = Object.fromEntries(described.machines.map((m) => [m.name, m]));
      // The Node spells the ID without the zone: joined by identity, not string equality.
      expect(byName['prod-m-0']).toEqual({
        name: 'prod-m-0',
        namespace: ns,
        phase: 'provisioning',
        providerID: ids.joined,
        owner: { kind: 'MachineSet', name: 'prod-ms' },
        node: { name: nodeNames.joined, ready: true },
        maintenance: { holder: 'reboot-agent/ops-1', state: 'held' },
      });
      expect(byName['prod-m-1']).toMatchObject({
        providerID: ids.lonelyMachine,
        node: null,
        maintenance: null,
      });
      expect(byName['prod-m-2']).toMatchObject({ providerID: null, phase: 'failed', node: null });
      expect(described.nodesWithoutMachine).toEqual([nodeNames.lonely]);
      const problems = described.problems.map((p) => `${p.object}: ${p.message}`);
      expect(problems).toEqual(
        expect.arrayContaining([
          `Machine ${ns}/prod-m-2: failed: CreateError: quota \u001b[31mexceeded`,
          `Node ${nodeNames.lonely}: node without a machine: no Machine of the cluster has providerID '${ids.lonelyNode}'`,
          `Machine ${ns}/prod-m-1: machine without a node: no Node has providerID '${ids.lonelyMachine}'`,
          `Machine ${ns}/prod-m-2: machine without a node: the Machine has no providerID yet`,
        ]),
      );
      expect(problems).toHaveLength(4);
    });

    it('describes a v1alpha1 Cluster: owners from selectors, normalised phases, nodes unknown without a Secret', async () => {
      const ns = management.namespace;
      const described = unwrap(await describeCluster(client, 'legacy', { namespace: ns }));
      expect(described.cluster).toMatchObject({ apiVersion: 'cluster.k8s.io/v1alpha1', phase: '' });
      expect(described.nodesKnown).toBe(false);
      expect(described.machines).toEqual([
        {
          name: 'legacy-m-0',
          namespace: ns,
          phase: 'running',
          providerID: null,
          owner: { kind: 'MachineSet', name: 'legacy-ms' },
          node: null,
          maintenance: null,
        },
      ]);
      expect(described.problems).toEqual([
        {
          object: `Secret ${ns}/legacy-kubeconfig`,
          message: `nodes unknown: the workload kubeconfig Secret ${ns}/legacy-kubeconfig does not exist`,
        },
      ]);
    });

    it('finds an owner by its UID, and names a stale or missing one as a problem', async () => {
      const ns = management.namespace;
      const v2 = 'cluster.x-k8s.io/v1alpha2';
      const meta = (name: string, extra: Record<string, unknown> = {}) => ({
        name,
        namespace: ns,
        labels: { 'cluster.x-k8s.io/cluster-name': 'owners' },
        ...extra,
      });
      const infrastructureRef = (name: string) => ({
        apiVersion: 'infrastructure.cluster.x-k8s.io/v1alpha2',
        kind: 'AWSMachine',
        name,
      });
      await create(client, v2, 'Cluster', {
        apiVersion: v2,
        kind: 'Cluster',
        metadata: { name: 'owners', namespace: ns },
        spec: {},
      });
      const set = await create(client, v2, 'MachineSet', {
        apiVersion: v2,
        kind: 'MachineSet',
        metadata: meta('owners-ms'),
        spec: {
          selector: { matchLabels: { pool: 'o' } },
          template: {
            metadata: { labels: { pool: 'o' } },
            spec: { bootstrap: { data: 'eA==' }, infrastructureRef: infrastructureRef('o') },
          },
        },
      });
      const owned = [
        ['owners-m-0', 'owners-ms', set.created.metadata.uid],
        ['owners-m-1', 'owners-ms', '00000000-0000-0000-0000-000000000001'],
        ['owners-m-2', 'owners-gone', '00000000-0000-0000-0000-000000000002'],
      ] as const;
      for (const [name, ownerName, uid] of owned) {
        await create(client, v2, 'Machine', {
          apiVersion: v2,
          kind: 'Machine',
          metadata: meta(name, { ownerReferences: owner('MachineSet', ownerName, uid) }),
          spec: { bootstrap: { data: 'eA==' }, infrastructureRef: infrastructureRef(name) },
        });
      }
      const described = unwrap(
        await describeCluster(client, 'owners', { namespace: ns, workload: workload.kubeConfig }),
      );
      expect(described.machines.map((m) => [m.name, m.owner])).toEqual(
        owned.map(([name, ownerName]) => [name, { kind: 'MachineSet', name: ownerName }]),
      );
      const problems = described.problems
        .map((p) => `${p.object}: ${p.message}`)
        .filter((p) => p.startsWith('Machine ') && !p.includes('machine without a node'));
      expect(problems).toEqual([
        `Machine ${ns}/owners-m-1: ownerReference to MachineSet owners-ms has uid 00000000-0000-0000-0000-000000000001, but that MachineSet's uid is ${set.created.metadata.uid} (stale, e.g. after a migration)`,
        `Machine ${ns}/owners-m-2: owner MachineSet owners-gone (uid 00000000-0000-0000-0000-000000000002) does not exist`,
      ]);
    });

    it('a Cluster that does not exist is not-found; a given workload KubeConfig is used as is', async () => {
      const ns = management.namespace;
      expect(unwrapLeft(await describeCluster(client, 'nope', { namespace: ns })).code).toBe('not-found');
      const described = unwrap(
        await describeCluster(client, 'legacy', { namespace: ns, workload: workload.kubeConfig }),
      );
      expect(described.nodesKnown).toBe(true);
      expect(described.nodesWithoutMachine).toEqual(
        expect.arrayContaining([nodeNames.joined, nodeNames.lonely]),
      );
    });

    it('workloadKubeConfig names the Secret when it is missing or malformed', async () => {
      const ns = management.namespace;
      const prod = { metadata: { name: 'prod', namespace: ns } };
      const kc = unwrap(await workloadKubeConfig(management.kubeConfig, prod));
      expect(kc.getCurrentCluster()?.server).toBe(workload.kubeConfig.getCurrentCluster()?.server);
      expect(
        unwrapLeft(
          await workloadKubeConfig(management.kubeConfig, { metadata: { name: 'gone', namespace: ns } }),
        ),
      ).toMatchObject({
        code: 'kubeconfig-secret-not-found',
        secret: `${ns}/gone-kubeconfig`,
      });
      const core = management.kubeConfig.makeApiClient(CoreV1Api);
      await core.createNamespacedSecret({
        namespace: ns,
        body: {
          metadata: { name: 'junk-kubeconfig' },
          data: { value: Buffer.from('{not: [a kubeconfig').toString('base64') },
        },
      });
      await core.createNamespacedSecret({
        namespace: ns,
        body: { metadata: { name: 'empty-kubeconfig' }, data: {} },
      });
      expect(
        unwrapLeft(
          await workloadKubeConfig(management.kubeConfig, { metadata: { name: 'junk', namespace: ns } }),
        ),
      ).toMatchObject({
        code: 'kubeconfig-secret-malformed',
        secret: `${ns}/junk-kubeconfig`,
        path: 'data.value',
      });
      expect(
        unwrapLeft(
          await workloadKubeConfig(management.kubeConfig, { metadata: { name: 'empty', namespace: ns } }),
        ),
      ).toMatchObject({
        code: 'kubeconfig-secret-malformed',
        message: `Secret ${ns}/empty-kubeconfig: data.value: missing or empty`,
      });
    });

    it('a user who may list Cluster API objects but not read Secrets gets the description, the reason in problems', async () => {
      const ns = management.namespace;
      await management.grant(
        'capi-reader',
        [
          {
            apiGroups: ['cluster.x-k8s.io', 'cluster.k8s.io'],
            resources: ['*'],
            verbs: ['get', 'list', 'watch'],
          },
        ],
        { namespace: ns },
      );
      const reader = unwrap(await connect(await management.kubeConfigFor('capi-reader')));
      const described = unwrap(await describeCluster(reader, 'prod', { namespace: ns }));
      expect(described.machines.map((m) => m.name)).toEqual(['prod-m-0', 'prod-m-1', 'prod-m-2']);
      expect(described.nodesKnown).toBe(false);
      expect(described.machines.every((m) => m.node === null)).toBe(true);
      expect(described.problems).toEqual([
        expect.objectContaining({
          object: `Machine ${ns}/prod-m-2`,
          message: expect.stringMatching(/^failed: /),
        }),
        {
          object: `Secret ${ns}/prod-kubeconfig`,
          message: expect.stringMatching(/nodes unknown: .* cannot be read: .*HTTP 403 Forbidden/),
        },
      ]);
    });

    it('a lease namespace or lease request timeout that cannot be used is an invalid-option error, not a throw', async () => {
      // (the prod Cluster has Machines joined to Nodes: their leases were looked up by name,
      // and the lease client threw a LeaseConfigError out of describeCluster)
      const ns = management.namespace;
      for (const bad of ['..', 'Not_A_Namespace', '', 'a'.repeat(64)]) {
        const error = unwrapLeft(
          await describeCluster(client, 'prod', { namespace: ns, leaseLocation: nodeNamedLeases(bad) }),
        );
        expect(error).toEqual({
          code: 'invalid-option',
          path: 'leaseLocation.namespace',
          message: expect.stringContaining(
            `leaseLocation.namespace ${JSON.stringify(bad)} is not a valid namespace`,
          ),
        });
      }
      for (const bad of [0, -1, 1.5, 2 ** 31]) {
        const error = unwrapLeft(
          await describeCluster(client, 'prod', { namespace: ns, leaseRequestTimeoutMs: bad }),
        );
        expect(error).toMatchObject({ code: 'invalid-option', path: 'leaseRequestTimeoutMs' });
        expect(error.message).toContain(`(got ${bad})`);
      }
      // A good one still describes, leases and all
      const described = unwrap(
        await describeCluster(client, 'prod', {
          namespace: ns,
          leaseLocation: nodeNamedLeases('kube-node-maintenance'),
        }),
      );
      expect(described.machines.some((m) => m.maintenance !== null)).toBe(true);
    });

    it('a Node whose name gives no lease name in the layout is under no lease; the others keep theirs', async () => {
      // medik8s' layout names a lease `node-<node>`: a valid Node name of 250 characters makes
      // a lease name the API server refuses, so no one can hold that Node's lease.
      const ns = management.namespace;
      const v2 = 'cluster.x-k8s.io/v1alpha2';
      await create(client, v2, 'Cluster', {
        apiVersion: v2,
        kind: 'Cluster',
        metadata: { name: 'long', namespace: ns },
        spec: {},
      });
      const longNode = `${ns}.${'a'.repeat(63)}.${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(63)}`
        .slice(0, 250)
        .replace(/[.-]+$/, '');
      expect(longNode.length).toBeGreaterThan(248);
      const pairs = [
        ['long-m-0', longNode, 'aws:///us-east-1a/i-0ddddddddddddddd1'],
        ['long-m-1', `short-${ns}`, 'aws:///us-east-1a/i-0ddddddddddddddd2'],
      ] as const;
      const nodes = workload.kubeConfig.makeApiClient(CoreV1Api);
      for (const [machine, node, providerID] of pairs) {
        await create(client, v2, 'Machine', {
          apiVersion: v2,
          kind: 'Machine',
          metadata: { name: machine, namespace: ns, labels: { 'cluster.x-k8s.io/cluster-name': 'long' } },
          spec: {
            bootstrap: { data: 'eA==' },
            infrastructureRef: {
              apiVersion: 'infrastructure.cluster.x-k8s.io/v1alpha2',
              kind: 'AWSMachine',
              name: machine,
            },
            providerID,
          },
        });
        await nodes.createNode({ body: { metadata: { name: node }, spec: { providerID } } });
      }
      const leases = new NodeLeaseClient({
        kubeConfig: workload.kubeConfig,
        holderIdentity: 'drain-agent',
        location: medik8sLeases(),
        ensureNamespace: true,
        timing: { leaseDurationSeconds: 600 },
      });
      expect((await leases.tryAcquire(`short-${ns}`)).acquired).toBe(true);

      const described = unwrap(
        await describeCluster(client, 'long', {
          namespace: ns,
          workload: workload.kubeConfig,
          leaseLocation: medik8sLeases(),
        }),
      );
      expect(described.machines.map((m) => [m.name, m.node?.name, m.maintenance])).toEqual([
        ['long-m-0', longNode, { holder: null, state: 'absent' }],
        ['long-m-1', `short-${ns}`, { holder: 'drain-agent', state: 'held' }],
      ]);
    });

    it('a Node of a Machine that does not decode is not reported as a node without a machine', async () => {
      const ns = management.namespace;
      const v1 = 'cluster.k8s.io/v1alpha1';
      await create(client, v1, 'Cluster', {
        apiVersion: v1,
        kind: 'Cluster',
        metadata: { name: 'undecoded', namespace: ns },
        spec: {
          clusterNetwork: {
            services: { cidrBlocks: ['10.96.0.0/12'] },
            pods: { cidrBlocks: ['192.168.0.0/16'] },
            serviceDomain: 'cluster.local',
          },
        },
      });
      const typed = unwrap(client.resource(v1, 'Machine'));
      const nodes = workload.kubeConfig.makeApiClient(CoreV1Api);
      for (const [name, providerID, taints] of [
        ['undecoded-m-0', 'aws:///us-east-1a/i-0eeeeeeeeeeeeeee1', []],
        // The v1alpha1 CRD leaves taints unchecked; core's codec wants a string key.
        ['undecoded-m-1', 'aws:///us-east-1a/i-0eeeeeeeeeeeeeee2', [{ key: 5, effect: 'NoSchedule' }]],
      ] as const) {
        await typed.create({
          apiVersion: v1,
          kind: 'Machine',
          metadata: { name, namespace: ns, labels: { 'cluster.k8s.io/cluster-name': 'undecoded' } },
          spec: { providerSpec: {}, providerID, taints },
        } as never);
        await nodes.createNode({ body: { metadata: { name: `${name}-${ns}` }, spec: { providerID } } });
      }

      const described = unwrap(
        await describeCluster(client, 'undecoded', { namespace: ns, workload: workload.kubeConfig }),
      );
      expect(described.machines.map((m) => [m.name, m.node?.name])).toEqual([
        ['undecoded-m-0', `undecoded-m-0-${ns}`],
      ]);
      expect(described.nodesWithoutMachine).not.toContain(`undecoded-m-1-${ns}`);
      const problems = described.problems.filter((p) => p.object.includes('undecoded-m-1'));
      expect(problems).toEqual([
        {
          object: `Machine ${ns}/undecoded-m-1`,
          message: expect.stringMatching(/does not decode: spec\.taints\[0\]\.key/),
        },
      ]);
    });

    it('Machines and Nodes that all denote one instance: one problem per Machine, not one per Machine and Node', async () => {
      // Each Node denoting an instance several Machines have made a group of them all, and
      // each group a problem per Machine: Machines × Nodes problems (1,000 of each: a million).
      const ns = management.namespace;
      const v2 = 'cluster.x-k8s.io/v1alpha2';
      await create(client, v2, 'Cluster', {
        apiVersion: v2,
        kind: 'Cluster',
        metadata: { name: 'crowd', namespace: ns },
        spec: {},
      });
      const nodes = workload.kubeConfig.makeApiClient(CoreV1Api);
      const count = 15;
      for (let i = 0; i < count; i++) {
        await create(client, v2, 'Machine', {
          apiVersion: v2,
          kind: 'Machine',
          metadata: {
            name: `crowd-m-${i}`,
            namespace: ns,
            labels: { 'cluster.x-k8s.io/cluster-name': 'crowd' },
          },
          spec: {
            bootstrap: { data: 'eA==' },
            infrastructureRef: {
              apiVersion: 'infrastructure.cluster.x-k8s.io/v1alpha2',
              kind: 'AWSMachine',
              name: 'x',
            },
            providerID: 'aws:///us-east-1a/i-0fffffffffffffff1',
          },
        });
        await nodes.createNode({
          body: {
            metadata: { name: `crowd-${i}-${ns}` },
            spec: { providerID: 'aws:////i-0fffffffffffffff1' },
          },
        });
      }
      const described = unwrap(
        await describeCluster(client, 'crowd', { namespace: ns, workload: workload.kubeConfig }),
      );
      expect(described.machines.every((m) => m.node === null)).toBe(true);
      const ambiguous = described.problems.filter((p) => p.message.startsWith('ambiguous join'));
      expect(ambiguous.map((p) => p.object).sort()).toEqual(
        Array.from({ length: count }, (_, i) => `Machine ${ns}/crowd-m-${i}`).sort(),
      );
      // (Nodes as the server lists them: by name)
      const names = Array.from({ length: count }, (_, i) => `crowd-${i}-${ns}`)
        .sort()
        .slice(0, 10)
        .join(', ');
      expect(ambiguous[0]?.message).toBe(
        `ambiguous join with Node(s) ${names} and 5 more: node providerID "aws:////i-0fffffffffffffff1" denotes ${count} machines`,
      );
    });
  },
);
