import { noControlPlane, useControlPlane } from '@capi-kit/envtest/vitest';
import { awsConversionPlugin } from '@capi-kit/providers-aws';
import { vsphereConversionPlugin } from '@capi-kit/providers-vsphere';
import {
  CoreV1Api,
  CustomObjectsApi,
  KubeConfig,
  type KubernetesObject,
  KubernetesObjectApi,
  PatchStrategy,
  type RequestContext,
  setHeaderOptions,
} from '@kubernetes/client-node';
import * as E from 'fp-ts/lib/Either.js';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  applyClusterMigration,
  type MigrationOptions,
  PRUNED_RECORD,
  planClusterMigration,
  pruneClusterMigration,
  SOURCE_PRUNED_ANNOTATION,
  SOURCE_UID_ANNOTATION,
  verifyClusterMigration,
} from '../src/index.js';
import {
  crdDirs,
  listObjects,
  mergePatchAs,
  type SourceCluster,
  seedSourceCluster,
} from './support/source-cluster.js';

const env = useControlPlane();
const plugins = [awsConversionPlugin, vsphereConversionPlugin];
type Obj = Record<string, unknown> & {
  metadata: Record<string, unknown> & { uid: string; resourceVersion: string };
};

const V1ALPHA1 = 'cluster.k8s.io/v1alpha1';
const V1ALPHA2 = 'cluster.x-k8s.io/v1alpha2';
const CAPI_KINDS = ['Cluster', 'MachineDeployment', 'MachineSet', 'Machine'];
const GENERATED_KINDS = [
  ['infrastructure.cluster.x-k8s.io/v1alpha2', 'AWSCluster'],
  ['infrastructure.cluster.x-k8s.io/v1alpha2', 'AWSMachine'],
  ['infrastructure.cluster.x-k8s.io/v1alpha2', 'AWSMachineTemplate'],
  ['infrastructure.cluster.x-k8s.io/v1alpha2', 'VSphereCluster'],
  ['infrastructure.cluster.x-k8s.io/v1alpha2', 'VSphereMachine'],
  ['infrastructure.cluster.x-k8s.io/v1alpha2', 'VSphereMachineTemplate'],
  ['bootstrap.cluster.x-k8s.io/v1alpha2', 'KubeadmConfig'],
  ['bootstrap.cluster.x-k8s.io/v1alpha2', 'KubeadmConfigTemplate'],
] as const;

function options(namespace: string, extra: Partial<MigrationOptions> = {}): MigrationOptions {
  return { kubeConfig: env.kubeConfig, scope: { namespace }, plugins, ...extra };
}

/** The objects of a kind, typed as this file reads them. */
const list = (kubeConfig: KubeConfig, apiVersion: string, kind: string, namespace: string) =>
  listObjects(kubeConfig, apiVersion, kind, namespace) as Promise<Obj[]>;

/** Every object the migration may have written, keyed `Kind/name`, with its resourceVersion. */
async function snapshot(namespace: string): Promise<Map<string, Obj>> {
  const out = new Map<string, Obj>();
  const kinds: (readonly [string, string])[] = [
    ...CAPI_KINDS.map((k) => [V1ALPHA2, k] as const),
    ...CAPI_KINDS.map((k) => [V1ALPHA1, k] as const),
    ...GENERATED_KINDS,
    ['v1', 'Secret'],
  ];
  for (const [apiVersion, kind] of kinds) {
    for (const item of await list(env.kubeConfig, apiVersion, kind, namespace)) {
      out.set(`${apiVersion}/${kind}/${String(item.metadata.name)}`, item);
    }
  }
  return out;
}

/** The state a migration is judged by: objects with owners by name (UIDs differ between runs). */
function endState(objects: Map<string, Obj>, namespace: string): unknown {
  const uids = new Map([...objects.values()].map((o) => [o.metadata.uid, String(o.metadata.name)]));
  const state: Record<string, unknown> = {};
  for (const [key, o] of objects) {
    if (key.startsWith(V1ALPHA1)) continue;
    const refs =
      (o.metadata.ownerReferences as { kind: string; uid: string; apiVersion: string }[] | undefined) ?? [];
    state[key] = {
      owners: refs.map((r) => `${r.apiVersion}/${r.kind}/${uids.get(r.uid) ?? `dangling:${r.uid}`}`).sort(),
      labels: o.metadata.labels ?? {},
      spec: o.spec,
      status: o.status,
    };
  }
  // Each run has its own namespace, which references name: compare without it.
  return JSON.parse(JSON.stringify(state).replaceAll(namespace, '<ns>'));
}

/** A JSON merge patch (RFC 7386) of the object the body names, as `kubectl patch --type merge`. */
const mergePatch = (body: Record<string, unknown>) => mergePatchAs(env.kubeConfig, body);

/** A v1alpha2 Machine someone made by hand: no source-UID annotation, not the migration's. */
function machineByHand(name: string, namespace: string): KubernetesObject {
  return {
    apiVersion: V1ALPHA2,
    kind: 'Machine',
    metadata: { name, namespace },
    spec: {
      bootstrap: { data: 'c29tZQ==' },
      infrastructureRef: {
        apiVersion: 'infrastructure.cluster.x-k8s.io/v1alpha2',
        kind: 'AWSMachine',
        name: 'someone-elses',
      },
    },
  } as KubernetesObject;
}

async function newNamespaceWith(
  provider: 'aws' | 'vsphere',
  name: string,
  workers = 2,
): Promise<SourceCluster> {
  const namespace = await env.createNamespace('migrate');
  return seedSourceCluster(env.kubeConfig, namespace, { provider, name, workers });
}

