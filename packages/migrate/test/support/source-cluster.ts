import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { readManifest } from '@capi-kit/core/manifest';
import { awsConversionPlugin } from '@capi-kit/providers-aws';
import {
  CustomObjectsApi,
  type KubeConfig,
  type KubernetesObject,
  KubernetesObjectApi,
  PatchStrategy,
  setHeaderOptions,
} from '@kubernetes/client-node';
import * as E from 'fp-ts/lib/Either.js';
import type { MigrationOptions, Write } from '../../src/index.js';

// A v0.1 management cluster as the v0.1 controllers leave it: a Cluster with status, a
// MachineDeployment owning a MachineSet owning worker Machines (finalizers, providerIDs,
// nodeRefs, addresses), a control-plane Machine, and the provider-created kubeconfig Secret
// owned by the v1alpha1 Cluster. Written with client-node directly, not with the code under test.

export const root = join(import.meta.dirname, '../../../..');
export const crdDirs = [
  'v1alpha1',
  'v1alpha2',
  'providers/aws/v1alpha2',
  'providers/vsphere/v1alpha2',
  'providers/kubeadm-bootstrap/v1alpha2',
].map((dir) => join(root, 'testdata/crds', dir));

type Obj = Record<string, unknown> & { metadata: Record<string, unknown> };
const V1ALPHA1 = 'cluster.k8s.io/v1alpha1';

function exampleDocuments(file: string): Obj[] {
  const read = readManifest(readFileSync(join(root, 'examples', file), 'utf8'));
  if (E.isLeft(read)) throw new Error(`examples/${file} does not read`);
  return read.right.flatMap((d) => {
    const v = d.value as Obj & { items?: Obj[] };
    return Array.isArray(v.items) ? v.items : [v];
  });
}

/** The providerSpec values of one provider's example: the Cluster's, a control plane's and a worker's. */
function providerSpecs(provider: 'aws' | 'vsphere') {
  const docs = exampleDocuments(`${provider}-v1alpha1.yaml`);
  const cluster = docs.find((d) => d.kind === 'Cluster')!;
  const controlPlane = docs.find((d) => d.kind === 'Machine')!;
  const workers = docs.find((d) => d.kind === 'MachineDeployment' || d.kind === 'MachineSet')!;
  const spec = (o: Obj) => o.spec as Record<string, unknown>;
  const template = spec(workers).template as { spec: Record<string, unknown> };
  return {
    cluster: spec(cluster).providerSpec,
    clusterNetwork: spec(cluster).clusterNetwork,
    controlPlane: spec(controlPlane).providerSpec,
    worker: template.spec.providerSpec,
  };
}

/** A JSON merge patch (RFC 7386) of the object the body names, as `kubectl patch --type merge`. */
export async function mergePatchAs(kubeConfig: KubeConfig, body: Record<string, unknown>): Promise<void> {
  await KubernetesObjectApi.makeApiClient(kubeConfig).patch(
    body as KubernetesObject,
    undefined,
    undefined,
    undefined,
    undefined,
    PatchStrategy.MergePatch,
  );
}

/**
 * Every object of a kind in a namespace, as plain JSON. A 429 while the server (re)initializes
 * a CRD's storage (the first request for a kind) is retried, as kubectl would.
 */
