// Scale from zero from the infrastructure machine template's status (Cluster API's opt-in
// autoscaling from zero, as cluster-autoscaler's clusterapi provider reads it): a real API
// server serves Cluster API v1alpha2 and a small infrastructure template kind with a status
// subresource; the same cluster is the workload cluster (these tests need no Nodes).
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { noControlPlane, useControlPlane } from '@capi-kit/envtest/vitest';
import { CustomObjectsApi } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNodeGroupProvider, type NodeGroupError, type NodeGroupProvider } from '../src/index.js';
import { ClusterObjects, type Created, unique } from './helpers/cluster-objects.js';

const crdRoot = fileURLToPath(new URL('../../../testdata/crds/', import.meta.url));

const group = 'infrastructure.autoscaler-test.example';
const version = 'v1alpha1';
const kind = 'ScaleTestMachineTemplate';
// cluster-autoscaler's resource for a kind: lower-cased, plus "s".
const plural = 'scaletestmachinetemplates';

const templateCrd = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: `${plural}.${group}` },
  spec: {
    group,
    scope: 'Namespaced',
    names: { kind, listKind: `${kind}List`, plural, singular: plural.slice(0, -1) },
    versions: [
      {
        name: version,
        served: true,
        storage: true,
        subresources: { status: {} },
        schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } },
      },
    ],
  },
};

const cpuKey = 'capacity.cluster-autoscaler.kubernetes.io/cpu';
const memoryKey = 'capacity.cluster-autoscaler.kubernetes.io/memory';
const labelsKey = 'capacity.cluster-autoscaler.kubernetes.io/labels';

const env = useControlPlane();