describe.skipIf(noControlPlane())('capi-kit migrate on a live management cluster', () => {
  beforeAll(async () => {
    for (const dir of crdDirs) await env.installCRDs(dir);
  });

  describe.each(['aws', 'vsphere'] as const)(
    'a %s cluster: plan, dry run, apply, verify, re-apply, prune',
    (provider) => {
      let source: SourceCluster;
      beforeAll(async () => {
        source = await newNamespaceWith(provider, `${provider}-prod`);
      });

      it('plan reads only, and lists every object in creation order with its owners, status and Secrets', async () => {
        const before = await snapshot(source.namespace);
        const plan = await planClusterMigration(options(source.namespace));
        if (E.isLeft(plan)) throw new Error(plan.left.message);
        const heads = plan.right.objects
          .filter((o) => !o.generated)
          .map((o) => `${o.key.kind}/${o.key.name}`);
        expect(heads).toEqual([
          `Cluster/${source.name}`,
          `MachineDeployment/${source.name}-workers`,
          `MachineSet/${source.name}-workers-5d8f`,
          `Machine/${source.name}-controlplane-0`,
          ...source.workers.map((w) => `Machine/${w}`),
        ]);
        const machineSet = plan.right.objects.find((o) => o.key.kind === 'MachineSet')!;
        expect(machineSet.owners.map((l) => `${l.owner.kind}/${l.owner.name}`)).toEqual([
          `MachineDeployment/${source.name}-workers`,
        ]);
        const worker = plan.right.objects.find(
          (o) => o.key.name === source.workers[0] && o.key.kind === 'Machine',
        )!;
        expect(worker.status).toMatchObject({
          nodeRef: { name: `${provider}-prod-node-0` },
          phase: 'running',
        });
        // The worker's infrastructure and bootstrap objects follow it and are owned by it.
        const generatedForWorker = plan.right.objects.filter(
          (o) =>
            o.generated &&
            o.owners.some((l) => l.owner.kind === 'Machine' && l.owner.name === source.workers[0]),
        );
        expect(generatedForWorker.map((o) => o.key.kind).sort()).toEqual(
          [provider === 'aws' ? 'AWSMachine' : 'VSphereMachine', 'KubeadmConfig'].sort(),
        );
        expect(plan.right.secrets.map((s) => `${s.key.name}→${s.cluster.name}`)).toEqual([
          `${source.name}-kubeconfig→${source.name}`,
        ]);
        expect(await snapshot(source.namespace)).toEqual(before);
      });

      it('apply --dry-run passes preflight and persists nothing', async () => {
        const before = await snapshot(source.namespace);
        const result = await applyClusterMigration({ ...options(source.namespace), dryRun: true });
        if (E.isLeft(result)) throw new Error(JSON.stringify(result.left));
        expect(result.right.created.length).toBe(result.right.plan.objects.length);
        expect(result.right.reownedSecrets).toEqual([`Secret ${source.namespace}/${source.name}-kubeconfig`]);
        expect(await snapshot(source.namespace)).toEqual(before);
      });

      it('apply creates everything with new UIDs in the ownerReferences, restores status and re-owns the Secret', async () => {
        const result = await applyClusterMigration(options(source.namespace));
        if (E.isLeft(result)) throw new Error(JSON.stringify(result.left));
        const { created, restoredStatus, reownedSecrets, plan } = result.right;
        expect(created).toHaveLength(plan.objects.length);
        expect(restoredStatus).toHaveLength(plan.objects.filter((o) => o.status !== undefined).length);
        expect(reownedSecrets).toHaveLength(1);

        const state = await snapshot(source.namespace);
        const get = (kind: string, name: string, apiVersion = V1ALPHA2) =>
          state.get(`${apiVersion}/${kind}/${name}`)!;
        const cluster = get('Cluster', source.name);
        const deployment = get('MachineDeployment', `${source.name}-workers`);
        const machineSet = get('MachineSet', `${source.name}-workers-5d8f`);
        const worker = get('Machine', source.workers[0]!);
        const oldWorker = get('Machine', source.workers[0]!, V1ALPHA1);
        expect(worker.metadata.annotations).toMatchObject({
          [SOURCE_UID_ANNOTATION]: oldWorker.metadata.uid,
        });
        expect(machineSet.metadata.ownerReferences).toEqual([
          {
            apiVersion: V1ALPHA2,
            kind: 'MachineDeployment',
            name: deployment.metadata.name,
            uid: deployment.metadata.uid,
            controller: true,
            blockOwnerDeletion: true,
          },
        ]);
        expect(worker.metadata.ownerReferences).toEqual([
          {
            apiVersion: V1ALPHA2,
            kind: 'MachineSet',
            name: machineSet.metadata.name,
            uid: machineSet.metadata.uid,
            controller: true,
            blockOwnerDeletion: true,
          },
        ]);
        // Labels renamed, finalizers renamed, status written through the subresource.
        expect(worker.metadata.labels).toMatchObject({ 'cluster.x-k8s.io/cluster-name': source.name });
        expect(get('Machine', `${source.name}-controlplane-0`).metadata.labels).toMatchObject({
          'cluster.x-k8s.io/control-plane': 'true',
        });
        expect(worker.metadata.finalizers).toEqual(['machine.cluster.x-k8s.io']);
        expect(worker.status).toMatchObject({
          nodeRef: { kind: 'Node', name: `${provider}-prod-node-0` },
          addresses: [{ type: 'InternalIP', address: '10.0.2.10' }],
          phase: 'running',
        });
        expect(cluster.status).toMatchObject({ apiEndpoints: [{ host: '10.0.0.10', port: 6443 }] });
        // The infrastructure machine is owned by its new Machine.
        const infraKind = provider === 'aws' ? 'AWSMachine' : 'VSphereMachine';
        const infra = get(infraKind, source.workers[0]!, 'infrastructure.cluster.x-k8s.io/v1alpha2');
        expect(infra.metadata.ownerReferences).toEqual([
          { apiVersion: V1ALPHA2, kind: 'Machine', name: worker.metadata.name, uid: worker.metadata.uid },
        ]);
        // The Secret keeps its old owner and gains the new Cluster, so GC cannot take it.
        const secret = get('Secret', `${source.name}-kubeconfig`, 'v1');
        expect((secret.metadata.ownerReferences as { uid: string }[]).map((r) => r.uid)).toEqual([
          get('Cluster', source.name, V1ALPHA1).metadata.uid,
          cluster.metadata.uid,
        ]);

        // The example's vCenter user went into a Secret owned by the new Cluster, not into its stash.
        const credentials = state.get(`v1/Secret/${source.name}-vsphere-credentials`);
        expect(credentials?.metadata.ownerReferences).toEqual(
          provider === 'vsphere'
            ? [expect.objectContaining({ kind: 'Cluster', uid: cluster.metadata.uid })]
            : undefined,
        );
        expect(JSON.stringify(cluster.metadata.annotations)).not.toContain('capv@vsphere.local');

        const verified = await verifyClusterMigration(options(source.namespace));
        if (E.isLeft(verified)) throw new Error(verified.left.message);
        expect(verified.right.differences).toEqual([]);
      });

      it('a second apply writes nothing: every resourceVersion stays', async () => {
        const before = await snapshot(source.namespace);
        const writes: string[] = [];
        const result = await applyClusterMigration(
          options(source.namespace, {
            afterWrite: (w) => writes.push(`${w.verb} ${w.object.kind}/${w.object.name}`),
          }),
        );
        if (E.isLeft(result)) throw new Error(JSON.stringify(result.left));
        expect(writes).toEqual([]);
        // (the credentials Secret the first apply made is the Cluster's, not a lookalike)
        expect(result.right.plan.warnings.filter((w) => w.includes('is named like'))).toEqual([]);
        expect(result.right.created).toEqual([]);
        expect(result.right.alreadyPresent).toHaveLength(result.right.plan.objects.length);
        expect(await snapshot(source.namespace)).toEqual(before);
      });

      it('verify names an edited spec; prune refuses while verify fails, then prunes v1alpha1 only', async () => {
        const key = {
          apiVersion: V1ALPHA2,
          kind: 'MachineDeployment',
          metadata: { name: `${source.name}-workers`, namespace: source.namespace },
        };
        await mergePatch({ ...key, spec: { replicas: 7 } });
        const verified = await verifyClusterMigration(options(source.namespace));
        if (E.isLeft(verified)) throw new Error(verified.left.message);
        expect(verified.right.differences).toEqual([
          expect.objectContaining({
            object: `MachineDeployment ${source.namespace}/${source.name}-workers`,
            message: expect.stringContaining('spec.replicas differs'),
          }),
        ]);
        const before = await snapshot(source.namespace);
        const refused = await pruneClusterMigration(options(source.namespace));
        expect(E.isLeft(refused) && refused.left.code).toBe('verification');
        expect(await snapshot(source.namespace)).toEqual(before);

        await mergePatch({ ...key, spec: { replicas: source.workers.length } });
        const restored = await snapshot(source.namespace);
        const pruned = await pruneClusterMigration(options(source.namespace));
        if (E.isLeft(pruned)) throw new Error(JSON.stringify(pruned.left));
        expect(pruned.right.deleted).toHaveLength(source.objects);
        // Machines and the Cluster had finalizers: cleared before deletion, so they are gone at once.
        expect(pruned.right.finalizersCleared.length).toBeGreaterThanOrEqual(source.workers.length + 2);
        const after = await snapshot(source.namespace);
        expect([...after.keys()].filter((k) => k.startsWith(V1ALPHA1))).toEqual([]);
        // What apply created gains prune's mark (its source's UID) and nothing else; the rest
        // (the re-owned Secret) is not written at all.
        const kept = [...restored.entries()].filter(([k]) => !k.startsWith(V1ALPHA1));
        for (const [k, object] of kept) {
          const annotations = (object.metadata.annotations ?? {}) as Record<string, string>;
          const uid = annotations[SOURCE_UID_ANNOTATION];
          if (uid === undefined) {
            expect(after.get(k)?.metadata.resourceVersion, k).toBe(object.metadata.resourceVersion);
            continue;
          }
          const content = (o: Record<string, unknown> | undefined) => {
            const {
              resourceVersion: _,
              managedFields: __,
              ...metadata
            } = (o?.metadata ?? {}) as Record<string, unknown>;
            return { ...o, metadata };
          };
          const marked = { ...annotations, [SOURCE_PRUNED_ANNOTATION]: uid };
          expect(content(after.get(k)), k).toEqual(
            content({ ...object, metadata: { ...object.metadata, annotations: marked } }),
          );
        }
      });
    },
  );

  it('reads every page of every kind: a plan, apply and verify in pages of 2 cover all 5 workers', async () => {
    // (client-node's generic list dropped `continue` for custom resources: only the first
    // page of Machines was ever read, and verify passed over the rest)
    const source = await newNamespaceWith('aws', 'paged', 5);
    const paged = { ...options(source.namespace), pageSize: 2 };
    const whole = await planClusterMigration(options(source.namespace));
    const inPages = await planClusterMigration(paged);
    if (E.isLeft(whole) || E.isLeft(inPages)) throw new Error('plan failed');
    const keys = (plan: typeof whole.right) => plan.objects.map((o) => `${o.key.kind}/${o.key.name}`);
    expect(keys(inPages.right).filter((k) => k.startsWith('Machine/'))).toHaveLength(6);
    expect(keys(inPages.right)).toEqual(keys(whole.right));
    expect(inPages.right.sources).toHaveLength(source.objects);

    const applied = await applyClusterMigration(paged);
    if (E.isLeft(applied)) throw new Error(JSON.stringify(applied.left));
    const verified = await verifyClusterMigration(paged);
    if (E.isLeft(verified)) throw new Error(verified.left.message);
    expect(verified.right).toMatchObject({ checked: whole.right.objects.length + 1, differences: [] });
  });

  it("verify compares a key-pair Secret's data: a key changed since apply stops prune", async () => {
    const source = await newNamespaceWith('aws', 'keys', 1);
    const base64 = (text: string) => Buffer.from(text).toString('base64');
    await mergePatch({
      apiVersion: V1ALPHA1,
      kind: 'Cluster',
      metadata: { name: source.name, namespace: source.namespace },
      spec: { providerSpec: { value: { caKeyPair: { cert: base64('CERT'), key: base64('KEY') } } } },
    });
    const applied = await applyClusterMigration(options(source.namespace));
    if (E.isLeft(applied)) throw new Error(JSON.stringify(applied.left));
    expect(applied.right.plan.objects.map((o) => `${o.key.kind}/${o.key.name}`)).toContain(
      `Secret/${source.name}-ca`,
    );

    // The v1alpha2 copy no longer holds the key the v1alpha1 Cluster has.
    await mergePatch({
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: `${source.name}-ca`, namespace: source.namespace },
      data: { 'tls.key': base64('OTHER') },
    });
    const verified = await verifyClusterMigration(options(source.namespace));
    if (E.isLeft(verified)) throw new Error(verified.left.message);
    expect(verified.right.differences).toEqual([
      {
        object: `Secret ${source.namespace}/${source.name}-ca`,
        message: `data.tls.key differs from the converted Cluster ${source.namespace}/${source.name}`,
      },
    ]);
    const refused = await pruneClusterMigration(options(source.namespace));
    expect(E.isLeft(refused) && refused.left.code).toBe('verification');
  });

  it('verify names an ownerReference to an owner that is not live, reading that owner once', async () => {
    const source = await newNamespaceWith('aws', 'orphans', 2);
    const applied = await applyClusterMigration(options(source.namespace));
    if (E.isLeft(applied)) throw new Error(JSON.stringify(applied.left));
    // Every v1alpha2 Machine (the workers and the control plane's) now names a MachineSet
    // that does not exist.
    const gone = '00000000-0000-0000-0000-00000000dead';
    const machines = await list(env.kubeConfig, V1ALPHA2, 'Machine', source.namespace);
    expect(machines.length).toBeGreaterThan(1);
    for (const machine of machines) {
      await mergePatch({
        apiVersion: V1ALPHA2,
        kind: 'Machine',
        metadata: {
          name: machine.metadata.name,
          namespace: source.namespace,
          ownerReferences: [
            { apiVersion: V1ALPHA2, kind: 'MachineSet', name: 'gone', uid: gone, controller: true },
          ],
        },
      });
    }
    // (every request verify sends, as its URL)
    const requests: string[] = [];
    class Recording extends KubeConfig {
      override async applySecurityAuthentication(context: RequestContext): Promise<void> {
        requests.push(context.getUrl());
        return super.applySecurityAuthentication(context);
      }
    }
    const recording = new Recording();
    recording.loadFromString(env.kubeConfig.exportConfig());
    const verified = await verifyClusterMigration({ ...options(source.namespace), kubeConfig: recording });
    if (E.isLeft(verified)) throw new Error(verified.left.message);
    expect(
      verified.right.differences.filter((d) => d.message.includes('not live')).map((d) => d.object),
    ).toEqual(machines.map((m) => `Machine ${source.namespace}/${String(m.metadata.name)}`));
    expect(verified.right.differences).toContainEqual({
      object: `Machine ${source.namespace}/${String(machines[0]!.metadata.name)}`,
      message: `ownerReference to MachineSet ${source.namespace}/gone points at UID ${gone}, which is not live`,
    });
    expect(requests.filter((url) => url.includes('/machinesets/gone'))).toHaveLength(1);
  });

  it('does not migrate a Machine that is being deleted; prune still finishes its deletion', async () => {
    const source = await newNamespaceWith('aws', 'leaving', 2);
    const client = KubernetesObjectApi.makeApiClient(env.kubeConfig);
    const leaving = source.workers[1]!;
    // Its finalizer holds it: it stays, with a deletionTimestamp, as while v0.1 scales down.
    await client.delete({
      apiVersion: V1ALPHA1,
      kind: 'Machine',
      metadata: { name: leaving, namespace: source.namespace },
    } as KubernetesObject);
    const plan = await planClusterMigration(options(source.namespace));
    if (E.isLeft(plan)) throw new Error(plan.left.message);
    const names = plan.right.objects.map((o) => `${o.key.kind}/${o.key.name}`);
    expect(names).toContain(`Machine/${source.workers[0]}`);
    expect(names).not.toContain(`Machine/${leaving}`);
    expect(plan.right.warnings).toContain(
      `Machine ${source.namespace}/${leaving} is being deleted: not migrated (let its v0.1 controller finish first; prune clears its finalizers)`,
    );
    const applied = await applyClusterMigration(options(source.namespace));
    if (E.isLeft(applied)) throw new Error(JSON.stringify(applied.left));
    const pruned = await pruneClusterMigration(options(source.namespace));
    if (E.isLeft(pruned)) throw new Error(JSON.stringify(pruned.left));
    expect(pruned.right.deleted).toContain(`Machine ${source.namespace}/${leaving}`);
    const after = await snapshot(source.namespace);
    expect([...after.keys()].filter((k) => k.startsWith(V1ALPHA1))).toEqual([]);
    expect(after.has(`${V1ALPHA2}/Machine/${leaving}`)).toBe(false);
  });

  it("re-owns a Cluster's own Secrets only; one merely named after it is reported and left alone", async () => {
    const source = await newNamespaceWith('aws', 'app', 1);
    const core = env.kubeConfig.makeApiClient(CoreV1Api);
    await core.createNamespacedSecret({
      namespace: source.namespace,
      body: { metadata: { name: `${source.name}-db-password` }, stringData: { password: 'x' } },
    });
    const plan = await planClusterMigration(options(source.namespace));
    if (E.isLeft(plan)) throw new Error(plan.left.message);
    expect(plan.right.secrets.map((s) => s.key.name)).toEqual([`${source.name}-kubeconfig`]);
    expect(plan.right.warnings).toContainEqual(
      expect.stringMatching(
        new RegExp(
          `^Secret ${source.namespace}/${source.name}-db-password is named like Cluster ${source.name}'s, .*: not re-owned$`,
        ),
      ),
    );
    const applied = await applyClusterMigration(options(source.namespace));
    if (E.isLeft(applied)) throw new Error(JSON.stringify(applied.left));
    const app = await core.readNamespacedSecret({
      name: `${source.name}-db-password`,
      namespace: source.namespace,
    });
    expect(app.metadata?.ownerReferences).toBeUndefined();
  });

  it('resumes after a crash at every write: no duplicates, the same end state', async () => {
    const reference = await newNamespaceWith('aws', 'crash', 1);
    const clean = await applyClusterMigration(options(reference.namespace));
    if (E.isLeft(clean)) throw new Error(JSON.stringify(clean.left));
    const expected = endState(await snapshot(reference.namespace), reference.namespace);
    let writes = 0;
    await applyClusterMigration(options(reference.namespace, { afterWrite: () => writes++ }));
    expect(writes).toBe(0);
    const total =
      clean.right.created.length + clean.right.restoredStatus.length + clean.right.reownedSecrets.length;
    expect(total).toBeGreaterThan(10);

    for (let n = 1; n < total; n++) {
      const source = await newNamespaceWith('aws', 'crash', 1);
      const crashed = await applyClusterMigration(
        options(source.namespace, {
          afterWrite: (w) => {
            if (w.count === n) throw new Error('injected crash');
          },
        }),
      );
      expect(E.isLeft(crashed) && crashed.left.code, `crash after write ${n}`).toBe('interrupted');
      const resumed = await applyClusterMigration(options(source.namespace));
      if (E.isLeft(resumed)) throw new Error(`after write ${n}: ${JSON.stringify(resumed.left)}`);
      expect(resumed.right.created.length + resumed.right.alreadyPresent.length).toBe(
        resumed.right.plan.objects.length,
      );
      expect(endState(await snapshot(source.namespace), source.namespace), `crash after write ${n}`).toEqual(
        expected,
      );
      const verified = await verifyClusterMigration(options(source.namespace));
      expect(E.isRight(verified) && verified.right.differences, `after write ${n}`).toEqual([]);
    }
    // One fresh cluster and two applies per write: minutes on a loaded 2-core machine.
  }, 900_000);

  it('a re-run of apply keeps the status and the ownerReferences that changed on the target since', async () => {
    // (a re-run wrote the v1alpha1 status over the one a v0.2 controller had moved on, and
    // replaced ownerReferences wholesale, dropping one another controller had added)
    const source = await newNamespaceWith('aws', 'moved-on', 1);
    const applied = await applyClusterMigration(options(source.namespace));
    if (E.isLeft(applied)) throw new Error(JSON.stringify(applied.left));
    const custom = env.kubeConfig.makeApiClient(CustomObjectsApi);
    const worker = { group: 'cluster.x-k8s.io', version: 'v1alpha2', namespace: source.namespace };
    await custom.patchNamespacedCustomObjectStatus(
      {
        ...worker,
        plural: 'machines',
        name: source.workers[0]!,
        body: { status: { phase: 'provisioned', addresses: [{ type: 'InternalIP', address: '10.9.9.9' }] } },
      },
      setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
    );
    const core = env.kubeConfig.makeApiClient(CoreV1Api);
    const map = await core.createNamespacedConfigMap({
      namespace: source.namespace,
      body: { metadata: { name: 'someone-else' } },
    });
    const other = { apiVersion: 'v1', kind: 'ConfigMap', name: 'someone-else', uid: map.metadata!.uid! };
    const machineSetName = `${source.name}-workers-5d8f`;
    const machineSet = (await custom.getNamespacedCustomObject({
      ...worker,
      plural: 'machinesets',
      name: machineSetName,
    })) as Obj;
    const references = [...(machineSet.metadata.ownerReferences as object[]), other];
    await custom.patchNamespacedCustomObject(
      {
        ...worker,
        plural: 'machinesets',
        name: machineSetName,
        body: { metadata: { ownerReferences: references } },
      },
      setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
    );
    const before = await snapshot(source.namespace);

    const again = await applyClusterMigration(options(source.namespace));
    if (E.isLeft(again)) throw new Error(JSON.stringify(again.left));
    expect(again.right.restoredStatus).toEqual([]);
    expect(again.right.reowned).toEqual([]);
    const after = await snapshot(source.namespace);
    expect(after.get(`${V1ALPHA2}/Machine/${source.workers[0]}`)?.status).toMatchObject({
      phase: 'provisioned',
      addresses: [{ type: 'InternalIP', address: '10.9.9.9' }],
    });
    expect(after.get(`${V1ALPHA2}/MachineSet/${machineSetName}`)?.metadata.ownerReferences).toEqual(
      references,
    );
    expect(after).toEqual(before);
  });

  it('prune does not delete a v1alpha1 object edited after verify read it, and reports it', async () => {
    // (the delete's precondition was the UID only: an edit made after verify was deleted with it)
    const source = await newNamespaceWith('aws', 'edited', 1);
    const applied = await applyClusterMigration(options(source.namespace));
    if (E.isLeft(applied)) throw new Error(JSON.stringify(applied.left));
    const cluster = {
      apiVersion: V1ALPHA1,
      kind: 'Cluster',
      metadata: { name: source.name, namespace: source.namespace },
    };
    let edited = false;
    const pruned = await pruneClusterMigration(
      options(source.namespace, {
        // After prune's first write, verify is past: someone edits the v1alpha1 Cluster.
        afterWrite: async () => {
          if (edited) return;
          edited = true;
          await mergePatch({
            ...cluster,
            metadata: { ...cluster.metadata, labels: { edited: 'after-verify' } },
          });
        },
      }),
    );
    if (E.isLeft(pruned)) throw new Error(JSON.stringify(pruned.left));
    const label = `Cluster ${source.namespace}/${source.name}`;
    expect(pruned.right.changedSinceVerify).toEqual([label]);
    expect(pruned.right.deleted).not.toContain(label);
    expect(pruned.right.warnings).toContainEqual(expect.stringContaining(`${label} changed since verify`));
    const after = await snapshot(source.namespace);
    expect([...after.keys()].filter((k) => k.startsWith(V1ALPHA1))).toEqual([
      `${V1ALPHA1}/Cluster/${source.name}`,
    ]);
    expect(after.get(`${V1ALPHA1}/Cluster/${source.name}`)?.metadata.labels).toEqual({
      edited: 'after-verify',
    });
    // "run verify, then prune again" (the edit undone first: it is a difference of its own):
    // verify passes, the targets of what prune deleted are no orphans, and prune finishes.
    await mergePatch({
      ...cluster,
      metadata: { ...cluster.metadata, labels: { edited: null } },
    });
    const again = await verifyClusterMigration(options(source.namespace));
    if (E.isLeft(again)) throw new Error(again.left.message);
    expect(again.right.differences).toEqual([]);
    const rest = await pruneClusterMigration(options(source.namespace));
    if (E.isLeft(rest)) throw new Error(JSON.stringify(rest.left));
    expect(rest.right.deleted).toEqual([label]);
  });

  it('prune keeps a MachineClass that a v1alpha1 MachineSet in another namespace still uses, and says so', async () => {
    // (prune deleted every MachineClass of the namespace, though objects elsewhere still used it)
    const source = await newNamespaceWith('aws', 'classes', 1);
    const client = KubernetesObjectApi.makeApiClient(env.kubeConfig);
    const create = (object: Record<string, unknown>) => client.create(object as KubernetesObject);
    const shared = `${source.name}-shared-class`;
    const unused = `${source.name}-unused-class`;
    for (const name of [shared, unused]) {
      await create({
        apiVersion: V1ALPHA1,
        kind: 'MachineClass',
        metadata: { name, namespace: source.namespace },
        providerSpec: { instanceType: 't3.large' },
      });
    }
    const elsewhere = await env.createNamespace('migrate-elsewhere');
    const selector = { set: 'elsewhere' };
    await create({
      apiVersion: V1ALPHA1,
      kind: 'MachineSet',
      metadata: { name: 'elsewhere-workers', namespace: elsewhere },
      spec: {
        replicas: 0,
        selector: { matchLabels: selector },
        template: {
          metadata: { labels: selector },
          spec: {
            versions: { kubelet: 'v1.14.4' },
            providerSpec: { valueFrom: { machineClass: { name: shared, namespace: source.namespace } } },
          },
        },
      },
    });
    const applied = await applyClusterMigration(options(source.namespace));
    if (E.isLeft(applied)) throw new Error(JSON.stringify(applied.left));
    const pruned = await pruneClusterMigration(options(source.namespace));
    if (E.isLeft(pruned)) throw new Error(JSON.stringify(pruned.left));
    const label = `MachineClass ${source.namespace}/${shared}`;
    expect(pruned.right.keptInUse).toEqual([label]);
    expect(pruned.right.deleted).toContain(`MachineClass ${source.namespace}/${unused}`);
    expect(pruned.right.warnings).toContainEqual(expect.stringContaining(`${label} is still referred to`));
    const left = await list(env.kubeConfig, V1ALPHA1, 'MachineClass', source.namespace);
    expect(left.map((o) => o.metadata.name)).toEqual([shared]);
  });

  it('verify reports what apply created for a v1alpha1 Machine deleted since, and prune refuses; a v1alpha2 Machine made by hand is not reported', async () => {
    // (verify walked the plan's sources only: the targets of a source deleted after apply
    // stayed unreported, and prune went ahead as if all were well)
    const source = await newNamespaceWith('aws', 'orphan', 2);
    const ns = source.namespace;
    const applied = await applyClusterMigration(options(ns));
    if (E.isLeft(applied)) throw new Error(JSON.stringify(applied.left));
    const client = KubernetesObjectApi.makeApiClient(env.kubeConfig);
    const gone = source.workers[1]!;
    const machine = { apiVersion: V1ALPHA1, kind: 'Machine', metadata: { name: gone, namespace: ns } };
    // Its finalizer would hold it: cleared first, so it is gone, not being deleted.
    await mergePatch({ ...machine, metadata: { ...machine.metadata, finalizers: null } });
    await client.delete(machine as KubernetesObject);
    expect(await list(env.kubeConfig, V1ALPHA1, 'Machine', ns)).not.toContainEqual(
      expect.objectContaining({ metadata: expect.objectContaining({ name: gone }) }),
    );
    await client.create(machineByHand(`${source.name}-by-hand`, ns));

    // The v1alpha2 Machine and what was generated for it (its AWSMachine, its KubeadmConfig).
    const orphans = applied.right.plan.objects
      .filter((o) => o.source.kind === 'Machine' && o.source.name === gone)
      .map((o) => ({
        object: `${o.key.kind} ${ns}/${o.key.name}`,
        message: `its v1alpha1 source Machine ${ns}/${gone} no longer exists`,
      }))
      .sort((a, b) => a.object.localeCompare(b.object));
    expect(orphans.map((o) => o.object)).toContain(`Machine ${ns}/${gone}`);
    expect(orphans.length).toBeGreaterThan(1);
    const verified = await verifyClusterMigration(options(ns));
    if (E.isLeft(verified)) throw new Error(verified.left.message);
    expect(verified.right.differences).toEqual(orphans);

    const before = await snapshot(ns);
    const refused = await pruneClusterMigration(options(ns));
    expect(E.isLeft(refused) && refused.left.code).toBe('verification');
    if (E.isLeft(refused) && refused.left.code === 'verification')
      expect(refused.left.differences).toEqual(orphans);
    expect(await snapshot(ns)).toEqual(before);
  });

  it('verify reports what apply generated for a source whose kind the plan no longer has (its only AWS Machine deleted)', async () => {
    // (verify listed only the Cluster API kinds and the plan's: with the only Machine gone,
    // the plan had no AWSMachine or KubeadmConfig, and the ones apply made went unreported)
    const source = await newNamespaceWith('aws', 'only', 0);
    const ns = source.namespace;
    const applied = await applyClusterMigration(options(ns));
    if (E.isLeft(applied)) throw new Error(JSON.stringify(applied.left));
    const gone = `${source.name}-controlplane-0`;
    const machine = { apiVersion: V1ALPHA1, kind: 'Machine', metadata: { name: gone, namespace: ns } };
    await mergePatch({ ...machine, metadata: { ...machine.metadata, finalizers: null } });
    await KubernetesObjectApi.makeApiClient(env.kubeConfig).delete(machine as KubernetesObject);
    expect(await list(env.kubeConfig, V1ALPHA1, 'Machine', ns)).toEqual([]);
    const plan = await planClusterMigration(options(ns));
    if (E.isLeft(plan)) throw new Error(plan.left.message);
    const kinds = new Set(plan.right.objects.map((o) => o.key.kind));
    expect(kinds.has('AWSMachine') || kinds.has('KubeadmConfig') || kinds.has('Machine')).toBe(false);

    const orphans = applied.right.plan.objects
      .filter((o) => o.source.kind === 'Machine' && o.source.name === gone)
      .map((o) => ({
        object: `${o.key.kind} ${ns}/${o.key.name}`,
        message: `its v1alpha1 source Machine ${ns}/${gone} no longer exists`,
      }))
      .sort((a, b) => a.object.localeCompare(b.object));
    expect(orphans.map((o) => o.object)).toEqual([
      `AWSMachine ${ns}/${gone}`,
      `KubeadmConfig ${ns}/${gone}`,
      `Machine ${ns}/${gone}`,
    ]);
    const verified = await verifyClusterMigration(options(ns));
    if (E.isLeft(verified)) throw new Error(verified.left.message);
    expect(verified.right.differences).toEqual(orphans);
    const refused = await pruneClusterMigration(options(ns));
    expect(E.isLeft(refused) && refused.left.code === 'verification' && refused.left.differences).toEqual(
      orphans,
    );

    // A plug-in's kind whose CRD is not installed is skipped, not an error.
    const unserved = {
      ...awsConversionPlugin,
      generates: [
        ...(awsConversionPlugin.generates ?? []),
        { apiVersion: 'infrastructure.cluster.x-k8s.io/v1alpha2', kind: 'NoSuchMachine' },
        { apiVersion: 'infrastructure.example.dev/v1alpha2', kind: 'NoSuchMachine' },
      ],
    };
    const again = await verifyClusterMigration(options(ns, { plugins: [unserved] }));
    if (E.isLeft(again)) throw new Error(again.left.message);
    expect(again.right.differences).toEqual(orphans);
  });

  it('after prune, verify passes again (its record names the sources it deleted) and a second prune is a no-op', async () => {
    // (verify took every target whose source prune had deleted for an orphan: after a prune,
    // verify failed for good and a second prune, as the runbook asks after "changed since
    // verify", refused)
    const source = await newNamespaceWith('aws', 'pruned', 1);
    const ns = source.namespace;
    const plan = await planClusterMigration(options(ns));
    if (E.isLeft(plan)) throw new Error(plan.left.message);
    const applied = await applyClusterMigration(options(ns));
    if (E.isLeft(applied)) throw new Error(JSON.stringify(applied.left));
    const verified = await verifyClusterMigration(options(ns));
    if (E.isLeft(verified)) throw new Error(verified.left.message);
    expect(verified.right.differences).toEqual([]);
    const pruned = await pruneClusterMigration(options(ns));
    if (E.isLeft(pruned)) throw new Error(JSON.stringify(pruned.left));
    expect(pruned.right.deleted).toHaveLength(source.objects);

    // The plan is empty now, yet verify lists what apply generated (AWSCluster, AWSMachine,
    // KubeadmConfig, templates): prune's record says their sources were pruned.
    const after = await planClusterMigration(options(ns));
    expect(E.isRight(after) && after.right.objects).toEqual([]);
    const generated = [...(await snapshot(ns)).entries()].filter(
      ([key, o]) =>
        !key.startsWith(`${V1ALPHA2}/`) &&
        (o.metadata.annotations as Record<string, string> | undefined)?.[SOURCE_UID_ANNOTATION] !== undefined,
    );
    expect(generated.map(([key]) => key.split('/').at(-2))).toEqual(
      expect.arrayContaining(['AWSCluster', 'AWSMachine', 'KubeadmConfig', 'AWSMachineTemplate']),
    );
    const again = await verifyClusterMigration(options(ns));
    if (E.isLeft(again)) throw new Error(again.left.message);
    expect(again.right.differences).toEqual([]);

    const before = await snapshot(ns);
    const writes: string[] = [];
    const second = await pruneClusterMigration(
      options(ns, { afterWrite: (w) => writes.push(`${w.verb} ${w.object.kind}/${w.object.name}`) }),
    );
    if (E.isLeft(second)) throw new Error(JSON.stringify(second.left));
    expect(second.right).toMatchObject({ deleted: [], finalizersCleared: [], changedSinceVerify: [] });
    expect(writes).toEqual([]);
    expect(await snapshot(ns)).toEqual(before);

    // The record: labelled as capi-kit's, one line per source UID prune deleted.
    const record = await env.kubeConfig
      .makeApiClient(CoreV1Api)
      .readNamespacedConfigMap({ name: PRUNED_RECORD, namespace: ns });
    expect(record.metadata?.labels).toEqual({ 'app.kubernetes.io/managed-by': 'capi-kit' });
    expect(
      record.data?.uids
        ?.split('\n')
        .filter((l) => l !== '')
        .sort(),
    ).toEqual(plan.right.sources.map((o) => (o.metadata as { uid: string }).uid).sort());
  });

  it('a malformed prune record stops verify and prune with an error naming the ConfigMap and why', async () => {
    const source = await newNamespaceWith('aws', 'record', 1);
    const ns = source.namespace;
    const applied = await applyClusterMigration(options(ns));
    if (E.isLeft(applied)) throw new Error(JSON.stringify(applied.left));
    const pruned = await pruneClusterMigration(options(ns));
    if (E.isLeft(pruned)) throw new Error(JSON.stringify(pruned.left));
    const core = env.kubeConfig.makeApiClient(CoreV1Api);
    const label = `ConfigMap ${ns}/${PRUNED_RECORD}`;
    const record = await core.readNamespacedConfigMap({ name: PRUNED_RECORD, namespace: ns });
    const ours = record.metadata?.labels;
    const cases: { data?: Record<string, string>; labels?: Record<string, string>; why: unknown }[] = [
      {
        labels: ours,
        data: { uids: `${record.data?.uids ?? ''}not-a-uid\u001b[31m\n` },
        why: expect.stringMatching(/^line \d+ of data\.uids is not a UID: "not-a-uid\\u001b\[31m"$/),
      },
      { labels: ours, data: {}, why: 'it has no data.uids' },
      {
        data: record.data,
        why: "it is not labelled app.kubernetes.io/managed-by=capi-kit, so not capi-kit's",
      },
    ];
    for (const { labels, data, why } of cases) {
      await core.replaceNamespacedConfigMap({
        name: PRUNED_RECORD,
        namespace: ns,
        body: { metadata: { name: PRUNED_RECORD, namespace: ns, labels }, data },
      });
      const expected = {
        code: 'verification',
        message: expect.stringContaining(`${label}, prune's record of the v1alpha1 objects it deleted`),
        differences: [{ object: label, message: why }],
      };
      expect(await verifyClusterMigration(options(ns))).toEqual(E.left(expected));
      expect(await pruneClusterMigration(options(ns))).toEqual(E.left(expected));
    }
  });

  it('refuses to overwrite a v1alpha2 object of the same name that it did not create', async () => {
    const source = await newNamespaceWith('aws', 'taken', 1);
    const client = KubernetesObjectApi.makeApiClient(env.kubeConfig);
    await client.create(machineByHand(source.workers[0]!, source.namespace));
    const before = await snapshot(source.namespace);
    const result = await applyClusterMigration(options(source.namespace));
    expect(E.isLeft(result) && result.left.code).toBe('preflight');
    if (E.isLeft(result) && result.left.code === 'preflight') {
      expect(result.left.problems).toEqual([
        expect.objectContaining({
          object: `Machine ${source.namespace}/${source.workers[0]}`,
          message: expect.stringContaining('refusing to overwrite'),
        }),
      ]);
    }
    expect(await snapshot(source.namespace)).toEqual(before);
  });

  it.skipIf(noControlPlane('client-certificates'))(
    'a user who may not create Machines gets a 403 naming the verb and resource before anything is written',
    async () => {
      const source = await newNamespaceWith('aws', 'rbac', 1);
      await env.grant(
        `migrator-${source.namespace}`,
        [
          {
            apiGroups: [
              'cluster.k8s.io',
              'cluster.x-k8s.io',
              'infrastructure.cluster.x-k8s.io',
              'bootstrap.cluster.x-k8s.io',
            ],
            resources: ['*'],
            verbs: ['get', 'list'],
          },
          {
            apiGroups: ['infrastructure.cluster.x-k8s.io', 'bootstrap.cluster.x-k8s.io'],
            resources: ['*'],
            verbs: ['create', 'patch'],
          },
          {
            apiGroups: ['cluster.x-k8s.io'],
            resources: ['clusters', 'machinesets', 'machinedeployments', '*/status'],
            verbs: ['create', 'patch'],
          },
          { apiGroups: [''], resources: ['secrets'], verbs: ['get', 'list', 'patch'] },
        ],
        { name: `migrate-reader-${source.namespace}` },
      );
      const kubeConfig = await env.kubeConfigFor(`migrator-${source.namespace}`);
      const before = await snapshot(source.namespace);
      // RBAC takes effect when the authorizer's cache catches up: poll for the answer.
      let result: Awaited<ReturnType<typeof applyClusterMigration>> | undefined;
      for (let attempt = 0; attempt < 50; attempt++) {
        result = await applyClusterMigration({ ...options(source.namespace), kubeConfig });
        const problems = E.isLeft(result) && result.left.code === 'preflight' ? result.left.problems : [];
        if (problems.length > 0 && problems.every((p) => p.status === 403)) break;
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      expect(E.isLeft(result!) && result!.left.code).toBe('preflight');
      if (E.isLeft(result!) && result!.left.code === 'preflight') {
        expect(result!.left.problems.length).toBeGreaterThan(0);
        for (const problem of result!.left.problems) {
          expect(problem.status).toBe(403);
          expect(problem.message).toContain('create machines.cluster.x-k8s.io');
        }
      }
      expect(await snapshot(source.namespace)).toEqual(before);
    },
  );
});