export async function listObjects(
  kubeConfig: KubeConfig,
  apiVersion: string,
  kind: string,
  namespace: string,
): Promise<Obj[]> {
  const client = KubernetesObjectApi.makeApiClient(kubeConfig);
  for (let attempt = 1; ; attempt++) {
    try {
      const page = await client.list(apiVersion, kind, namespace);
      return JSON.parse(JSON.stringify(page.items)) as Obj[];
    } catch (error) {
      if ((error as { code?: number }).code !== 429 || attempt >= 20) throw error;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
}

export interface SourceCluster {
  readonly name: string;
  readonly namespace: string;
  readonly workers: readonly string[];
  /** Every v1alpha1 object created, for counting. */
  readonly objects: number;
}

export interface SeedOptions {
  readonly provider: 'aws' | 'vsphere';
  readonly name: string;
  readonly workers?: number;
}

/** Creates a live v1alpha1 cluster in `namespace` and writes the status its controllers would have. */
export async function seedSourceCluster(
  kubeConfig: KubeConfig,
  namespace: string,
  options: SeedOptions,
): Promise<SourceCluster> {
  const objects = KubernetesObjectApi.makeApiClient(kubeConfig);
  const custom = kubeConfig.makeApiClient(CustomObjectsApi);
  const specs = providerSpecs(options.provider);
  const name = options.name;
  const label = { 'cluster.k8s.io/cluster-name': name };
  const create = async (body: Obj, status?: Record<string, unknown>): Promise<Obj> => {
    const created = JSON.parse(JSON.stringify(await objects.create(body as KubernetesObject))) as Obj;
    if (status !== undefined) {
      const plural = `${String(body.kind).toLowerCase()}s`;
      await custom.patchNamespacedCustomObjectStatus(
        {
          group: 'cluster.k8s.io',
          version: 'v1alpha1',
          namespace,
          plural,
          name: String(body.metadata.name),
          body: { status },
        },
        setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
      );
    }
    return created;
  };
  const ownedBy = (owner: Obj, controller = true) => ({
    apiVersion: V1ALPHA1,
    kind: owner.kind,
    name: owner.metadata.name,
    uid: owner.metadata.uid,
    controller,
    blockOwnerDeletion: true,
  });

  const cluster = await create(
    {
      apiVersion: V1ALPHA1,
      kind: 'Cluster',
      metadata: { name, namespace, finalizers: ['cluster.cluster.k8s.io'] },
      spec: { clusterNetwork: specs.clusterNetwork, providerSpec: specs.cluster },
    },
    { apiEndpoints: [{ host: '10.0.0.10', port: 6443 }], providerStatus: { ready: true } },
  );
  const machineStatus = (node: string, ip: string) => ({
    nodeRef: { kind: 'Node', name: node, uid: `node-uid-${node}` },
    addresses: [{ type: 'InternalIP', address: ip }],
    phase: 'Running',
    lastUpdated: '2019-10-01T10:00:00Z',
    providerStatus: { instanceState: 'running' },
  });
  await create(
    {
      apiVersion: V1ALPHA1,
      kind: 'Machine',
      metadata: {
        name: `${name}-controlplane-0`,
        namespace,
        labels: { ...label, set: 'controlplane' },
        finalizers: ['machine.cluster.k8s.io'],
        ownerReferences: [ownedBy(cluster, false)],
      },
      spec: {
        providerID: providerID(options.provider, 0),
        versions: { kubelet: 'v1.14.4', controlPlane: 'v1.14.4' },
        providerSpec: specs.controlPlane,
      },
    },
    machineStatus(`${name}-cp-0`, '10.0.1.10'),
  );
  const selector = { ...label, set: 'node' };
  const template = {
    metadata: { labels: selector },
    spec: { versions: { kubelet: 'v1.14.4' }, providerSpec: specs.worker },
  };
  const workerCount = options.workers ?? 2;
  const deployment = await create(
    {
      apiVersion: V1ALPHA1,
      kind: 'MachineDeployment',
      metadata: {
        name: `${name}-workers`,
        namespace,
        labels: label,
        ownerReferences: [ownedBy(cluster, false)],
      },
      spec: { replicas: workerCount, selector: { matchLabels: selector }, template },
    },
    {
      replicas: workerCount,
      readyReplicas: workerCount,
      availableReplicas: workerCount,
      updatedReplicas: workerCount,
      observedGeneration: 1,
    },
  );
  const machineSet = await create(
    {
      apiVersion: V1ALPHA1,
      kind: 'MachineSet',
      metadata: {
        name: `${name}-workers-5d8f`,
        namespace,
        labels: selector,
        ownerReferences: [ownedBy(deployment)],
      },
      spec: { replicas: workerCount, selector: { matchLabels: selector }, template },
    },
    {
      replicas: workerCount,
      readyReplicas: workerCount,
      availableReplicas: workerCount,
      fullyLabeledReplicas: workerCount,
    },
  );
  const workers: string[] = [];
  for (let i = 0; i < workerCount; i++) {
    const worker = `${name}-workers-5d8f-${String(i).padStart(3, '0')}`;
    workers.push(worker);
    await create(
      {
        apiVersion: V1ALPHA1,
        kind: 'Machine',
        metadata: {
          name: worker,
          namespace,
          labels: selector,
          finalizers: ['machine.cluster.k8s.io'],
          ownerReferences: [ownedBy(machineSet)],
        },
        spec: { ...template.spec, providerID: providerID(options.provider, i + 1) },
      },
      machineStatus(`${name}-node-${i}`, `10.0.2.${10 + i}`),
    );
  }
  await objects.create({
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { name: `${name}-kubeconfig`, namespace, ownerReferences: [ownedBy(cluster, false)] },
    stringData: { value: `apiVersion: v1\nkind: Config\nclusters: []\n# ${name}\n` },
  } as KubernetesObject);
  return { name, namespace, workers, objects: 4 + workerCount };
}

function providerID(provider: 'aws' | 'vsphere', index: number): string {
  return provider === 'aws'
    ? `aws:///eu-west-1a/i-0${String(index).padStart(16, '0')}`
    : `vsphere://4207${String(index).padStart(4, '0')}-0000-0000-0000-000000000000`;
}

/** The options the migration tests run with: one namespace, the AWS plug-in, and an optional write hook. */
export function awsMigrationOptions(
  kubeConfig: KubeConfig,
  namespace: string,
  afterWrite?: (write: Write) => void,
): MigrationOptions {
  return {
    kubeConfig,
    scope: { namespace },
    plugins: [awsConversionPlugin],
    ...(afterWrite === undefined ? {} : { afterWrite }),
  };
}
