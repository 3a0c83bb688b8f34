import { noControlPlane, useControlPlane } from '@capi-kit/envtest/vitest';
import {
  CustomObjectsApi,
  type KubernetesObject,
  KubernetesObjectApi,
  PatchStrategy,
  setHeaderOptions,
} from '@kubernetes/client-node';
import * as E from 'fp-ts/lib/Either.js';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  applyClusterMigration,
  planClusterMigration,
  pruneClusterMigration,
  verifyClusterMigration,
} from '../src/index.js';
import {
  awsMigrationOptions,
  crdDirs,
  listObjects,
  mergePatchAs,
  type SourceCluster,
  seedSourceCluster,
} from './support/source-cluster.js';

// v1alpha1 objects are written by whoever may write them: what they say must not crash a
// migration half way, nor stop verify with what looks like an API error.

const env = useControlPlane();
const V1ALPHA1 = 'cluster.k8s.io/v1alpha1';
const V1ALPHA2 = 'cluster.x-k8s.io/v1alpha2';
const CONVERSION_DATA = 'conversion.capi-kit.dev/data';
type Reference = { apiVersion: string; kind: string; name: string; uid: string };
type Obj = KubernetesObject & { metadata: { name: string; uid: string; ownerReferences?: Reference[] } };

const options = (namespace: string) => awsMigrationOptions(env.kubeConfig, namespace);

const client = () => KubernetesObjectApi.makeApiClient(env.kubeConfig);

function read(kind: string, name: string, namespace: string): Promise<Obj> {
  return client().read({ apiVersion: V1ALPHA1, kind, metadata: { name, namespace } }) as Promise<Obj>;
}

/** A JSON merge patch of the object the body names, as anyone who may patch it can. */
const mergePatch = (body: Record<string, unknown>) => mergePatchAs(env.kubeConfig, body);

/** Adds ownerReferences to a v1alpha1 object. */
async function addOwners(object: Obj, references: Reference[]): Promise<void> {
  await mergePatch({
    apiVersion: V1ALPHA1,
    kind: object.kind,
    metadata: {
      name: object.metadata.name,
      namespace: object.metadata.namespace,
      ownerReferences: [...(object.metadata.ownerReferences ?? []), ...references],
    },
  });
}

/** Merges `status` into a v1alpha2 Machine's, through the status subresource. */
async function setMachineStatus(namespace: string, name: string, status: Record<string, unknown>) {
  await env.kubeConfig.makeApiClient(CustomObjectsApi).patchNamespacedCustomObjectStatus(
    {
      group: 'cluster.x-k8s.io',
      version: 'v1alpha2',
      namespace,
      plural: 'machines',
      name,
      body: { status },
    },
    setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
  );
}

/** A fresh namespace holding a v1alpha1 AWS cluster of one worker. */
async function seeded(name: string): Promise<{ namespace: string; source: SourceCluster }> {
  const namespace = await env.createNamespace('migrate-hostile');
  const source = await seedSourceCluster(env.kubeConfig, namespace, { provider: 'aws', name, workers: 1 });
  return { namespace, source };
}

/** Applies the migration of the namespace, which must succeed. */
async function applied(namespace: string) {
  const result = await applyClusterMigration(options(namespace));
  if (E.isLeft(result)) throw new Error(JSON.stringify(result.left));
  return result.right;
}

