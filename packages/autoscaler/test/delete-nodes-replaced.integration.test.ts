// deleteNodes while a node's Machine is deleted and re-created under its name (a new uid),
// on the run's shared control plane (management and workload cluster in one). The
// replacement happens at a chosen request of the provider: its KubeConfig runs a step on
// the server (with the admin's credentials) before it sends that request. What the server
// then answers is its own.
import { fileURLToPath } from 'node:url';
import { noControlPlane, useControlPlane } from '@capi-kit/envtest/vitest';
import { KubeConfig } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createNodeGroupProvider,
  NodeGroupError,
  type NodeGroupProvider,
  type NodeGroupProviderOptions,
} from '../src/index.js';
import { ClusterObjects, type Created, groupWithNodes, unique } from './helpers/cluster-objects.js';

const crds = fileURLToPath(new URL('../../../testdata/crds/v1alpha2', import.meta.url));
const management = useControlPlane();

type RequestContext = Parameters<KubeConfig['applySecurityAuthentication']>[0];

/** The key a v1alpha2 MachineSet controller reads (and deleteNodes writes). */
const deleteMark = 'cluster.k8s.io/delete-machine';

/**
 * A copy of `source` that, before each request it sends, awaits `before(method, path)`;
 * the request goes out after it, unchanged.
 */
function intercepting(source: KubeConfig, before: (method: string, path: string) => Promise<void>) {
  class Intercepting extends KubeConfig {
    override async applySecurityAuthentication(context: RequestContext): Promise<void> {
      await before(String(context.getHttpMethod()), new URL(context.getUrl()).pathname);
      return super.applySecurityAuthentication(context);
    }
  }
  const kubeConfig = new Intercepting();
  kubeConfig.loadFromString(source.exportConfig());
  return kubeConfig;
}

