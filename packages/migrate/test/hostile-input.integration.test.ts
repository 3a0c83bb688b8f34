import { noControlPlane, useControlPlane } from '@capi-kit/envtest/vitest';
import { awsConversionPlugin } from '@capi-kit/providers-aws';
import { type KubernetesObject, KubernetesObjectApi } from '@kubernetes/client-node';
import * as E from 'fp-ts/lib/Either.js';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  applyClusterMigration,
  type MigrationOptions,
  planClusterMigration,
  pruneClusterMigration,
  verifyClusterMigration,
} from '../src/index.js';
import { crdDirs, seedSourceCluster } from './support/source-cluster.js';

// v1alpha1 objects are written by whoever may write them: what they say must not crash a
// migration half way, nor stop verify with what looks like an API error.

const env = useControlPlane();
const V1ALPHA1 = 'cluster.k8s.io/v1alpha1';
type Reference = { apiVersion: string; kind: string; name: string; uid: string };
type Obj = KubernetesObject & { metadata: { name: string; uid: string; ownerReferences?: Reference[] } };

function options(namespace: string): MigrationOptions {
  return { kubeConfig: env.kubeConfig, scope: { namespace }, plugins: [awsConversionPlugin] };
}

const client = () => KubernetesObjectApi.makeApiClient(env.kubeConfig);

function read(kind: string, name: string, namespace: string): Promise<Obj> {
  return client().read({ apiVersion: V1ALPHA1, kind, metadata: { name, namespace } }) as Promise<Obj>;
}

/** Adds ownerReferences to a v1alpha1 object, as anyone who may patch it can (a JSON merge patch). */
async function addOwners(object: Obj, references: Reference[]): Promise<void> {
  await client().patch(
    {
      apiVersion: V1ALPHA1,
      kind: object.kind,
      metadata: {
        name: object.metadata.name,
        namespace: object.metadata.namespace,
        ownerReferences: [...(object.metadata.ownerReferences ?? []), ...references],
      },
    } as KubernetesObject,
    undefined,
    undefined,
    undefined,
    undefined,
    'application/merge-patch+json',
  );
}

const referenceTo = (owner: Obj): Reference => ({
  apiVersion: V1ALPHA1,
  kind: String(owner.kind),
  name: owner.metadata.name,
  uid: owner.metadata.uid,
});

