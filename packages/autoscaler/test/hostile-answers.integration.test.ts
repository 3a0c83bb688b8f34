// Answers that are not the object asked for, from something in front of the management
// cluster's API server: the provider talks to the management cluster through an answer proxy
// (every request still reaches the real server; only the answer to the picked requests is
// replaced) and to the workload cluster (the same control plane) directly. A scale, Machine
// or infrastructure template answer that is not the object asked for is an `api-error`
// naming the request and the field, and nothing is written: the cluster, read back without
// the proxy, is unchanged.
import { fileURLToPath } from 'node:url';
import { type AnswerProxy, type AnswerReplacement, startAnswerProxy } from '@capi-kit/envtest/answer-proxy';
import { noControlPlane, useControlPlane } from '@capi-kit/envtest/vitest';
import { CustomObjectsApi } from '@kubernetes/client-node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createNodeGroupProvider, NodeGroupError, type NodeGroupProvider } from '../src/index.js';
import { ManagementApi } from '../src/management-api.js';
import { readTemplateStatus } from '../src/node-group.js';
import { ClusterObjects, type Created, groupWithNodes, unique } from './helpers/cluster-objects.js';

const crds = fileURLToPath(new URL('../../../testdata/crds/v1alpha2', import.meta.url));
const env = useControlPlane();

const templateGroup = 'infrastructure.hostile-answers.example';
const templateVersion = 'v1alpha1';
const templateKind = 'HostileTestMachineTemplate';
const templatePlural = 'hostiletestmachinetemplates';
const templateCrd = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: `${templatePlural}.${templateGroup}` },
  spec: {
    group: templateGroup,
    scope: 'Namespaced',
    names: {
      kind: templateKind,
      listKind: `${templateKind}List`,
      plural: templatePlural,
      singular: templatePlural.slice(0, -1),
    },
    versions: [
      {
        name: templateVersion,
        served: true,
        storage: true,
        subresources: { status: {} },
        schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } },
      },
    ],
  },
};

type Json = Record<string, unknown>;
const json = (value: unknown): AnswerReplacement => ({ json: value });
const withMetadata = (served: unknown, change: (metadata: Json) => Json): AnswerReplacement => {
  const object = served as Json;
  return json({ ...object, metadata: change({ ...(object.metadata as Json) }) });
};
const html: AnswerReplacement = {
  text: '<!doctype html><html><body>Service Unavailable</body></html>',
  contentType: 'text/html',
};