describe.skipIf(noControlPlane())('scale from zero from the infrastructure template status', () => {
  let objects: ClusterObjects;
  let custom: CustomObjectsApi;
  const providers: NodeGroupProvider[] = [];

  beforeAll(async () => {
    await env.installCRDs([join(crdRoot, 'v1alpha2'), templateCrd]);
    objects = new ClusterObjects(env.kubeConfig, 'cluster.x-k8s.io/v1alpha2', env.namespace);
    custom = env.kubeConfig.makeApiClient(CustomObjectsApi);
  });

  afterAll(async () => {
    await Promise.all(providers.map((p) => p.stop()));
  });

  async function provider() {
    const created = await createNodeGroupProvider({
      management: env.kubeConfig,
      workload: env.kubeConfig,
      apiVersion: 'cluster.x-k8s.io/v1alpha2',
      autoDiscovery: [`clusterapi:namespace=${env.namespace}`],
      leaseGuard: false,
    });
    providers.push(created);
    return created;
  }

  /** Writes the template's status through the status subresource. */
  async function setStatus(name: string, status: Record<string, unknown>): Promise<void> {
    const at = { group, version, namespace: env.namespace, plural, name };
    const current = await custom.getNamespacedCustomObject(at);
    await custom.replaceNamespacedCustomObjectStatus({ ...at, body: { ...current, status } });
  }

  /** A template with this status. */
  async function template(status: Record<string, unknown>, name = unique('tmpl')): Promise<string> {
    await custom.createNamespacedCustomObject({
      group,
      version,
      namespace: env.namespace,
      plural,
      body: { apiVersion: `${group}/${version}`, kind, metadata: { name }, spec: {} },
    });
    await setStatus(name, status);
    return name;
  }

  /** A MachineDeployment at `replicas` whose machines are made from `infrastructureRef`. */
  function deployment(
    infrastructureRef: Record<string, unknown>,
    annotations: Record<string, string> = {},
    replicas = 0,
  ): Promise<Created> {
    const name = unique('md');
    return objects.create('MachineDeployment', {
      metadata: { name, annotations: { ...objects.bounds(0, 5), ...annotations } },
      spec: {
        replicas,
        selector: { matchLabels: { set: name } },
        template: {
          metadata: { labels: { set: name } },
          spec: { bootstrap: { data: 'ZWNobw==' }, infrastructureRef },
        },
      },
    });
  }

  const ref = (name: string) => ({ apiVersion: `${group}/${version}`, kind, name });
  const idOf = (o: Created) => `MachineDeployment/${env.namespace}/${o.metadata.name}`;
  const groupOf = (p: NodeGroupProvider, o: Created) => {
    const found = p.nodeGroups().find((g) => g.id === idOf(o));
    if (found === undefined) throw new Error(`no group ${idOf(o)} among ${p.nodeGroups().map((g) => g.id)}`);
    return found;
  };
  const rejection = (promise: Promise<unknown>) =>
    promise.then(
      () => {
        throw new Error('expected a rejection');
      },
      (error: unknown) => error as NodeGroupError,
    );

  it('a group at zero without annotations scales from the template status: capacity, arch and os', async () => {
    const name = await template({
      capacity: { cpu: '8', memory: '32Gi', 'ephemeral-storage': '100Gi', 'nvidia.com/gpu': '1' },
      nodeInfo: { architecture: 'arm64', operatingSystem: 'linux' },
    });
    const md = await deployment(ref(name));
    const p = await provider();
    expect(p.nodeGroups().map((g) => g.id)).toContain(idOf(md));
    const node = await groupOf(p, md).templateNode();
    expect(node).toEqual({
      apiVersion: 'v1',
      kind: 'Node',
      metadata: {
        name: `${md.metadata.name}-template`,
        labels: {
          'kubernetes.io/arch': 'arm64',
          'kubernetes.io/os': 'linux',
          'kubernetes.io/hostname': `${md.metadata.name}-template`,
        },
      },
      spec: {},
      status: {
        // pods is the annotations' maxPods, 110 when absent: it always overrides the template's.
        capacity: {
          cpu: '8',
          memory: '32Gi',
          'ephemeral-storage': '100Gi',
          'nvidia.com/gpu': '1',
          pods: '110',
        },
        allocatable: {
          cpu: '8',
          memory: '32Gi',
          'ephemeral-storage': '100Gi',
          'nvidia.com/gpu': '1',
          pods: '110',
        },
        conditions: [{ type: 'Ready', status: 'True' }],
      },
    });
  });

  it('the annotations override the template resource by resource, and the labels annotation overrides nodeInfo', async () => {
    const name = await template({
      capacity: { cpu: '8', memory: '32Gi', 'ephemeral-storage': '100Gi', pods: '250' },
      nodeInfo: { architecture: 'arm64', operatingSystem: 'windows' },
    });
    // cpu from the annotation; memory "0" is as absent, so the template's stays.
    const md = await deployment(ref(name), {
      [cpuKey]: '2',
      [memoryKey]: '0',
      [labelsKey]: 'kubernetes.io/os=linux,pool=a',
    });
    const p = await provider();
    const node = await groupOf(p, md).templateNode();
    expect(node?.status.capacity).toEqual({
      cpu: '2',
      memory: '32Gi',
      'ephemeral-storage': '100Gi',
      pods: '110',
    });
    expect(node?.metadata.labels).toEqual({
      'kubernetes.io/arch': 'arm64',
      'kubernetes.io/os': 'linux',
      'kubernetes.io/hostname': `${md.metadata.name}-template`,
      pool: 'a',
    });
  });

  it('a template that gives memory but no cpu: no group at zero; with a cpu annotation there is one', async () => {
    const name = await template({ capacity: { memory: '4Gi' } });
    const without = await deployment(ref(name));
    const withCpu = await deployment(ref(name), { [cpuKey]: '1' });
    const p = await provider();
    const ids = p.nodeGroups().map((g) => g.id);
    expect(ids).not.toContain(idOf(without));
    expect(ids).toContain(idOf(withCpu));
    expect((await groupOf(p, withCpu).templateNode())?.status.capacity).toEqual({
      cpu: '1',
      memory: '4Gi',
      pods: '110',
    });
  });

  it('a template that is not there: the annotations alone, and without them no template node', async () => {
    const missing = ref(unique('absent'));
    const annotated = await deployment(missing, { [cpuKey]: '4', [memoryKey]: '8Gi' });
    const bare = await deployment(missing);
    const bareAboveZero = await deployment(missing, {}, 1);
    const p = await provider();
    const ids = p.nodeGroups().map((g) => g.id);
    expect(ids).toContain(idOf(annotated));
    expect(ids).not.toContain(idOf(bare));
    const node = await groupOf(p, annotated).templateNode();
    expect(node?.status.capacity).toEqual({ cpu: '4', memory: '8Gi', pods: '110' });
    // No nodeInfo: the defaults.
    expect(node?.metadata.labels).toMatchObject({
      'kubernetes.io/arch': 'amd64',
      'kubernetes.io/os': 'linux',
    });
    expect(await groupOf(p, bareAboveZero).templateNode()).toBeNull();
    // A 404 is no problem to report: the provider may not implement the proposal.
    const mine = [annotated, bare, bareAboveZero].map(
      (o) => `MachineDeployment ${env.namespace}/${o.metadata.name}`,
    );
    expect(p.problems().filter((x) => mine.includes(x.object))).toEqual([]);

    // Once the template is there, the bare group at zero is a group (at the next refresh).
    await template({ capacity: { cpu: '1', memory: '1Gi' } }, missing.name);
    await p.refresh();
    expect(p.nodeGroups().map((g) => g.id)).toContain(idOf(bare));
    expect((await groupOf(p, bareAboveZero).templateNode())?.status.capacity).toEqual({
      cpu: '1',
      memory: '1Gi',
      pods: '110',
    });
  });

  it('without get on the template kind (403): the annotations alone, and a problem naming the template', async () => {
    const name = await template({
      capacity: { cpu: '8', memory: '32Gi' },
      nodeInfo: { architecture: 'arm64' },
    });
    const annotated = await deployment(ref(name), { [cpuKey]: '4', [memoryKey]: '8Gi' });
    const bare = await deployment(ref(name));
    const user = unique('autoscaler');
    // What the provider needs without the lease guard, and nothing on the template kind.
    await env.grant(user, [
      {
        apiGroups: ['cluster.x-k8s.io'],
        resources: ['machines', 'machinesets', 'machinedeployments'],
        verbs: ['get', 'list', 'watch'],
      },
      { apiGroups: [''], resources: ['nodes'], verbs: ['get', 'list', 'watch'] },
    ]);
    const restricted = await env.kubeConfigFor(user);
    const p = await createNodeGroupProvider({
      management: restricted,
      workload: restricted,
      apiVersion: 'cluster.x-k8s.io/v1alpha2',
      autoDiscovery: [`clusterapi:namespace=${env.namespace}`],
      leaseGuard: false,
    });
    providers.push(p);
    const ids = p.nodeGroups().map((g) => g.id);
    expect(ids).toContain(idOf(annotated));
    expect(ids).not.toContain(idOf(bare));
    const node = await groupOf(p, annotated).templateNode();
    expect(node?.status.capacity).toEqual({ cpu: '4', memory: '8Gi', pods: '110' });
    expect(node?.metadata.labels['kubernetes.io/arch']).toBe('amd64');
    // (this file's other groups at zero are in the namespace too: only this one's template is asked about)
    const unreadable = p
      .problems()
      .filter(
        (x) => x.code === 'infrastructure-template-unreadable' && x.object.endsWith(`/${bare.metadata.name}`),
      );
    expect(unreadable).toEqual([
      {
        code: 'infrastructure-template-unreadable',
        object: `MachineDeployment ${env.namespace}/${bare.metadata.name}`,
        message: expect.stringContaining(`get ${kind} ${env.namespace}/${name}: `),
      },
    ]);
    expect(unreadable[0]!.message).toContain('(HTTP 403)');

    // The RBAC a user needs: get on the template kind, in the groups' namespaces.
    await env.grant(user, [{ apiGroups: [group], resources: [plural], verbs: ['get'] }], {
      namespace: env.namespace,
      name: `${user}-templates`,
    });
    await p.refresh();
    expect(p.nodeGroups().map((g) => g.id)).toContain(idOf(bare));
    expect((await groupOf(p, annotated).templateNode())?.metadata.labels['kubernetes.io/arch']).toBe('arm64');
    expect(p.problems().filter((x) => x.object.endsWith(`/${bare.metadata.name}`))).toEqual([]);
  });

  it('a template status that does not parse is an error naming the field, never a capacity', async () => {
    const cases: [Record<string, unknown>, string, string][] = [
      [
        { capacity: { cpu: 4, memory: '8Gi' } },
        'status.capacity.cpu',
        'expected a quantity as a string, got number',
      ],
      [{ capacity: { cpu: '4', memory: '8 GB' } }, 'status.capacity.memory', '"8 GB": not a quantity'],
      [{ capacity: ['cpu'] }, 'status.capacity', 'expected a map of quantities, got array'],
      [
        { capacity: { cpu: '4', memory: '8Gi' }, nodeInfo: { architecture: 64 } },
        'status.nodeInfo.architecture',
        'expected a string, got number',
      ],
    ];
    const made: { md: Created; above: Created; path: string; why: string; template: string }[] = [];
    for (const [status, path, why] of cases) {
      const name = await template(status);
      made.push({
        md: await deployment(ref(name)),
        above: await deployment(ref(name), {}, 1),
        path,
        why,
        template: name,
      });
    }
    const p = await provider();
    const ids = p.nodeGroups().map((g) => g.id);
    const problems = p.problems().filter((x) => x.code === 'invalid-infrastructure-template');
    for (const { md, above, path, why, template: name } of made) {
      // At zero: no group (its capacity is unknown), and a problem saying why.
      expect(ids).not.toContain(idOf(md));
      expect(problems).toContainEqual(
        expect.objectContaining({
          object: `MachineDeployment ${env.namespace}/${md.metadata.name}`,
          path,
          message: expect.stringContaining(`${kind} ${env.namespace}/${name}: ${path}: ${why}`),
        }),
      );
      // Above zero: the group's template node is the error.
      const error = await rejection(groupOf(p, above).templateNode());
      expect(error).toMatchObject({ code: 'invalid-infrastructure-template', path });
      expect(error.message).toContain(`MachineDeployment ${env.namespace}/${above.metadata.name}: `);
      expect(error.message).toContain(`${path}: ${why}`);
    }
  });

  it('a reference that is not well formed is an error naming the field', async () => {
    const name = await template({ capacity: { cpu: '4', memory: '8Gi' } });
    const cases: [Record<string, unknown>, string, string][] = [
      [{ apiVersion: `${group}/${version}`, kind }, 'spec.template.spec.infrastructureRef.name', 'missing'],
      [{ apiVersion: `${group}/${version}`, name }, 'spec.template.spec.infrastructureRef.kind', 'missing'],
      [{ kind, name }, 'spec.template.spec.infrastructureRef.apiVersion', 'missing'],
      [
        { ...ref(name), namespace: 'elsewhere' },
        'spec.template.spec.infrastructureRef.namespace',
        `"elsewhere" is not the group's namespace "${env.namespace}"`,
      ],
    ];
    const made: { md: Created; path: string; why: string }[] = [];
    for (const [reference, path, why] of cases)
      made.push({ md: await deployment(reference, {}, 1), path, why });
    const p = await provider();
    for (const { md, path, why } of made) {
      const error = await rejection(groupOf(p, md).templateNode());
      expect(error).toMatchObject({ code: 'invalid-infrastructure-template', path });
      expect(error.message).toContain(
        `MachineDeployment ${env.namespace}/${md.metadata.name}: invalid infrastructure template reference: ${path}: ${why}`,
      );
      expect(p.problems()).toContainEqual(
        expect.objectContaining({
          code: 'invalid-infrastructure-template',
          object: `MachineDeployment ${env.namespace}/${md.metadata.name}`,
          path,
        }),
      );
    }
  });

  it('a group at zero becomes a group at the next refresh once its template publishes a capacity', async () => {
    const name = await template({});
    const md = await deployment(ref(name));
    const p = await provider();
    expect(p.nodeGroups().map((g) => g.id)).not.toContain(idOf(md));
    await setStatus(name, { capacity: { cpu: '2', memory: '2Gi' } });
    await p.refresh();
    expect(p.nodeGroups().map((g) => g.id)).toContain(idOf(md));
    expect((await groupOf(p, md).templateNode())?.status.capacity).toEqual({
      cpu: '2',
      memory: '2Gi',
      pods: '110',
    });
  });
});