describe.skipIf(noControlPlane())('migrate with hostile v1alpha1 objects', () => {
  beforeAll(async () => {
    for (const dir of crdDirs) await env.installCRDs(dir);
  });

  it('an ownerReference to an owner created later (or to itself) is dropped with a warning; apply finishes', async () => {
    const namespace = await env.createNamespace('migrate-hostile');
    const source = await seedSourceCluster(env.kubeConfig, namespace, {
      provider: 'aws',
      name: 'loop',
      workers: 1,
    });
    const deployment = await read('MachineDeployment', `${source.name}-workers`, namespace);
    const machineSet = await read('MachineSet', `${source.name}-workers-5d8f`, namespace);
    const machine = await read('Machine', `${source.name}-controlplane-0`, namespace);
    // The MachineDeployment owned by its own MachineSet; a Machine owned by itself.
    await addOwners(deployment, [referenceTo(machineSet)]);
    await addOwners(machine, [referenceTo(machine)]);

    const applied = await applyClusterMigration(options(namespace));
    if (E.isLeft(applied)) throw new Error(JSON.stringify(applied.left));
    expect(applied.right.warnings).toEqual(
      expect.arrayContaining([
        `MachineDeployment ${namespace}/${source.name}-workers: owner MachineSet ${namespace}/${source.name}-workers-5d8f is not created before it; its ownerReference is dropped`,
        `Machine ${namespace}/${source.name}-controlplane-0: owner Machine ${namespace}/${source.name}-controlplane-0 is not created before it; its ownerReference is dropped`,
      ]),
    );
    expect(applied.right.created).toHaveLength(applied.right.plan.objects.length);
    const verified = await verifyClusterMigration(options(namespace));
    if (E.isLeft(verified)) throw new Error(JSON.stringify(verified.left));
    expect(verified.right.differences).toEqual([]);
  });

  it("an ownerReference kept as it is (not a Cluster API owner) is not verify's to judge, even in the target's group", async () => {
    const namespace = await env.createNamespace('migrate-hostile');
    const source = await seedSourceCluster(env.kubeConfig, namespace, {
      provider: 'aws',
      name: 'odd',
      workers: 1,
    });
    const machine = await read('Machine', source.workers[0]!, namespace);
    await addOwners(machine, [
      {
        apiVersion: 'cluster.x-k8s.io/v1alpha2',
        kind: 'NoSuchKind',
        name: 'anything',
        uid: '00000000-0000-0000-0000-000000000000',
      },
    ]);
    const applied = await applyClusterMigration(options(namespace));
    if (E.isLeft(applied)) throw new Error(JSON.stringify(applied.left));
    const verified = await verifyClusterMigration(options(namespace));
    if (E.isLeft(verified)) throw new Error(JSON.stringify(verified.left));
    expect(verified.right.differences).toEqual([]);
  });

  it('an ownerReference to a v1alpha1 object that is not migrated (a MachineClass) is dropped with a warning, not left for prune to dangle', async () => {
    const namespace = await env.createNamespace('migrate-hostile');
    const source = await seedSourceCluster(env.kubeConfig, namespace, {
      provider: 'aws',
      name: 'classy',
      workers: 1,
    });
    const machineClass = (await client().create({
      apiVersion: V1ALPHA1,
      kind: 'MachineClass',
      metadata: { name: 'owner-class', namespace },
      providerSpec: { instanceType: 't3.large' },
    } as KubernetesObject)) as Obj;
    const machine = await read('Machine', source.workers[0]!, namespace);
    await addOwners(machine, [referenceTo(machineClass)]);
    const applied = await applyClusterMigration(options(namespace));
    if (E.isLeft(applied)) throw new Error(JSON.stringify(applied.left));
    const verified = await verifyClusterMigration(options(namespace));
    if (E.isLeft(verified)) throw new Error(JSON.stringify(verified.left));
    expect(verified.right.differences).toEqual([]);
    expect(applied.right.warnings).toContain(
      `Machine ${namespace}/${source.workers[0]}: owner MachineClass ${namespace}/owner-class of ${V1ALPHA1} is not migrated; its ownerReference is dropped`,
    );
  });

  it("an ownerReference naming a migrated owner's name with another object's UID (another namespace's) is dropped with a warning, not rebuilt onto that owner", async () => {
    const namespace = await env.createNamespace('migrate-hostile');
    const other = await env.createNamespace('migrate-hostile');
    const source = await seedSourceCluster(env.kubeConfig, namespace, {
      provider: 'aws',
      name: 'twin',
      workers: 1,
    });
    await seedSourceCluster(env.kubeConfig, other, { provider: 'aws', name: 'twin', workers: 1 });
    // The control-plane Machine of one namespace names the other namespace's MachineSet of
    // the same name: an ownerReference has no namespace, and this one dangles.
    const foreign = await read('MachineSet', `${source.name}-workers-5d8f`, other);
    const machine = await read('Machine', `${source.name}-controlplane-0`, namespace);
    await addOwners(machine, [referenceTo(foreign)]);

    const applied = await applyClusterMigration(options(namespace));
    if (E.isLeft(applied)) throw new Error(JSON.stringify(applied.left));
    expect(applied.right.warnings).toContain(
      `Machine ${namespace}/${source.name}-controlplane-0: ownerReference to MachineSet ${namespace}/${source.name}-workers-5d8f names uid ${foreign.metadata.uid}, not that owner's (${(await read('MachineSet', `${source.name}-workers-5d8f`, namespace)).metadata.uid}): it owns nothing here; its ownerReference is dropped`,
    );
    const migrated = (await client().read({
      apiVersion: 'cluster.x-k8s.io/v1alpha2',
      kind: 'Machine',
      metadata: { name: `${source.name}-controlplane-0`, namespace },
    })) as Obj;
    expect((migrated.metadata.ownerReferences ?? []).filter((r) => r.kind === 'MachineSet')).toEqual([]);
    // The worker, really owned by this namespace's MachineSet, keeps its owner.
    const worker = (await client().read({
      apiVersion: 'cluster.x-k8s.io/v1alpha2',
      kind: 'Machine',
      metadata: { name: source.workers[0]!, namespace },
    })) as Obj;
    expect(
      worker.metadata.ownerReferences
        ?.filter((r) => r.kind === 'MachineSet')
        .map((r) => `${r.kind} ${r.name}`),
    ).toEqual([`MachineSet ${source.name}-workers-5d8f`]);
    const verified = await verifyClusterMigration(options(namespace));
    if (E.isLeft(verified)) throw new Error(JSON.stringify(verified.left));
    expect(verified.right.differences).toEqual([]);
  });

  it("a v1alpha1 Machine labelled with v0.2's cluster-name label for another Cluster is refused before anything is written", async () => {
    const namespace = await env.createNamespace('migrate-hostile');
    const source = await seedSourceCluster(env.kubeConfig, namespace, {
      provider: 'aws',
      name: 'mine',
      workers: 1,
    });
    await client().patch(
      {
        apiVersion: V1ALPHA1,
        kind: 'Machine',
        metadata: {
          name: source.workers[0]!,
          namespace,
          labels: { 'cluster.x-k8s.io/cluster-name': 'theirs' },
        },
      } as KubernetesObject,
      undefined,
      undefined,
      undefined,
      undefined,
      'application/merge-patch+json',
    );
    const applied = await applyClusterMigration(options(namespace));
    if (E.isRight(applied)) throw new Error('migrated a Machine into another Cluster');
    expect(applied.left).toEqual({
      code: 'conversion',
      message: `Machine ${namespace}/${source.workers[0]}: metadata.labels: cluster.x-k8s.io/cluster-name "theirs" names another Cluster than cluster.k8s.io/cluster-name "mine"; v0.2 reads only the first, so the migrated object would belong to that Cluster: give both one value, or remove cluster.x-k8s.io/cluster-name`,
    });
    // (refused by the plan, before preflight: nothing is written)
    const planned = await planClusterMigration(options(namespace));
    expect(planned).toEqual(applied);
  });

  it('a Cluster being deleted is not migrated: its Secrets are not re-owned, and verify does not ask for it, so prune can finish the deletion', async () => {
    const namespace = await env.createNamespace('migrate-hostile');
    const source = await seedSourceCluster(env.kubeConfig, namespace, {
      provider: 'aws',
      name: 'going',
      workers: 1,
    });
    // (its finalizer keeps it, being deleted, until prune clears it)
    await client().delete({
      apiVersion: V1ALPHA1,
      kind: 'Cluster',
      metadata: { name: source.name, namespace },
    });
    const applied = await applyClusterMigration(options(namespace));
    if (E.isLeft(applied)) throw new Error(JSON.stringify(applied.left));
    const verified = await verifyClusterMigration(options(namespace));
    if (E.isLeft(verified)) throw new Error(JSON.stringify(verified.left));
    expect(verified.right.differences).toEqual([]);
    expect(applied.right.plan.secrets).toEqual([]);
    expect(applied.right.warnings).toContain(
      `Secret ${namespace}/${source.name}-kubeconfig: its Cluster ${namespace}/${source.name} is not migrated; not re-owned`,
    );
    const pruned = await pruneClusterMigration(options(namespace));
    if (E.isLeft(pruned)) throw new Error(JSON.stringify(pruned.left));
    expect(pruned.right.deleted).toContain(`Cluster ${namespace}/${source.name}`);
  });
});