describe.skipIf(noControlPlane())('answers that are not the object asked for', () => {
  let objects: ClusterObjects;
  let custom: CustomObjectsApi;
  let proxy: AnswerProxy;
  const providers: NodeGroupProvider[] = [];

  beforeAll(async () => {
    await env.installCRDs([crds, templateCrd]);
    objects = new ClusterObjects(env.kubeConfig, 'cluster.x-k8s.io/v1alpha2', env.namespace);
    custom = env.kubeConfig.makeApiClient(CustomObjectsApi);
    proxy = await startAnswerProxy(env.kubeConfig);
  });

  afterEach(() => proxy.rewrite(undefined));

  afterAll(async () => {
    await Promise.all(providers.map((p) => p.stop()));
    await proxy?.close();
  });

  async function provider() {
    const created = await createNodeGroupProvider({
      management: proxy.kubeConfig,
      workload: env.kubeConfig,
      apiVersion: 'cluster.x-k8s.io/v1alpha2',
      autoDiscovery: [`clusterapi:namespace=${env.namespace}`],
      leaseGuard: false,
    });
    providers.push(created);
    return created;
  }

  /** A MachineDeployment of `size` Machines (min 0, max 5), each with its Node. */
  const group = (size: number) => groupWithNodes(objects, env.kubeConfig, size);

  async function nodeGroupOf(id: string) {
    const p = await provider();
    const found = p.nodeGroups().find((g) => g.id === id);
    if (found === undefined) throw new Error(`no node group ${id}`);
    return found;
  }

  async function rejection(promise: Promise<unknown>): Promise<NodeGroupError> {
    const error = await promise.then(
      (value: unknown) => ({ resolved: value }),
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(NodeGroupError);
    return error as NodeGroupError;
  }

  const base = () => `/apis/cluster.x-k8s.io/v1alpha2/namespaces/${env.namespace}`;

  const annotationsOf = async (machine: Created) =>
    ((await objects.get('Machine', machine.metadata.name)).metadata.annotations ?? {}) as Json;

  describe('the scale subresource', () => {
    const other = unique('other-md');
    beforeAll(async () => {
      await objects.machineDeployment(other, 1, {});
    });

    it.each<[string, string, (served: unknown) => AnswerReplacement]>([
      ['an empty object', 'metadata', () => json({})],
      ['an HTML page', '', () => html],
      [
        "another MachineDeployment's scale",
        'metadata.name',
        (served) => withMetadata(served, (m) => ({ ...m, name: other })),
      ],
      [
        'the MachineDeployment itself, not its scale',
        'apiVersion',
        (served) =>
          json({ ...(served as Json), apiVersion: 'cluster.x-k8s.io/v1alpha2', kind: 'MachineDeployment' }),
      ],
      [
        'a scale without a resourceVersion',
        'metadata.resourceVersion',
        (served) => withMetadata(served, ({ resourceVersion: _, ...m }) => m),
      ],
      [
        'a negative spec.replicas',
        'spec.replicas',
        (served) => json({ ...(served as Json), spec: { replicas: -1 } }),
      ],
      [
        'a spec.replicas as a string',
        'spec.replicas',
        (served) => json({ ...(served as Json), spec: { replicas: '3' } }),
      ],
      [
        'a fractional spec.replicas',
        'spec.replicas',
        (served) => json({ ...(served as Json), spec: { replicas: 2.5 } }),
      ],
      [
        'a status.replicas as a string',
        'status.replicas',
        (served) =>
          json({ ...(served as Json), status: { ...((served as Json).status as Json), replicas: 'three' } }),
      ],
    ])('increaseSize with %s for the scale refuses and writes nothing', async (_, path, answer) => {
      const g = await group(3);
      const ng = await nodeGroupOf(g.id);
      proxy.rewrite({ method: 'GET', path: g.scalePath, answer: (served) => answer(served.json) });
      const error = await rejection(ng.increaseSize(1));
      proxy.rewrite(undefined);
      expect(error.code).toBe('api-error');
      expect(error.message).toMatch(
        new RegExp(
          `^get scale of MachineDeployment ${env.namespace}/${g.name}: the API server's answer is not the Scale asked for: ${
            path === '' ? 'the answer' : path.replaceAll('.', '\\.')
          } is `,
        ),
      );
      expect(error.path).toBe(path === '' ? undefined : path);
      expect(await objects.replicas('MachineDeployment', g.name)).toBe(3);
    });

    it('deleteNodes with a negative spec.replicas for the scale refuses and writes nothing', async () => {
      const g = await group(2);
      const ng = await nodeGroupOf(g.id);
      proxy.rewrite({
        method: 'GET',
        path: g.scalePath,
        answer: (served) => json({ ...(served.json as Json), spec: { replicas: -1 } }),
      });
      const error = await rejection(ng.deleteNodes([g.nodes[0]!]));
      expect([error.code, error.path]).toEqual(['api-error', 'spec.replicas']);
      expect(await objects.replicas('MachineDeployment', g.name)).toBe(2);
      expect(await annotationsOf(g.machines[0]!)).toEqual({});
    });

    it('an honest scale without spec.replicas is 0, as cluster-autoscaler reads it; an empty answer is an error, not 0', async () => {
      // (the API server omits a Scale's spec.replicas at 0; a group at zero needs capacity)
      const name = unique('md');
      await objects.machineDeployment(name, 0, {
        ...objects.bounds(0, 5),
        'capacity.cluster-autoscaler.kubernetes.io/cpu': '2',
        'capacity.cluster-autoscaler.kubernetes.io/memory': '8Gi',
      });
      const ng = await nodeGroupOf(`MachineDeployment/${env.namespace}/${name}`);
      expect(await ng.targetSize()).toBe(0);
      proxy.rewrite({
        method: 'GET',
        path: `${base()}/machinedeployments/${name}/scale`,
        answer: () => json({}),
      });
      const error = await rejection(ng.targetSize());
      proxy.rewrite(undefined);
      expect([error.code, error.path]).toEqual(['api-error', 'metadata']);
      await ng.increaseSize(2);
      expect(await objects.replicas('MachineDeployment', name)).toBe(2);
    });
  });

  describe("the Machine's re-read before it is marked", () => {
    it.each<[string, string, (served: unknown, g: Awaited<ReturnType<typeof group>>) => AnswerReplacement]>([
      ['an empty object', 'metadata', () => json({})],
      ['an HTML page', '', () => html],
      [
        'the Machine under another name (its uid kept)',
        'metadata.name',
        (served, g) => withMetadata(served, (m) => ({ ...m, name: g.machines[1]!.metadata.name })),
      ],
      [
        'the Machine in another namespace',
        'metadata.namespace',
        (served) => withMetadata(served, (m) => ({ ...m, namespace: 'default' })),
      ],
      ['another kind', 'kind', (served) => json({ ...(served as Json), kind: 'MachineSet' })],
      [
        'the Machine without a resourceVersion',
        'metadata.resourceVersion',
        (served) => withMetadata(served, ({ resourceVersion: _, ...m }) => m),
      ],
    ])('deleteNodes with %s for the Machine refuses and writes nothing', async (_, path, answer) => {
      const g = await group(2);
      const ng = await nodeGroupOf(g.id);
      const target = g.machines[0]!;
      proxy.rewrite({
        method: 'GET',
        path: g.machinePath(target),
        answer: (served) => answer(served.json, g),
      });
      const error = await rejection(ng.deleteNodes([g.nodes[0]!]));
      proxy.rewrite(undefined);
      expect(error.code).toBe('api-error');
      expect(error.message).toMatch(
        new RegExp(
          `^get Machine ${env.namespace}/${target.metadata.name}: the API server's answer is not the Machine asked for: ${
            path === '' ? 'the answer' : path.replaceAll('.', '\\.')
          } is `,
        ),
      );
      expect(await objects.replicas('MachineDeployment', g.name)).toBe(2);
      for (const machine of g.machines) expect(await annotationsOf(machine)).toEqual({});
    });
  });

  describe('the infrastructure template', () => {
    const at = (name: string) => ({
      group: templateGroup,
      version: templateVersion,
      namespace: env.namespace,
      plural: templatePlural,
      name,
    });

    async function template(cpu: string): Promise<Json> {
      const name = unique('tmpl');
      const created = (await custom.createNamespacedCustomObject({
        ...at(name),
        body: {
          apiVersion: `${templateGroup}/${templateVersion}`,
          kind: templateKind,
          metadata: { name },
          spec: {},
        },
      })) as Json;
      return (await custom.replaceNamespacedCustomObjectStatus({
        ...at(name),
        body: { ...created, status: { capacity: { cpu, memory: '8Gi' } } },
      })) as Json;
    }

    async function scaledToZero(templateName: string) {
      const name = unique('md');
      await objects.create('MachineDeployment', {
        metadata: { name, annotations: objects.bounds(0, 5) },
        spec: {
          replicas: 0,
          selector: { matchLabels: { set: name } },
          template: {
            metadata: { labels: { set: name } },
            spec: {
              bootstrap: { data: 'ZWNobw==' },
              infrastructureRef: {
                apiVersion: `${templateGroup}/${templateVersion}`,
                kind: templateKind,
                name: templateName,
              },
            },
          },
        },
      });
      return `MachineDeployment/${env.namespace}/${name}`;
    }

    it.each<[string, string, (other: Json) => AnswerReplacement]>([
      ['another template (another capacity)', 'metadata.name', (other) => json(other)],
      ['an empty object', 'metadata', () => json({})],
      ['an HTML page', '', () => html],
    ])('templateNode with %s for the template refuses', async (_, path, answer) => {
      const asked = await template('2');
      const other = await template('64');
      const name = (asked.metadata as Json).name as string;
      const ng = await nodeGroupOf(await scaledToZero(name));
      expect((await ng.templateNode())?.status.capacity.cpu).toBe('2');
      proxy.rewrite({
        method: 'GET',
        path: `/apis/${templateGroup}/${templateVersion}/namespaces/${env.namespace}/${templatePlural}/${name}`,
        answer: () => answer(other),
      });
      const error = await rejection(ng.templateNode());
      proxy.rewrite(undefined);
      expect(error.code).toBe('api-error');
      expect(error.message).toMatch(
        new RegExp(
          `^get ${templateKind} ${env.namespace}/${name}: the API server's answer is not the ${templateKind} asked for: ${
            path === '' ? 'the answer' : path.replaceAll('.', '\\.')
          } is `,
        ),
      );
    });

    it.each<[string, string, AnswerReplacement]>([
      ['an empty object', 'groups', json({})],
      // (client-node reads an HTML page as a list without groups)
      ['an HTML page', 'groups', html],
    ])(
      'the API group list answered with %s (a reference by apiGroup) is an api-error, not "not served" (404)',
      async (_, path, answer) => {
        // (the v1alpha2 CRDs served here prune apiGroup from a stored reference: the
        // MachineDeployment is given to readTemplateStatus as it would come from the cache)
        const asked = await template('2');
        const name = (asked.metadata as Json).name as string;
        const api = new ManagementApi(proxy.kubeConfig, {
          group: 'cluster.x-k8s.io',
          version: 'v1alpha2',
          apiVersion: 'cluster.x-k8s.io/v1alpha2',
          machineDeployments: true,
        });
        const md = {
          apiVersion: 'cluster.x-k8s.io/v1alpha2',
          kind: 'MachineDeployment',
          metadata: { name: unique('md'), namespace: env.namespace },
          spec: {
            template: { spec: { infrastructureRef: { apiGroup: templateGroup, kind: templateKind, name } } },
          },
        };
        const honest = await readTemplateStatus(api, 'MachineDeployment', md);
        expect(honest).toMatchObject({ state: 'found', status: { capacity: { cpu: '2' } } });
        proxy.rewrite({ method: 'GET', path: '/apis', answer: () => answer });
        const read = await readTemplateStatus(api, 'MachineDeployment', md);
        proxy.rewrite(undefined);
        expect(read.state).toBe('unreadable');
        const error = (read as { error: NodeGroupError }).error;
        // (a 404 is a template not found, which templateNode passes over: no status here)
        expect([error.code, error.details.status]).toEqual(['api-error', undefined]);
        expect(error.message).toBe(
          `get ${templateKind} ${env.namespace}/${name}: discover the preferred version of ${templateGroup}: ` +
            `the API server's answer is not the APIGroupList asked for: ${path} is absent, expected a list`,
        );
      },
    );
  });
});
