// Node groups against real API servers: the run's shared control plane is the management
// cluster (Cluster API v1alpha2 and v1alpha1 CRDs), a second, private control plane is the
// workload cluster holding the Nodes and their maintenance leases.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type ControlPlane, startControlPlane } from '@capi-kit/envtest';
import { noControlPlane, useControlPlane } from '@capi-kit/envtest/vitest';
import { NodeLeaseClient } from '@capi-kit/lease';
import { CoreV1Api } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  createNodeGroupProvider,
  type NodeGroup,
  NodeGroupError,
  type NodeGroupProvider,
  type NodeGroupProviderOptions,
} from '../src/index.js';
import { ClusterObjects, type Created, createNode, unique, type Version } from './helpers/cluster-objects.js';

const crdRoot = fileURLToPath(new URL('../../../testdata/crds/', import.meta.url));
const vectors: { name: string; input: Record<string, number>; expected: Record<string, unknown> }[] =
  JSON.parse(readFileSync(new URL('./fixtures/vectors.json', import.meta.url), 'utf8'));

const management = useControlPlane();
// The workload cluster is a second, private control plane: only the local backend gives one.
describe.skipIf(noControlPlane('private-local'))('node groups on live clusters', () => {
  let workload: ControlPlane;
  const providers: NodeGroupProvider[] = [];

  beforeAll(async () => {
    await management.installCRDs([join(crdRoot, 'v1alpha2'), join(crdRoot, 'v1alpha1')]);
    workload = await startControlPlane({ backend: 'local', log: () => {} });
  });

  afterAll(async () => {
    await Promise.all(providers.map((p) => p.stop()));
    await workload?.stop();
  });

  /** A provider over this file's namespace (auto-discovery keeps other files' groups out). */
  async function provider(version: Version, options: Partial<NodeGroupProviderOptions> = {}) {
    const created = await createNodeGroupProvider({
      management: management.kubeConfig,
      workload: workload.kubeConfig,
      apiVersion: version,
      autoDiscovery: [`clusterapi:namespace=${management.namespace}`],
      leaseGuard: { namespace: leaseNamespace },
      ...options,
    });
    providers.push(created);
    return created;
  }

  const leaseNamespace = 'autoscaler-leases';

  async function rejection(promise: Promise<unknown>): Promise<NodeGroupError> {
    const error = await promise.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(Error);
    return error as NodeGroupError;
  }

  /**
   * A group of `size` machines, each with a Node in the workload cluster. The Node's
   * providerID is `nodeID(i)` and the Machine's `machineID(i)` (the same by default).
   */
  async function group(
    objects: ClusterObjects,
    options: {
      kind?: 'MachineDeployment' | 'MachineSet';
      min: number;
      max: number;
      replicas: number;
      size?: number;
      machineID?: (i: number, base: string) => string | undefined;
      nodeID?: (i: number, base: string) => string | undefined;
    },
  ) {
    const kind = options.kind ?? 'MachineDeployment';
    const name = unique(kind === 'MachineDeployment' ? 'md' : 'ms');
    const bounds = objects.bounds(options.min, options.max);
    let set: Created;
    let resource: Created;
    if (kind === 'MachineDeployment') {
      resource = await objects.machineDeployment(name, options.replicas, bounds);
      set = await objects.machineSet(`${name}-set`, options.replicas, {}, { owner: resource });
    } else {
      resource = set = await objects.machineSet(name, options.replicas, bounds);
    }
    const machines: Created[] = [];
    const nodes: string[] = [];
    for (let i = 0; i < (options.size ?? options.replicas); i++) {
      // AWS instance IDs are i- and 8 or 17 hex digits; the grammar refuses anything else.
      const hex = Array.from({ length: 17 }, () => Math.floor(Math.random() * 16).toString(16)).join('');
      const base = `aws:///us-east-1a/i-${hex}`;
      const machineName = `${name}-m${i}`;
      machines.push(
        await objects.machine(machineName, {
          owner: set,
          providerID: (options.machineID ?? ((_, b) => b))(i, base),
        }),
      );
      const nodeName = `${name}-n${i}`;
      await createNode(workload.kubeConfig, nodeName, (options.nodeID ?? ((_, b) => b))(i, base));
      nodes.push(nodeName);
    }
    return { id: `${kind}/${objects.namespace}/${name}`, kind, name, resource, set, machines, nodes };
  }

  const groupOf = (p: NodeGroupProvider, id: string): NodeGroup => {
    const found = p.nodeGroups().find((g) => g.id === id);
    if (found === undefined) throw new Error(`no group ${id} among ${p.nodeGroups().map((g) => g.id)}`);
    return found;
  };

  /** Waits until the provider's caches show `condition`. */
  const until = (check: () => void) => vi.waitFor(check, { timeout: 30_000, interval: 50 });

  const annotationsOf = async (objects: ClusterObjects, machine: Created) =>
    ((await objects.get('Machine', machine.metadata.name)).metadata.annotations ?? {}) as Record<
      string,
      string
    >;

  describe.each(['cluster.x-k8s.io/v1alpha2', 'cluster.k8s.io/v1alpha1'] as const)('%s', (version) => {
    let objects: ClusterObjects;
    beforeAll(() => {
      objects = new ClusterObjects(management.kubeConfig, version, management.namespace);
    });

    it('lists one group per MachineDeployment and per un-owned MachineSet with max > min', async () => {
      const md = await group(objects, { min: 1, max: 5, replicas: 2 });
      const ms = await group(objects, { kind: 'MachineSet', min: 0, max: 3, replicas: 1 });
      const fixed = await group(objects, { kind: 'MachineSet', min: 2, max: 2, replicas: 2, size: 0 });
      const zero = await group(objects, { min: 0, max: 2, replicas: 0 });
      const p = await provider(version);
      expect(p.apiVersion).toBe(version);
      const ids = p.nodeGroups().map((g) => g.id);
      expect(ids).toContain(md.id);
      expect(ids).toContain(ms.id);
      // The deployment's own MachineSet is not a group of its own.
      expect(ids).not.toContain(`MachineSet/${objects.namespace}/${md.set.metadata.name}`);
      expect(ids).not.toContain(fixed.id); // no room to scale
      expect(ids).not.toContain(zero.id); // 0 replicas and no capacity annotations to scale from
      const g = groupOf(p, md.id);
      expect([g.minSize, g.maxSize, await g.targetSize()]).toEqual([1, 5, 2]);
      expect((await g.nodes()).map((n) => n.id).sort()).toEqual(
        md.machines.map((m) => m.spec!.providerID).sort(),
      );
      expect(p.nodeGroupForNode(md.nodes[0]!)?.id).toBe(md.id);
      expect(p.nodeGroupForNode(ms.nodes[0]!)?.id).toBe(ms.id);
      expect(p.nodeGroupForNode('no-such-node')).toBeNull();
    });

    it('increases and decreases through the scale subresource, with upstream errors', async () => {
      const md = await group(objects, { min: 1, max: 10, replicas: 3 });
      const p = await provider(version);
      const g = groupOf(p, md.id);
      for (const v of vectors.filter((x) => /^(IncreaseSize|DecreaseTargetSize)\[1\.20/.test(x.name))) {
        await objects.replace('MachineDeployment', md.name, {
          ...(await objects.get('MachineDeployment', md.name)),
          spec: { ...(await objects.get('MachineDeployment', md.name)).spec, replicas: v.input.replicas },
        });
        const call = v.name.startsWith('IncreaseSize')
          ? g.increaseSize(v.input.delta!)
          : g.decreaseTargetSize(v.input.delta!);
        if (typeof v.expected.error === 'string')
          expect((await rejection(call)).message).toBe(v.expected.error);
        else await call;
        expect(await objects.replicas('MachineDeployment', md.name)).toBe(v.expected.replicasAfter);
      }
      expect((await rejection(g.increaseSize(8))).message).toBe(
        'size increase too large - desired:11 max:10',
      );
      expect((await rejection(g.increaseSize(0))).code).toBe('size-increase-not-positive');
      await g.increaseSize(2);
      expect(await g.targetSize()).toBe(5);
      await g.decreaseTargetSize(-2); // 3 machines exist: down to 3 is allowed
      expect(await g.targetSize()).toBe(3);
      const tooFar = await rejection(g.decreaseTargetSize(-1));
      expect([tooFar.code, tooFar.message]).toEqual([
        'would-delete-existing-nodes',
        'attempt to delete existing nodes targetSize:3 delta:-1 existingNodes: 3',
      ]);
      expect((await rejection(g.decreaseTargetSize(0))).message).toBe('size decrease must be negative');
    });

    it('deleteNodes marks with the key this version reads, then lowers replicas', async () => {
      const md = await group(objects, { min: 1, max: 10, replicas: 4 });
      const p = await provider(version);
      const g = groupOf(p, md.id);
      await g.deleteNodes([md.nodes[2]!, md.nodes[3]!]);
      expect(await g.targetSize()).toBe(2);
      for (const machine of md.machines.slice(2)) {
        const annotations = await annotationsOf(objects, machine);
        // v0.1 and v0.2 MachineSet controllers read only cluster.k8s.io/delete-machine.
        expect(Object.keys(annotations).filter((k) => k.endsWith('/delete-machine'))).toEqual([
          'cluster.k8s.io/delete-machine',
        ]);
        expect(annotations['cluster.k8s.io/delete-machine']).not.toBe('');
      }
      expect(Object.keys(await annotationsOf(objects, md.machines[0]!))).toEqual([]);
    });

    it('refuses deletions with upstream messages and writes nothing', async () => {
      const a = await group(objects, { kind: 'MachineSet', min: 1, max: 3, replicas: 2 });
      const b = await group(objects, { kind: 'MachineSet', min: 1, max: 3, replicas: 2 });
      const p = await provider(version);
      const ga = groupOf(p, a.id);
      const node = await workload.kubeConfig.makeApiClient(CoreV1Api).readNode({ name: b.nodes[0]! });
      const foreign = await rejection(ga.deleteNodes([node]));
      expect([foreign.code, foreign.message]).toEqual([
        'node-not-in-group',
        `node "${node.spec!.providerID}" doesn't belong to node group "${a.id}"`,
      ]);
      const all = await rejection(ga.deleteNodes(a.nodes));
      expect(all.code).toBe('delete-below-min-size');
      // Upstream formats the two ints with %q (Go prints them as quoted characters).
      expect(all.message).toBe(
        `unable to delete 2 machines in "${a.id}", machine replicas are '\\x02', minSize is '\\x01' `,
      );
      await ga.deleteNodes([a.nodes[0]!]);
      const atMin = await rejection(ga.deleteNodes([a.nodes[1]!]));
      expect([atMin.code, atMin.message]).toEqual([
        'min-size-reached',
        'min size reached, nodes will not be deleted',
      ]);
      expect(await objects.replicas('MachineSet', a.name)).toBe(1);
      expect(await annotationsOf(objects, a.machines[1]!)).toEqual({});
      const orphan = `orphan-${unique('n')}`;
      await createNode(workload.kubeConfig, orphan, 'aws:///us-east-1a/i-0000000000000000f');
      await until(() => expect(p.explainNode(orphan).nodeObject).toBeDefined());
      const none = await rejection(groupOf(p, b.id).deleteNodes([orphan]));
      expect(none.message).toBe('no node group found for node "aws:///us-east-1a/i-0000000000000000f"');
    });

    it('reports an unknown machine when the Machine is gone from the server', async () => {
      const md = await group(objects, { min: 0, max: 3, replicas: 2 });
      const p = await provider(version);
      const g = groupOf(p, md.id);
      // A stopped provider keeps its last view: the machine is still in it, not on the server.
      await p.stop();
      await objects.delete('Machine', md.machines[0]!.metadata.name);
      const error = await rejection(g.deleteNodes([md.nodes[0]!]));
      expect([error.code, error.message]).toEqual([
        'unknown-machine-for-node',
        `unknown machine for node "${md.machines[0]!.spec!.providerID}"`,
      ]);
      expect(await objects.replicas('MachineDeployment', md.name)).toBe(2);
    });

    it('refuses a Machine deleted and re-created under its name since it was resolved', async () => {
      // (the re-read took whatever Machine had the name: the new one was marked and replicas
      // lowered, so CAPI deleted a machine no one chose)
      const md = await group(objects, { min: 0, max: 3, replicas: 2 });
      const p = await provider(version);
      const g = groupOf(p, md.id);
      expect(p.explainNode(md.nodes[1]!).machine?.name).toBe(md.machines[1]!.metadata.name);
      // A stopped provider keeps its last view: it resolves the node to the old Machine.
      await p.stop();
      const old = md.machines[1]!;
      await objects.delete('Machine', old.metadata.name);
      const again = await objects.machine(old.metadata.name, {
        owner: md.set,
        providerID: old.spec!.providerID as string,
      });
      expect(again.metadata.uid).not.toBe(old.metadata.uid);
      for (const nodes of [[md.nodes[1]!], [md.nodes[0]!, md.nodes[1]!]]) {
        const error = await rejection(g.deleteNodes(nodes));
        expect(error).toBeInstanceOf(NodeGroupError);
        expect([error.code, error.message, error.details.node]).toEqual([
          'machine-replaced',
          `machine ${objects.namespace}/${old.metadata.name} for node "${old.spec!.providerID}" is not the ` +
            `one resolved: uid "${old.metadata.uid}" was resolved, the server has uid "${again.metadata.uid}" ` +
            '(deleted and re-created), it will not be deleted',
          md.nodes[1],
        ]);
      }
      // Nothing written: neither the new Machine nor the other node's is marked.
      expect(await objects.replicas('MachineDeployment', md.name)).toBe(2);
      expect(await annotationsOf(objects, again)).toEqual({});
      expect(await annotationsOf(objects, md.machines[0]!)).toEqual({});
    });

    it('skips a machine that is already being deleted', async () => {
      const md = await group(objects, { min: 0, max: 3, replicas: 2 });
      const machine = md.machines[1]!;
      await objects.replace('Machine', machine.metadata.name, {
        ...(await objects.get('Machine', machine.metadata.name)),
        metadata: {
          ...(await objects.get('Machine', machine.metadata.name)).metadata,
          finalizers: ['test/hold'],
        },
      });
      await objects.delete('Machine', machine.metadata.name);
      const p = await provider(version);
      await groupOf(p, md.id).deleteNodes([md.nodes[1]!]);
      expect(await objects.replicas('MachineDeployment', md.name)).toBe(2);
      const after = await objects.get('Machine', machine.metadata.name);
      expect(after.metadata.annotations ?? {}).toEqual({});
      await objects.replace('Machine', machine.metadata.name, {
        ...after,
        metadata: { ...after.metadata, finalizers: [] },
      });
    });
  });

  describe('scale from zero', () => {
    let objects: ClusterObjects;
    beforeAll(() => {
      objects = new ClusterObjects(management.kubeConfig, 'cluster.x-k8s.io/v1alpha2', management.namespace);
    });
    const capacity = (more: Record<string, string> = {}) => ({
      'capacity.cluster-autoscaler.kubernetes.io/cpu': '4',
      'capacity.cluster-autoscaler.kubernetes.io/memory': '16Gi',
      'capacity.cluster-autoscaler.kubernetes.io/labels': 'pool=gpu,example.com/tier=batch',
      'capacity.cluster-autoscaler.kubernetes.io/taints': 'spot=true:NoSchedule',
      ...more,
    });

    it('a group at zero with capacity annotations is a group with a template node; a bad one is reported', async () => {
      const good = await objects.machineDeployment(unique('zero'), 0, {
        ...objects.bounds(0, 3),
        ...capacity(),
      });
      const bad = await objects.machineDeployment(unique('zero-bad'), 0, {
        ...objects.bounds(0, 3),
        ...capacity({ 'capacity.cluster-autoscaler.kubernetes.io/memory': '16 GB' }),
      });
      const plain = await objects.machineDeployment(unique('zero-plain'), 0, objects.bounds(0, 3));
      const p = await provider('cluster.x-k8s.io/v1alpha2');
      const id = (o: Created) => `MachineDeployment/${objects.namespace}/${o.metadata.name}`;
      const ids = p.nodeGroups().map((g) => g.id);
      expect(ids).toContain(id(good));
      expect(ids).not.toContain(id(bad));
      expect(ids).not.toContain(id(plain));
      const memoryPath = 'metadata.annotations["capacity.cluster-autoscaler.kubernetes.io/memory"]';
      expect(p.problems().filter((x) => x.code === 'invalid-capacity-annotation')).toEqual([
        {
          code: 'invalid-capacity-annotation',
          object: `MachineDeployment ${objects.namespace}/${bad.metadata.name}`,
          path: memoryPath,
          message:
            `MachineDeployment ${objects.namespace}/${bad.metadata.name}: invalid capacity annotation: ` +
            `${memoryPath}: "16 GB": not a quantity: unknown suffix " GB" (expected Ki, Mi, Gi, Ti, Pi, Ei, ` +
            'n, u, m, k, M, G, T, P, E or an exponent)',
        },
      ]);

      const g = groupOf(p, id(good));
      const template = await g.templateNode();
      expect(template).toMatchObject({
        metadata: {
          name: `${good.metadata.name}-template`,
          labels: { pool: 'gpu', 'example.com/tier': 'batch', 'kubernetes.io/os': 'linux' },
        },
        spec: { taints: [{ key: 'spot', value: 'true', effect: 'NoSchedule' }] },
        status: { capacity: { cpu: '4', memory: '16Gi', pods: '110' } },
      });
      // The API server takes the template as a Node: its labels, taints and quantities are valid.
      const core = workload.kubeConfig.makeApiClient(CoreV1Api);
      const served = await core.createNode({ body: structuredClone(template) as never });
      expect(served.metadata?.labels).toEqual(template!.metadata.labels);
      // (the server adds node.kubernetes.io/not-ready to a new Node)
      expect(served.spec?.taints).toEqual(expect.arrayContaining([...template!.spec.taints!]));
      expect(served.status?.capacity).toEqual({ cpu: '4', memory: '16Gi', pods: '110' });
      await core.deleteNode({ name: served.metadata!.name! });

      await g.increaseSize(1);
      expect(await objects.replicas('MachineDeployment', good.metadata.name)).toBe(1);

      // Above zero the other two are groups again: the bad one's template node says what is
      // wrong, the plain one has none.
      for (const o of [bad, plain]) {
        const current = await objects.get('MachineDeployment', o.metadata.name);
        await objects.replace('MachineDeployment', o.metadata.name, {
          ...current,
          spec: { ...current.spec, replicas: 1 },
        });
      }
      await until(() =>
        expect(p.nodeGroups().map((x) => x.id)).toEqual(expect.arrayContaining([id(bad), id(plain)])),
      );
      expect(await groupOf(p, id(plain)).templateNode()).toBeNull();
      const thrown = await groupOf(p, id(bad))
        .templateNode()
        .catch((error: unknown) => error);
      expect(thrown).toBeInstanceOf(NodeGroupError);
      expect(thrown).toMatchObject({ code: 'invalid-capacity-annotation', path: memoryPath });
    });
  });

  describe('discovery', () => {
    it('without MachineDeployments served, MachineSets are the groups; the version is discovered', async () => {
      // The workload plane doubles as a management cluster that serves Machines and
      // MachineSets of v1alpha2 only (no MachineDeployment CRD), and nothing of v1alpha1.
      await workload.installCRDs([
        join(crdRoot, 'v1alpha2', 'cluster.x-k8s.io_machines.yaml'),
        join(crdRoot, 'v1alpha2', 'cluster.x-k8s.io_machinesets.yaml'),
      ]);
      const namespace = await workload.createNamespace('no-md');
      const objects = new ClusterObjects(workload.kubeConfig, 'cluster.x-k8s.io/v1alpha2', namespace);
      const orphanOwner = {
        apiVersion: 'cluster.x-k8s.io/v1alpha2',
        kind: 'MachineDeployment',
        metadata: {
          name: 'gone',
          namespace,
          uid: '00000000-0000-0000-0000-0000000000aa',
          resourceVersion: '1',
        },
      };
      const owned = await objects.machineSet('owned', 2, objects.bounds(0, 4), { owner: orphanOwner });
      const plain = await objects.machineSet('plain', 1, objects.bounds(1, 3));
      await objects.machine('owned-m0', {
        owner: owned,
        providerID: 'aws:///eu-west-1a/i-0fedcba9876543210',
      });
      await createNode(workload.kubeConfig, unique('no-md'), 'aws:////i-0fedcba9876543210');
      // Two Machines of one instance, spelled two ways: a Node of it has no single Machine.
      await objects.machine('plain-m0', {
        owner: plain,
        providerID: 'aws:///eu-west-1b/i-0aaaaaaaaaaaaaaaa',
      });
      await objects.machine('plain-m1', { owner: plain, providerID: 'aws:////i-0aaaaaaaaaaaaaaaa' });
      const p = await createNodeGroupProvider({ management: workload.kubeConfig, leaseGuard: false });
      providers.push(p);
      expect([p.apiVersion, p.machineDeployments]).toEqual(['cluster.x-k8s.io/v1alpha2', false]);
      const ids = p.nodeGroups().map((g) => g.id);
      // Without MachineDeployments served, an ownerReference to one is not followed.
      expect(ids).toEqual(
        expect.arrayContaining([
          `MachineSet/${namespace}/owned`,
          `MachineSet/${namespace}/${plain.metadata.name}`,
        ]),
      );
      const node = p.nodeGroupForNode({
        metadata: { name: 'x' },
        spec: { providerID: 'aws:////i-0fedcba9876543210' },
      });
      expect(node?.id).toBe(`MachineSet/${namespace}/owned`);
      // cluster-autoscaler's answer to that Node is an error, with upstream's words.
      const twin = { metadata: { name: 'twin' }, spec: { providerID: 'aws:////i-0aaaaaaaaaaaaaaaa' } };
      let thrown: unknown;
      try {
        p.nodeGroupForNode(twin);
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeInstanceOf(NodeGroupError);
      expect(thrown).toMatchObject({ code: 'ambiguous-machine', details: { node: 'twin' } });
      expect((thrown as Error).message).toBe(
        `internal error; expected len==1, got 2: node twin denotes machines ${namespace}/plain-m0, ${namespace}/plain-m1`,
      );
      expect(p.explainNode(twin)).toMatchObject({
        group: null,
        ambiguous: [`${namespace}/plain-m0`, `${namespace}/plain-m1`],
      });
    });

    it('refuses a version the management cluster does not serve, and a malformed one', async () => {
      const unserved = await rejection(
        createNodeGroupProvider({ management: workload.kubeConfig, apiVersion: 'cluster.k8s.io/v1alpha1' }),
      );
      expect(unserved.code).toBe('api-error');
      expect(unserved.message).toContain('cluster.k8s.io/v1alpha1');
      const malformed = await rejection(
        createNodeGroupProvider({ management: workload.kubeConfig, apiVersion: 'v1alpha2' }),
      );
      expect([malformed.code, malformed.details.path]).toEqual(['invalid-options', 'apiVersion']);
      const badSpec = await rejection(
        createNodeGroupProvider({ management: workload.kubeConfig, autoDiscovery: ['clusterapi:a=b=c'] }),
      );
      expect([badSpec.code, badSpec.details.path]).toEqual(['invalid-options', 'autoDiscovery[0]']);
    });
  });

  describe('matching nodes to machines', () => {
    let objects: ClusterObjects;
    beforeAll(() => {
      objects = new ClusterObjects(management.kubeConfig, 'cluster.x-k8s.io/v1alpha2', management.namespace);
    });

    it('matches respelled providerIDs by instance identity', async () => {
      // The Node has the zone, the Machine does not (and the other way round); cluster-
      // autoscaler matches by the last path segment, CAPI ≥ v1.3 not at all.
      const md = await group(objects, {
        min: 0,
        max: 3,
        replicas: 2,
        machineID: (i, id) => (i === 0 ? id.replace('/us-east-1a/', '//') : id),
        nodeID: (i, id) => (i === 1 ? id.replace('/us-east-1a/', '//') : id),
      });
      const p = await provider('cluster.x-k8s.io/v1alpha2');
      for (const node of md.nodes) {
        expect(p.nodeGroupForNode(node)?.id).toBe(md.id);
        expect(p.explainNode(node).matchedBy).toBe('provider-id');
      }
      await groupOf(p, md.id).deleteNodes([md.nodes[0]!]);
      expect(Object.keys(await annotationsOf(objects, md.machines[0]!))).toEqual([
        'cluster.k8s.io/delete-machine',
      ]);
    });

    it('finds machines through the failed-machine placeholder and the Node annotation', async () => {
      const ms = await group(objects, {
        kind: 'MachineSet',
        min: 0,
        max: 3,
        replicas: 2,
        machineID: () => undefined,
      });
      const failed = ms.machines[0]!;
      await objects.api.replaceNamespacedCustomObjectStatus({
        group: objects.group,
        version: objects.version,
        namespace: objects.namespace,
        plural: 'machines',
        name: failed.metadata.name,
        body: { ...(await objects.get('Machine', failed.metadata.name)), status: { errorMessage: 'boom' } },
      });
      const placeholder = `failed-machine-${objects.namespace}_${failed.metadata.name}`;
      await createNode(workload.kubeConfig, unique('ph'), placeholder);
      const annotated = unique('annotated');
      // (upstream reads the annotation only for a Node whose providerID no Machine has)
      await createNode(workload.kubeConfig, annotated, 'openstack:///4a6c0c1c-0000-4000-8000-00000000a001', {
        'cluster.x-k8s.io/machine': ms.machines[1]!.metadata.name,
        'cluster.x-k8s.io/cluster-namespace': objects.namespace,
      });
      const p = await provider('cluster.x-k8s.io/v1alpha2');
      await until(() => expect(p.explainNode(annotated).matchedBy).toBe('node-annotation'));
      expect(p.nodeGroupForNode(annotated)?.id).toBe(ms.id);
      await until(() =>
        expect(p.explainNode({ metadata: { name: 'x' }, spec: { providerID: placeholder } }).matchedBy).toBe(
          'failed-machine',
        ),
      );
      const ids = (await groupOf(p, ms.id).nodes()).map((n) => n.id);
      expect(ids).toContain(placeholder);
    });

    it('reports a stale owner UID instead of letting the node vanish', async () => {
      const md = await group(objects, { kind: 'MachineSet', min: 0, max: 3, replicas: 1 });
      const stale = await objects.machine(unique('stale'), {
        owner: md.set,
        ownerUID: '00000000-0000-0000-0000-000000000001',
        providerID: 'aws:///us-east-1a/i-0123456789abcdef0',
      });
      const node = unique('stale-node');
      await createNode(workload.kubeConfig, node, 'aws:////i-0123456789abcdef0');
      const p = await provider('cluster.x-k8s.io/v1alpha2');
      const explained = p.explainNode(node);
      expect(explained.group?.id).toBe(md.id);
      expect(explained.problems).toEqual([
        expect.objectContaining({
          code: 'stale-owner-uid',
          object: `Machine ${objects.namespace}/${stale.metadata.name}`,
        }),
      ]);
      expect(p.problems().map((x) => x.code)).toContain('stale-owner-uid');
    });
  });

  describe('concurrency and safety', () => {
    let objects: ClusterObjects;
    beforeAll(() => {
      objects = new ClusterObjects(management.kubeConfig, 'cluster.x-k8s.io/v1alpha2', management.namespace);
    });

    it('two providers deleting different nodes of one group at once end at exactly the right replicas', async () => {
      for (let round = 0; round < 3; round++) {
        const md = await group(objects, { min: 0, max: 10, replicas: 6 });
        const [p1, p2] = await Promise.all([
          provider('cluster.x-k8s.io/v1alpha2'),
          provider('cluster.x-k8s.io/v1alpha2'),
        ]);
        await Promise.all([
          groupOf(p1!, md.id).deleteNodes([md.nodes[0]!, md.nodes[1]!]),
          groupOf(p2!, md.id).deleteNodes([md.nodes[2]!]),
          groupOf(p2!, md.id).deleteNodes([md.nodes[3]!]),
        ]);
        expect(await objects.replicas('MachineDeployment', md.name)).toBe(2);
        for (const machine of md.machines.slice(0, 4))
          expect(await annotationsOf(objects, machine)).toHaveProperty(['cluster.k8s.io/delete-machine']);
      }
    });

    it('the lease guard: a held or reserved lease refuses deletion, nothing is marked or scaled', async () => {
      const md = await group(objects, { min: 0, max: 5, replicas: 3 });
      const ops = new NodeLeaseClient({
        kubeConfig: workload.kubeConfig,
        namespace: leaseNamespace,
        holderIdentity: 'ops/reboot-agent',
        ensureNamespace: true,
      });
      expect(await ops.tryAcquire(md.nodes[1]!)).toMatchObject({ acquired: true });
      const p = await provider('cluster.x-k8s.io/v1alpha2');
      const g = groupOf(p, md.id);
      const refused = await rejection(g.deleteNodes([md.nodes[0]!, md.nodes[1]!]));
      expect(refused.code).toBe('under-maintenance');
      expect(refused.message).toContain(md.nodes[1]!);
      expect(refused.message).toContain('ops/reboot-agent');
      expect(await objects.replicas('MachineDeployment', md.name)).toBe(3);
      for (const machine of md.machines) expect(await annotationsOf(objects, machine)).toEqual({});
      const instances = await g.nodes();
      expect(instances.filter((i) => i.underMaintenance).map((i) => [i.node, i.maintenance?.holder])).toEqual(
        [[md.nodes[1], 'ops/reboot-agent']],
      );

      // Released: the same call goes through.
      await ops.release(md.nodes[1]!);
      await g.deleteNodes([md.nodes[1]!]);
      expect(await objects.replicas('MachineDeployment', md.name)).toBe(2);

      // An administrator's reservation (kubeadm… holder) counts too, and the guard can be off.
      const core = workload.kubeConfig.makeApiClient(
        (await import('@kubernetes/client-node')).CoordinationV1Api,
      );
      await core.createNamespacedLease({
        namespace: leaseNamespace,
        body: { metadata: { name: md.nodes[2]! }, spec: { holderIdentity: 'kubeadm-admin' } },
      });
      expect((await rejection(g.deleteNodes([md.nodes[2]!]))).details.holder).toBe('kubeadm-admin');
      const unguarded = await provider('cluster.x-k8s.io/v1alpha2', { leaseGuard: false });
      await groupOf(unguarded, md.id).deleteNodes([md.nodes[2]!]);
      expect(await objects.replicas('MachineDeployment', md.name)).toBe(1);
    });

    it('the lease guard asks about every Node the machine may be, not only the one it is given', async () => {
      // (only the given Node's lease was read: a second Node with the same instance's ID, or
      // a Node naming a Machine whose nodeRef is another Node, deleted a machine under
      // maintenance)
      const md = await group(objects, {
        min: 0,
        max: 5,
        replicas: 3,
        machineID: (i, base) => (i === 2 ? undefined : base),
      });
      const ops = new NodeLeaseClient({
        kubeConfig: workload.kubeConfig,
        namespace: leaseNamespace,
        holderIdentity: 'ops/disk-repair',
        ensureNamespace: true,
      });
      // Machine 0's instance, respelled (no zone), on a second Node.
      const id0 = md.machines[0]!.spec!.providerID as string;
      const twin = unique('twin');
      await createNode(workload.kubeConfig, twin, id0.replace('/us-east-1a/', '//'));
      // Machine 2 has no providerID; its nodeRef names its Node, and another Node names it.
      const m2 = md.machines[2]!.metadata.name;
      await objects.api.replaceNamespacedCustomObjectStatus({
        group: objects.group,
        version: objects.version,
        namespace: objects.namespace,
        plural: 'machines',
        name: m2,
        body: {
          ...(await objects.get('Machine', m2)),
          status: { nodeRef: { kind: 'Node', name: md.nodes[2]! } },
        },
      });
      const claimant = unique('claimant');
      await createNode(workload.kubeConfig, claimant, 'openstack:///4a6c0c1c-0000-4000-8000-00000000b002', {
        'cluster.x-k8s.io/machine': `${objects.namespace}/${m2}`,
      });
      for (const node of [md.nodes[0]!, md.nodes[2]!])
        expect(await ops.tryAcquire(node)).toMatchObject({ acquired: true });
      const p = await provider('cluster.x-k8s.io/v1alpha2');
      await until(() => {
        expect(p.explainNode(twin).machine?.name).toBe(md.machines[0]!.metadata.name);
        expect(p.explainNode(claimant).machine?.name).toBe(m2);
        expect(p.explainNode(claimant).machineObject?.status).toBeDefined();
      });
      const g = groupOf(p, md.id);
      for (const [asked, held, machine] of [
        [twin, md.nodes[0]!, md.machines[0]!.metadata.name],
        [claimant, md.nodes[2]!, m2],
      ] as const) {
        const refused = await rejection(g.deleteNodes([asked]));
        expect(refused.code).toBe('under-maintenance');
        expect(refused.message).toBe(
          `node "${asked}" is Machine ${objects.namespace}/${machine}, whose node "${held}" is under ` +
            `maintenance by "ops/disk-repair" (lease ${leaseNamespace}/${held} is held), nodes will not be deleted`,
        );
      }
      expect(await objects.replicas('MachineDeployment', md.name)).toBe(3);
      for (const machine of md.machines) expect(await annotationsOf(objects, machine)).toEqual({});
      // nodes() says so too, though two Nodes claim machine 0's instance.
      const instances = await g.nodes();
      expect(instances.filter((i) => i.underMaintenance).map((i) => i.machine.name)).toEqual([
        md.machines[0]!.metadata.name,
        m2,
      ]);
    });

    it('refuses two nodes of one Machine in one deleteNodes: it would lower replicas twice', async () => {
      // (both were taken: the Machine was marked once and replicas went down by two, so
      // CAPI deleted it and a machine no one chose)
      const md = await group(objects, { min: 0, max: 5, replicas: 3 });
      const id0 = md.machines[0]!.spec!.providerID as string;
      const twin = unique('twin');
      await createNode(workload.kubeConfig, twin, id0.replace('/us-east-1a/', '//'));
      const p = await provider('cluster.x-k8s.io/v1alpha2', { leaseGuard: false });
      await until(() => expect(p.explainNode(twin).machine?.name).toBe(md.machines[0]!.metadata.name));
      const g = groupOf(p, md.id);
      const both = await rejection(g.deleteNodes([md.nodes[0]!, twin]));
      expect(both).toBeInstanceOf(NodeGroupError);
      expect([both.code, both.message]).toEqual([
        'same-machine',
        `nodes "${md.nodes[0]}" and "${twin}" are both Machine ${objects.namespace}/${md.machines[0]!.metadata.name}: ` +
          'it would be deleted once and replicas lowered twice, nodes will not be deleted',
      ]);
      const twice = await rejection(g.deleteNodes([md.nodes[1]!, md.nodes[1]!]));
      expect([twice.code, twice.message]).toEqual([
        'same-machine',
        `node "${md.nodes[1]}" is given twice, nodes will not be deleted`,
      ]);
      expect(await objects.replicas('MachineDeployment', md.name)).toBe(3);
      for (const machine of md.machines) expect(await annotationsOf(objects, machine)).toEqual({});
    });

    it("a Node whose name gives no lease name in the layout (medik8s' node- prefix) is under no lease", async () => {
      // (its lease read threw: nodes() failed for the whole group, and the node could never
      // be deleted, though no one can hold a lease it cannot have)
      const md = await group(objects, { min: 0, max: 5, replicas: 2 });
      const label = (c: string) => c.repeat(62);
      // A valid Node name of 252 characters; `node-` makes it 257, past a lease name's 253.
      const last = `${unique('x').replace(/[^a-z0-9]/g, '')}${label('d')}`.slice(0, 63);
      const long = [label('a'), label('b'), label('c'), last].join('.');
      await createNode(workload.kubeConfig, long, md.machines[1]!.spec!.providerID as string);
      const p = await provider('cluster.x-k8s.io/v1alpha2', { leaseGuard: { layout: 'medik8s' } });
      await until(() => expect(p.explainNode(long).machine?.name).toBe(md.machines[1]!.metadata.name));
      const g = groupOf(p, md.id);
      const instances = await g.nodes();
      expect(instances.map((i) => i.underMaintenance)).toEqual([false, false]);
      await g.deleteNodes([long]);
      expect(await objects.replicas('MachineDeployment', md.name)).toBe(1);
    });

    it('a lease that cannot be read fails its instance closed, not every instance of the group', async () => {
      // (nodes() rejected as a whole: one unreadable lease hid every other node of the group)
      const md = await group(objects, { min: 0, max: 5, replicas: 3 });
      const ops = new NodeLeaseClient({
        kubeConfig: workload.kubeConfig,
        namespace: leaseNamespace,
        holderIdentity: 'ops/firmware',
        ensureNamespace: true,
      });
      expect(await ops.tryAcquire(md.nodes[2]!)).toMatchObject({ acquired: true });
      // A workload-cluster user the API server lets read the leases of nodes 0 and 2 only.
      const user = unique('lease-reader');
      await workload.grant(user, [
        { apiGroups: [''], resources: ['nodes'], verbs: ['get', 'list', 'watch'] },
      ]);
      await workload.grant(
        user,
        [
          {
            apiGroups: ['coordination.k8s.io'],
            resources: ['leases'],
            resourceNames: [md.nodes[0]!, md.nodes[2]!],
            verbs: ['get'],
          },
        ],
        { namespace: leaseNamespace },
      );
      const p = await provider('cluster.x-k8s.io/v1alpha2', { workload: await workload.kubeConfigFor(user) });
      const g = groupOf(p, md.id);
      const instances = (await g.nodes()).sort((a, b) => (a.node ?? '').localeCompare(b.node ?? ''));
      expect(instances.map((i) => [i.node, i.underMaintenance, i.maintenance?.state ?? null])).toEqual([
        [md.nodes[0], false, null],
        [md.nodes[1], true, 'unknown'],
        [md.nodes[2], true, 'held'],
      ]);
      const unknown = instances[1]!.maintenance!;
      expect(unknown.holder).toBeUndefined();
      expect(unknown.lease).toBe(`${leaseNamespace}/${md.nodes[1]}`);
      expect(unknown.error).toBeInstanceOf(NodeGroupError);
      expect([unknown.error?.code, unknown.error?.details.node, unknown.error?.details.status]).toEqual([
        'api-error',
        md.nodes[1],
        403,
      ]);
      expect(unknown.error?.message.startsWith(`read the maintenance lease of node "${md.nodes[1]}": `)).toBe(
        true,
      );
      expect(instances[2]!.maintenance?.holder).toBe('ops/firmware');
      // Deleting the node whose lease state is unknown is still refused, with that error.
      const refused = await rejection(g.deleteNodes([md.nodes[1]!]));
      expect([refused.code, refused.details.status, refused.message]).toEqual([
        'api-error',
        403,
        unknown.error?.message,
      ]);
      expect(await objects.replicas('MachineDeployment', md.name)).toBe(3);
      for (const machine of md.machines) expect(await annotationsOf(objects, machine)).toEqual({});
      // A node whose lease reads free is deleted as before.
      await g.deleteNodes([md.nodes[0]!]);
      expect(await objects.replicas('MachineDeployment', md.name)).toBe(2);
    });

    it('removes the mark again when lowering replicas fails', async () => {
      const md = await group(objects, { min: 0, max: 5, replicas: 2 });
      // A user who may update Machines but not the scale subresource.
      const user = unique('autoscaler');
      await management.grant(
        user,
        [
          {
            apiGroups: ['cluster.x-k8s.io'],
            resources: ['machines', 'machinesets', 'machinedeployments'],
            verbs: ['get', 'list', 'watch'],
          },
          { apiGroups: ['cluster.x-k8s.io'], resources: ['machines'], verbs: ['update'] },
          { apiGroups: ['cluster.x-k8s.io'], resources: ['machinedeployments/scale'], verbs: ['get'] },
        ],
        { namespace: objects.namespace },
      );
      const restricted = await management.kubeConfigFor(user);
      // Cluster-wide watches need cluster-wide list: grant it on the three kinds only.
      await management.grant(user, [
        {
          apiGroups: ['cluster.x-k8s.io'],
          resources: ['machines', 'machinesets', 'machinedeployments'],
          verbs: ['list', 'watch'],
        },
      ]);
      const p = await provider('cluster.x-k8s.io/v1alpha2', { management: restricted, leaseGuard: false });
      const error = await rejection(groupOf(p, md.id).deleteNodes([md.nodes[0]!]));
      expect([error.code, error.details.status]).toEqual(['api-error', 403]);
      expect(await annotationsOf(objects, md.machines[0]!)).toEqual({});
      expect(await objects.replicas('MachineDeployment', md.name)).toBe(2);
    });
  });
});