/** Verifies the migration of the namespace: it must find no difference. */
async function expectVerified(namespace: string): Promise<void> {
  const verified = await verifyClusterMigration(options(namespace));
  if (E.isLeft(verified)) throw new Error(JSON.stringify(verified.left));
  expect(verified.right.differences).toEqual([]);
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
    const { namespace, source } = await seeded('loop');
    const deployment = await read('MachineDeployment', `${source.name}-workers`, namespace);
    const machineSet = await read('MachineSet', `${source.name}-workers-5d8f`, namespace);
    const machine = await read('Machine', `${source.name}-controlplane-0`, namespace);
    // The MachineDeployment owned by its own MachineSet; a Machine owned by itself.
    await addOwners(deployment, [referenceTo(machineSet)]);
    await addOwners(machine, [referenceTo(machine)]);

    const migrated = await applied(namespace);
    expect(migrated.warnings).toEqual(
      expect.arrayContaining([
        `MachineDeployment ${namespace}/${source.name}-workers: owner MachineSet ${namespace}/${source.name}-workers-5d8f is not created before it; its ownerReference is dropped`,
        `Machine ${namespace}/${source.name}-controlplane-0: owner Machine ${namespace}/${source.name}-controlplane-0 is not created before it; its ownerReference is dropped`,
      ]),
    );
    expect(migrated.created).toHaveLength(migrated.plan.objects.length);
    await expectVerified(namespace);
  });

  it("an ownerReference kept as it is (not a Cluster API owner) is not verify's to judge, even in the target's group", async () => {
    const { namespace, source } = await seeded('odd');
    const machine = await read('Machine', source.workers[0]!, namespace);
    await addOwners(machine, [
      {
        apiVersion: 'cluster.x-k8s.io/v1alpha2',
        kind: 'NoSuchKind',
        name: 'anything',
        uid: '00000000-0000-0000-0000-000000000000',
      },
    ]);
    await applied(namespace);
    await expectVerified(namespace);
  });

  it('an ownerReference to a v1alpha1 object that is not migrated (a MachineClass) is dropped with a warning, not left for prune to dangle', async () => {
    const { namespace, source } = await seeded('classy');
    const machineClass = (await client().create({
      apiVersion: V1ALPHA1,
      kind: 'MachineClass',
      metadata: { name: 'owner-class', namespace },
      providerSpec: { instanceType: 't3.large' },
    } as KubernetesObject)) as Obj;
    const machine = await read('Machine', source.workers[0]!, namespace);
    await addOwners(machine, [referenceTo(machineClass)]);
    const migrated = await applied(namespace);
    await expectVerified(namespace);
    expect(migrated.warnings).toContain(
      `Machine ${namespace}/${source.workers[0]}: owner MachineClass ${namespace}/owner-class of ${V1ALPHA1} is not migrated; its ownerReference is dropped`,
    );
  });

  it("an ownerReference naming a migrated owner's name with another object's UID (another namespace's) is dropped with a warning, not rebuilt onto that owner", async () => {
    const { namespace, source } = await seeded('twin');
    const other = await env.createNamespace('migrate-hostile');
    await seedSourceCluster(env.kubeConfig, other, { provider: 'aws', name: 'twin', workers: 1 });
    // The control-plane Machine of one namespace names the other namespace's MachineSet of
    // the same name: an ownerReference has no namespace, and this one dangles.
    const foreign = await read('MachineSet', `${source.name}-workers-5d8f`, other);
    const machine = await read('Machine', `${source.name}-controlplane-0`, namespace);
    await addOwners(machine, [referenceTo(foreign)]);

    const result = await applied(namespace);
    expect(result.warnings).toContain(
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
    await expectVerified(namespace);
  });

  it("a v1alpha1 Machine labelled with v0.2's cluster-name label for another Cluster is refused before anything is written", async () => {
    const { namespace, source } = await seeded('mine');
    await mergePatch({
      apiVersion: V1ALPHA1,
      kind: 'Machine',
      metadata: {
        name: source.workers[0]!,
        namespace,
        labels: { 'cluster.x-k8s.io/cluster-name': 'theirs' },
      },
    });
    const refused = await applyClusterMigration(options(namespace));
    if (E.isRight(refused)) throw new Error('migrated a Machine into another Cluster');
    expect(refused.left).toEqual({
      code: 'conversion',
      message: `Machine ${namespace}/${source.workers[0]}: metadata.labels: cluster.x-k8s.io/cluster-name "theirs" names another Cluster than cluster.k8s.io/cluster-name "mine"; v0.2 reads only the first, so the migrated object would belong to that Cluster: give both one value, or remove cluster.x-k8s.io/cluster-name`,
    });
    // (refused by the plan, before preflight: nothing is written)
    const planned = await planClusterMigration(options(namespace));
    expect(planned).toEqual(refused);
  });

  it('a v1alpha2 Machine made beforehand as migrate would make it, but whose status names another Node, is flagged by plan and refused by apply', async () => {
    // Apply writes status only onto a target without one, and v0.2 keeps a nodeRef once set:
    // the Machine would name that Node, and deleting the Machine deletes the Node.
    const { namespace, source } = await seeded('nodes');
    const planned = await planClusterMigration(options(namespace));
    if (E.isLeft(planned)) throw new Error(JSON.stringify(planned.left));
    const worker = source.workers[0]!;
    const found = planned.right.objects.find((o) => o.key.kind === 'Machine' && o.key.name === worker)!;
    await client().create(found.object as KubernetesObject);
    await setMachineStatus(namespace, worker, {
      nodeRef: { kind: 'Node', name: 'someone-elses-node', uid: 'node-uid-someone-elses-node' },
    });
    const want = found.status?.nodeRef as { name: string; uid: string };
    const problem = {
      object: `Machine ${namespace}/${worker}`,
      message: `carries migrate.capi-kit.dev/source-uid: ${found.source.uid} of Machine ${namespace}/${worker}, but its status.nodeRef names Node "someone-elses-node" (uid "node-uid-someone-elses-node"), not that object's "${want.name}" (uid "${want.uid}"): refusing to act on it (delete it, or correct its status, and run again)`,
    };
    const flagged = await planClusterMigration(options(namespace));
    if (E.isLeft(flagged)) throw new Error(JSON.stringify(flagged.left));
    expect(flagged.right.warnings.filter((w) => w.includes('source-uid'))).toEqual([
      `${problem.object}: ${problem.message}`,
    ]);
    const refused = await applyClusterMigration(options(namespace));
    if (E.isRight(refused)) throw new Error('applied onto a Machine naming another Node');
    expect(refused.left).toEqual({
      code: 'preflight',
      message: 'preflight found 1 problem(s); nothing was written',
      problems: [problem],
    });
    const machines = await listObjects(env.kubeConfig, V1ALPHA2, 'Machine', namespace);
    expect(machines.map((m) => [m.metadata.name, m.metadata.ownerReferences])).toEqual([[worker, undefined]]);
  });

  it('verify reports a migrated Machine whose nodeRef was changed to another Node since apply, and prune refuses', async () => {
    const { namespace, source } = await seeded('renoded');
    const migrated = await applied(namespace);
    const worker = source.workers[0]!;
    const found = migrated.plan.objects.find((o) => o.key.kind === 'Machine' && o.key.name === worker)!;
    await setMachineStatus(namespace, worker, {
      nodeRef: { kind: 'Node', name: 'someone-elses-node', uid: 'node-uid-someone-elses-node' },
    });
    const want = found.status?.nodeRef as { name: string; uid: string };
    const difference = {
      object: `Machine ${namespace}/${worker}`,
      message: `status.nodeRef names Node "someone-elses-node" (uid "node-uid-someone-elses-node"), not "${want.name}" (uid "${want.uid}") as Machine ${namespace}/${worker} does (v0.2 keeps a nodeRef once set, and deletes that Node with the Machine)`,
    };
    const verified = await verifyClusterMigration(options(namespace));
    if (E.isLeft(verified)) throw new Error(JSON.stringify(verified.left));
    expect(verified.right.differences).toEqual([difference]);
    const pruned = await pruneClusterMigration(options(namespace));
    expect(E.isLeft(pruned) && pruned.left).toEqual({
      code: 'verification',
      message: 'verify found 1 difference(s); nothing was pruned',
      differences: [difference],
    });
  });

  it("v0.2's control-plane label on a v1alpha1 worker (or its template), or empty on a control plane, is refused before anything is written", async () => {
    // The plug-in makes the bootstrap config for the role spec.versions.controlPlane gives;
    // v0.2 reads the role from the label, which the conversion keeps.
    const { namespace, source } = await seeded('roles');
    const label = 'cluster.x-k8s.io/control-plane';
    const patch = (kind: string, name: string, body: Record<string, unknown>) =>
      mergePatch({ apiVersion: V1ALPHA1, kind, metadata: { name, namespace }, ...body });
    const worker = source.workers[0]!;
    const controlPlane = `${source.name}-controlplane-0`;
    await patch('Machine', worker, { metadata: { name: worker, namespace, labels: { [label]: 'true' } } });
    await patch('Machine', controlPlane, {
      metadata: { name: controlPlane, namespace, labels: { [label]: '' } },
    });
    await patch('MachineDeployment', `${source.name}-workers`, {
      spec: { template: { metadata: { labels: { [label]: 'yes' } } } },
    });
    const refused = await applyClusterMigration(options(namespace));
    if (E.isRight(refused)) throw new Error('migrated a worker as a control plane');
    expect(refused.left).toEqual({
      code: 'conversion',
      message: [
        `MachineDeployment ${namespace}/${source.name}-workers: spec.template.metadata.labels: ${label} "yes" marks a control plane, but spec.template.spec.versions.controlPlane is not set: its bootstrap config is made for a worker while v0.2 would read it as a control-plane Machine: remove the label, or set spec.template.spec.versions.controlPlane`,
        `Machine ${namespace}/${controlPlane}: metadata.labels: ${label} "" marks no control plane, but spec.versions.controlPlane is "v1.14.4": its bootstrap config is made for a control plane while v0.2 would read it as a worker: remove the label, or give it a value`,
        `Machine ${namespace}/${worker}: metadata.labels: ${label} "true" marks a control plane, but spec.versions.controlPlane is not set: its bootstrap config is made for a worker while v0.2 would read it as a control-plane Machine: remove the label, or set spec.versions.controlPlane`,
      ].join('\n'),
    });
    expect(await planClusterMigration(options(namespace))).toEqual(refused);
    expect(await listObjects(env.kubeConfig, V1ALPHA2, 'Machine', namespace)).toEqual([]);
  });

  it('a conversion stash on a v1alpha1 object (migrate writes none there) is refused before anything is written, not restored', async () => {
    // Converted with it, the Machine's infrastructureRef and bootstrap named someone else's
    // AWSMachine and KubeadmConfig, and its own were never generated.
    const { namespace, source } = await seeded('stashed');
    const stash = {
      restores: 'cluster.x-k8s.io/v1alpha2',
      patch: [
        {
          p: ['spec', 'infrastructureRef'],
          v: {
            apiVersion: 'infrastructure.cluster.x-k8s.io/v1alpha2',
            kind: 'AWSMachine',
            name: 'someone-elses',
            namespace,
          },
        },
        {
          p: ['spec', 'bootstrap'],
          v: {
            configRef: {
              apiVersion: 'bootstrap.cluster.x-k8s.io/v1alpha2',
              kind: 'KubeadmConfig',
              name: 'someone-elses',
              namespace,
            },
          },
        },
      ],
    };
    const name = `${source.name}-controlplane-0`;
    await mergePatch({
      apiVersion: V1ALPHA1,
      kind: 'Machine',
      metadata: { name, namespace, annotations: { [CONVERSION_DATA]: JSON.stringify(stash) } },
    });
    const refused = await applyClusterMigration(options(namespace));
    if (E.isRight(refused)) throw new Error('migrated a Machine with what its annotation said');
    expect(refused.left).toEqual({
      code: 'conversion',
      message: `Machine ${namespace}/${name}: metadata.annotations.${CONVERSION_DATA}: a conversion stash (restores cluster.x-k8s.io/v1alpha2) on a v1alpha1 object read from the cluster: migrate writes none there, and converting with it would set fields of the migrated object (references included) from the annotation instead of from the object; remove the annotation, then plan again`,
    });
    expect(await planClusterMigration(options(namespace))).toEqual(refused);
    expect(await listObjects(env.kubeConfig, V1ALPHA2, 'Machine', namespace)).toEqual([]);
  });

  it("a v1alpha2 object made beforehand with migrate's source-UID annotation but other content is flagged by plan and refused by apply: nothing is written", async () => {
    // The annotation is data: anyone who may create a v1alpha2 Machine and read the v1alpha1
    // one can write it. Taken for ours, the forged Machine (its infrastructureRef to someone
    // else's AWSMachine) and AWSMachine were owned by the new objects and kept as they were.
    const { namespace, source } = await seeded('forged');
    const planned = await planClusterMigration(options(namespace));
    if (E.isLeft(planned)) throw new Error(JSON.stringify(planned.left));
    const worker = source.workers[0]!;
    const forge = (kind: string, change: (spec: Record<string, unknown>) => void) => {
      const found = planned.right.objects.find((o) => o.key.kind === kind && o.key.name === worker)!;
      const object = structuredClone(found.object) as { spec: Record<string, unknown> };
      change(object.spec);
      return { found, object };
    };
    const machine = forge('Machine', (spec) => {
      (spec.infrastructureRef as { name: string }).name = 'someone-elses';
    });
    const awsMachine = forge('AWSMachine', (spec) => {
      spec.instanceType = 'x1e.32xlarge';
    });
    for (const { object } of [machine, awsMachine]) await client().create(object as KubernetesObject);
    const uid = machine.found.source.uid;
    const problem = (kind: string, path: string) => ({
      object: `${kind} ${namespace}/${worker}`,
      message: `carries migrate.capi-kit.dev/source-uid: ${uid} of Machine ${namespace}/${worker}, but its ${path} differs from the conversion of that object: not what this migration created (a forged annotation), or one of the two edited since; refusing to act on it (delete it, or make the two agree, and run again)`,
    });
    const expected = [
      problem('Machine', 'spec.infrastructureRef.name'),
      problem('AWSMachine', 'spec.instanceType'),
    ];

    const flagged = await planClusterMigration(options(namespace));
    if (E.isLeft(flagged)) throw new Error(JSON.stringify(flagged.left));
    expect(flagged.right.warnings.filter((w) => w.includes('source-uid'))).toEqual(
      expected.map((p) => `${p.object}: ${p.message}`),
    );
    const before = await listObjects(env.kubeConfig, V1ALPHA2, 'Machine', namespace);
    const refused = await applyClusterMigration(options(namespace));
    if (E.isRight(refused)) throw new Error('applied onto a forged link');
    expect(refused.left).toEqual({
      code: 'preflight',
      message: 'preflight found 2 problem(s); nothing was written',
      problems: expected,
    });
    expect(await listObjects(env.kubeConfig, V1ALPHA2, 'Machine', namespace)).toEqual(before);
    expect(before.map((m) => [m.metadata.name, m.metadata.ownerReferences])).toEqual([[worker, undefined]]);
  });

  it('a Cluster being deleted is not migrated: its Secrets are not re-owned, and verify does not ask for it, so prune can finish the deletion', async () => {
    const { namespace, source } = await seeded('going');
    // (its finalizer keeps it, being deleted, until prune clears it)
    await client().delete({
      apiVersion: V1ALPHA1,
      kind: 'Cluster',
      metadata: { name: source.name, namespace },
    });
    const migrated = await applied(namespace);
    await expectVerified(namespace);
    expect(migrated.plan.secrets).toEqual([]);
    expect(migrated.warnings).toContain(
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
    const { namespace, source } = await seeded('real');
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
    const migrated = await applied(namespace);
    const stray = migrated.warnings.filter((w) => w.startsWith(`Machine ${namespace}/stray-controlplane-0:`));
    expect(stray).toEqual([
      `Machine ${namespace}/stray-controlplane-0: Cluster ghost is not among the objects converted: its clusterConfiguration and additionalUserDataFiles are not in the KubeadmConfig`,
    ]);
    expect(migrated.warnings.join('\n')).not.toContain('manifest');
  });

  it('a MachineClass outside the namespace migrated, or used by nothing, is spoken of as read from the cluster, not as missing from a manifest', async () => {
    const { namespace, source } = await seeded('classes');
    const other = await env.createNamespace('migrate-hostile');
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
    const refused = await applyClusterMigration(options(namespace));
    if (E.isRight(refused)) throw new Error('applied a Machine whose MachineClass was not read');
    expect(refused.left.code).toBe('conversion');
    expect(refused.left.message).toContain(
      `Machine ${namespace}/classy-0: spec.providerSpec.valueFrom.machineClass: MachineClass ${other}/elsewhere was not read: it does not exist, or is outside the namespaces read`,
    );
    expect(refused.left.message).not.toContain('manifest');
  });
});