describe.skipIf(noControlPlane())('migrate with a Machine of no Cluster', () => {
  beforeAll(async () => {
    for (const dir of crdDirs) await env.installCRDs(dir);
  });

  it('a control-plane Machine whose cluster label names no Cluster is migrated with a warning that speaks of what was read, not of a manifest', async () => {
    const namespace = await env.createNamespace('migrate-hostile');
    const source = await seedSourceCluster(env.kubeConfig, namespace, {
      provider: 'aws',
      name: 'real',
      workers: 1,
    });
    const controlPlane = await read('Machine', `${source.name}-controlplane-0`, namespace);
    const { spec } = controlPlane as unknown as { spec: unknown };
    await client().create({
      apiVersion: V1ALPHA1,
      kind: 'Machine',
      metadata: {
        name: 'stray-controlplane-0',
        namespace,
        labels: { 'cluster.k8s.io/cluster-name': 'ghost', set: 'controlplane' },
      },
      spec,
    } as KubernetesObject);
    const applied = await applyClusterMigration(options(namespace));
    if (E.isLeft(applied)) throw new Error(JSON.stringify(applied.left));
    const stray = applied.right.warnings.filter((w) =>
      w.startsWith(`Machine ${namespace}/stray-controlplane-0:`),
    );
    expect(stray).toEqual([
      `Machine ${namespace}/stray-controlplane-0: Cluster ghost is not among the objects converted: its clusterConfiguration and additionalUserDataFiles are not in the KubeadmConfig`,
    ]);
    expect(applied.right.warnings.join('\n')).not.toContain('manifest');
  });

  it('a MachineClass outside the namespace migrated, or used by nothing, is spoken of as read from the cluster, not as missing from a manifest', async () => {
    const namespace = await env.createNamespace('migrate-hostile');
    const other = await env.createNamespace('migrate-hostile');
    const source = await seedSourceCluster(env.kubeConfig, namespace, {
      provider: 'aws',
      name: 'classes',
      workers: 1,
    });
    const worker = await read('Machine', source.workers[0]!, namespace);
    const { spec } = worker as unknown as { spec: { providerSpec: { value: unknown } } };
    const classSpec = { providerSpec: spec.providerSpec.value };
    for (const [name, ns] of [
      ['elsewhere', other],
      ['idle', namespace],
    ] as const) {
      await client().create({
        apiVersion: V1ALPHA1,
        kind: 'MachineClass',
        metadata: { name, namespace: ns },
        ...classSpec,
      } as KubernetesObject);
    }
    const planned = await planClusterMigration(options(namespace));
    if (E.isLeft(planned)) throw new Error(JSON.stringify(planned.left));
    expect(planned.right.warnings).toContain(
      `MachineClass ${namespace}/idle: not used by any object read; v1alpha2 has no MachineClass, so none is made of it`,
    );
    await client().create({
      apiVersion: V1ALPHA1,
      kind: 'Machine',
      metadata: { name: 'classy-0', namespace, labels: { 'cluster.k8s.io/cluster-name': source.name } },
      spec: {
        versions: { kubelet: 'v1.14.4' },
        providerSpec: {
          valueFrom: { machineClass: { provider: 'aws', name: 'elsewhere', namespace: other } },
        },
      },
    } as KubernetesObject);
    const applied = await applyClusterMigration(options(namespace));
    if (E.isRight(applied)) throw new Error('applied a Machine whose MachineClass was not read');
    expect(applied.left.code).toBe('conversion');
    expect(applied.left.message).toContain(
      `Machine ${namespace}/classy-0: spec.providerSpec.valueFrom.machineClass: MachineClass ${other}/elsewhere was not read: it does not exist, or is outside the namespaces read`,
    );
    expect(applied.left.message).not.toContain('manifest');
  });
});