describe.skipIf(noControlPlane())('deleteNodes and a Machine re-created under its name mid-call', () => {
  let objects: ClusterObjects;
  const providers: NodeGroupProvider[] = [];

  beforeAll(async () => {
    await management.installCRDs(crds);
    objects = new ClusterObjects(management.kubeConfig, 'cluster.x-k8s.io/v1alpha2', management.namespace);
  });

  afterAll(async () => {
    await Promise.all(providers.map((p) => p.stop()));
  });

  async function provider(options: Partial<NodeGroupProviderOptions> = {}) {
    const created = await createNodeGroupProvider({
      management: management.kubeConfig,
      apiVersion: 'cluster.x-k8s.io/v1alpha2',
      autoDiscovery: [`clusterapi:namespace=${management.namespace}`],
      leaseGuard: false,
      ...options,
    });
    providers.push(created);
    return created;
  }

  /** A MachineDeployment of `size` Machines (min 0, max 5), each with its Node. */
  const group = (size: number) => groupWithNodes(objects, management.kubeConfig, size);

  /** Deletes `machine` and creates another Machine under its name (a new uid). */
  async function replace(machine: Created, set: Created, annotations: Record<string, string> = {}) {
    await objects.delete('Machine', machine.metadata.name);
    const again = await objects.create('Machine', {
      metadata: {
        name: machine.metadata.name,
        annotations,
        ownerReferences: [
          {
            apiVersion: set.apiVersion,
            kind: set.kind,
            name: set.metadata.name,
            uid: set.metadata.uid,
            controller: true,
          },
        ],
      },
      spec: machine.spec,
    });
    expect(again.metadata.uid).not.toBe(machine.metadata.uid);
    return again;
  }

  async function rejection(promise: Promise<unknown>): Promise<NodeGroupError> {
    const error = await promise.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(NodeGroupError);
    return error as NodeGroupError;
  }

  /** A user who may read and update Machines and read the scale, not write it. */
  async function userWhoCannotScale() {
    const user = unique('no-scale-update');
    // May read and update Machines and read the scale, not write it: the decrement fails.
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
    // Cluster-wide watches (Machines, MachineSets, MachineDeployments, and the Nodes).
    await management.grant(user, [
      {
        apiGroups: ['cluster.x-k8s.io'],
        resources: ['machines', 'machinesets', 'machinedeployments'],
        verbs: ['list', 'watch'],
      },
      { apiGroups: [''], resources: ['nodes'], verbs: ['get', 'list', 'watch'] },
    ]);
    return user;
  }

  /** Sets `annotations` on the Machine named `name` (a plain update). */
  async function annotate(name: string, annotations: Record<string, string>) {
    const machine = await objects.get('Machine', name);
    return objects.replace('Machine', name, {
      ...machine,
      metadata: {
        ...machine.metadata,
        annotations: {
          ...(machine.metadata.annotations as Record<string, string> | undefined),
          ...annotations,
        },
      },
    });
  }

  it('a failed decrement puts back the empty delete annotation the mark overwrote', async () => {
    // An empty delete annotation is no mark to a MachineSet controller, so the mark
    // overwrites it; when lowering replicas then fails, the rollback must put the empty
    // value back (it was not counted as added, so the Machine kept the mark without its
    // decrement, and CAPI would delete it at the next scale-down of anyone).
    const g = await group(2);
    const user = await userWhoCannotScale();
    const target = g.machines[0]!;
    const before = await annotate(target.metadata.name, { [deleteMark]: '', 'ops/note': 'kept' });
    let marked: Record<string, string> | undefined;
    const kubeConfig = intercepting(await management.kubeConfigFor(user), async (method, path) => {
      if (method !== 'PUT' || path !== g.scalePath || marked !== undefined) return;
      marked = (await objects.get('Machine', target.metadata.name)).metadata.annotations as Record<
        string,
        string
      >;
    });
    const p = await provider({ management: kubeConfig });
    const ng = p.nodeGroups().find((x) => x.id === g.id)!;
    const error = await rejection(ng.deleteNodes([g.nodes[0]!]));
    expect([error.code, error.details.status]).toEqual(['api-error', 403]);
    // Stopped at the first node: nothing deleted, so nothing listed.
    expect(error.details.deleted).toBeUndefined();
    expect(error.message).not.toContain('already deleted');
    // It was marked (the empty value overwritten) before the decrement was refused.
    expect(marked?.[deleteMark]).toMatch(/^\d{4}-/);
    const now = await objects.get('Machine', target.metadata.name);
    expect(now.metadata.uid).toBe(before.metadata.uid);
    expect(now.metadata.annotations).toEqual({ [deleteMark]: '', 'ops/note': 'kept' });
    expect(await objects.replicas('MachineDeployment', g.name)).toBe(2);
  });

  it.each([
    ['no delete annotation', {}],
    ['an empty delete annotation', { [deleteMark]: '' }],
  ])(
    'un-marking after a failed decrement leaves alone a Machine re-created under the name (%s before)',
    async (_, initial: Record<string, string>) => {
      // The unmark path re-reads the Machine and puts back what the mark overwrote (removes
      // the key, or restores the empty value) only on the object it marked (same uid): the
      // re-created Machine carries a mark someone else set, and it must keep it (an unchecked
      // unmark stripped it, and CAPI then kept a machine its owner had chosen for deletion).
      const g = await group(2);
      const user = await userWhoCannotScale();
      const target = g.machines[0]!;
      await annotate(target.metadata.name, initial);
      let again: Created | undefined;
      let markedBeforeReplace: Record<string, string> | undefined;
      // Just before the decrement (which the server refuses), the marked Machine is replaced.
      const kubeConfig = intercepting(await management.kubeConfigFor(user), async (method, path) => {
        if (method !== 'PUT' || path !== g.scalePath || again !== undefined) return;
        markedBeforeReplace = (await objects.get('Machine', target.metadata.name)).metadata
          .annotations as Record<string, string>;
        again = await replace(target, g.set, { [deleteMark]: 'marked by ops/drain' });
      });
      const p = await provider({ management: kubeConfig });
      const ng = p.nodeGroups().find((x) => x.id === g.id)!;
      const error = await rejection(ng.deleteNodes([g.nodes[0]!]));
      expect([error.code, error.details.status]).toEqual(['api-error', 403]);
      // The old Machine was marked, then replaced before the decrement was sent.
      expect(Object.keys(markedBeforeReplace ?? {})).toContain(deleteMark);
      expect(again).toBeDefined();
      // The re-created Machine was not written: same resourceVersion, someone else's mark kept.
      const now = await objects.get('Machine', target.metadata.name);
      expect(now.metadata.uid).toBe(again!.metadata.uid);
      expect(now.metadata.resourceVersion).toBe(again!.metadata.resourceVersion);
      expect(now.metadata.annotations).toEqual({ [deleteMark]: 'marked by ops/drain' });
      expect(await objects.replicas('MachineDeployment', g.name)).toBe(2);
      expect((await objects.get('Machine', g.machines[1]!.metadata.name)).metadata.annotations ?? {}).toEqual(
        {},
      );
    },
  );

  it.each([1, 2])(
    'a Machine replaced after earlier nodes were deleted: those stay deleted and the error names them (node %i of 3)',
    async (at) => {
      // deleteNodes marks and decrements node by node. When node `at`'s Machine is replaced
      // after the nodes before it were each marked and replicas lowered for them, the call
      // stops at it with `machine-replaced` naming that node: replicas are lowered once for
      // each Machine marked; the new Machine and those after are not marked; nothing is left
      // marked without its decrement. The error lists the nodes already deleted (field and
      // message), so that a caller knows the state (it only named the node it stopped at).
      const g = await group(3);
      const replaced = g.machines[at]!;
      let decrements = 0;
      let again: Created | undefined;
      const kubeConfig = intercepting(management.kubeConfig, async (method, path) => {
        // Decrement number `at`: the Machines of the nodes before are marked by now.
        if (method !== 'PUT' || path !== g.scalePath || ++decrements !== at) return;
        again = await replace(replaced, g.set);
      });
      const p = await provider({ management: kubeConfig });
      const ng = p.nodeGroups().find((x) => x.id === g.id)!;
      const error = await rejection(ng.deleteNodes(g.nodes));
      expect(again).toBeDefined();
      const before = g.nodes.slice(0, at);
      expect([
        error.code,
        error.details.node,
        error.details.group,
        error.details.deleted,
        error.message,
      ]).toEqual([
        'machine-replaced',
        g.nodes[at],
        g.id,
        before,
        `machine ${objects.namespace}/${replaced.metadata.name} for node "${replaced.spec!.providerID}" is not ` +
          `the one resolved: uid "${replaced.metadata.uid}" was resolved, the server has uid ` +
          `"${again!.metadata.uid}" (deleted and re-created), it will not be deleted; nodes already deleted ` +
          `(marked, replicas lowered): ${before.map((n) => `"${n}"`).join(', ')}`,
      ]);
      expect(await objects.replicas('MachineDeployment', g.name)).toBe(3 - at);
      const annotations = async (name: string) =>
        ((await objects.get('Machine', name)).metadata.annotations ?? {}) as Record<string, string>;
      for (const machine of g.machines.slice(0, at))
        expect(Object.keys(await annotations(machine.metadata.name))).toEqual([deleteMark]);
      const now = await objects.get('Machine', replaced.metadata.name);
      expect([now.metadata.uid, now.metadata.resourceVersion]).toEqual([
        again!.metadata.uid,
        again!.metadata.resourceVersion,
      ]);
      expect(await annotations(replaced.metadata.name)).toEqual({});
      for (const machine of g.machines.slice(at + 1))
        expect(await annotations(machine.metadata.name)).toEqual({});
    },
  );

  it('a Machine replaced between its mark and its decrement: replicas are not lowered for it', async () => {
    // (replicas were lowered for it though no Machine carried the mark any more: the
    // MachineSet controller then deleted a machine no one chose)
    const g = await group(3);
    const replaced = g.machines[1]!;
    const machinePath =
      `/apis/cluster.x-k8s.io/v1alpha2/namespaces/${objects.namespace}/machines/` + replaced.metadata.name;
    let marked = false;
    let again: Created | undefined;
    const kubeConfig = intercepting(management.kubeConfig, async (method, path) => {
      if (method === 'PUT' && path === machinePath) marked = true;
      // The scale read for node 1's decrement: its Machine is marked by now.
      else if (method === 'GET' && path === g.scalePath && marked && again === undefined)
        again = await replace(replaced, g.set);
    });
    const p = await provider({ management: kubeConfig });
    const ng = p.nodeGroups().find((x) => x.id === g.id)!;
    const error = await rejection(ng.deleteNodes([g.nodes[0]!, g.nodes[1]!]));
    expect(again).toBeDefined();
    expect([error.code, error.details.node, error.details.group, error.details.deleted]).toEqual([
      'machine-replaced',
      g.nodes[1],
      g.id,
      [g.nodes[0]],
    ]);
    expect(error.message).toContain(`for node "${replaced.spec!.providerID}" is not the one resolved`);
    expect(error.message).toMatch(/; nodes already deleted \(marked, replicas lowered\): "[^"]+"$/);
    expect(error.message).toContain(`"${g.nodes[0]}"`);
    // Lowered once, for node 0's Machine, which stays marked; the new Machine is untouched.
    expect(await objects.replicas('MachineDeployment', g.name)).toBe(2);
    const annotations = async (name: string) =>
      ((await objects.get('Machine', name)).metadata.annotations ?? {}) as Record<string, string>;
    expect(Object.keys(await annotations(g.machines[0]!.metadata.name))).toEqual([deleteMark]);
    const now = await objects.get('Machine', replaced.metadata.name);
    expect([now.metadata.uid, now.metadata.resourceVersion]).toEqual([
      again!.metadata.uid,
      again!.metadata.resourceVersion,
    ]);
    expect(await annotations(replaced.metadata.name)).toEqual({});
    expect(await annotations(g.machines[2]!.metadata.name)).toEqual({});
  });
});
