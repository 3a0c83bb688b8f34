import { noControlPlane, useControlPlane } from '@capi-kit/envtest/vitest';
import { CoreV1Api, type KubernetesObject, KubernetesObjectApi } from '@kubernetes/client-node';
import * as E from 'fp-ts/lib/Either.js';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  applyClusterMigration,
  PRUNED_RECORD,
  pruneClusterMigration,
  SOURCE_PRUNED_ANNOTATION,
  SOURCE_UID_ANNOTATION,
  verifyClusterMigration,
  type Write,
} from '../src/index.js';
import {
  awsMigrationOptions,
  crdDirs,
  listObjects,
  mergePatchAs,
  seedSourceCluster,
} from './support/source-cluster.js';

// Prune's record (the ConfigMap capi-kit-migrate-pruned) is trusted on its label alone, so
// whoever may create ConfigMaps in a namespace can write one. What prune deletes never comes
// from it: only the v1alpha1 objects of the plan, after verify, each under the UID and
// resourceVersion verify read. A forged record can stop a prune before its first delete (it
// does not read), never widen what is deleted. Nor can it silence verify: an object whose
// source is gone is taken for pruned only when the record AND the object itself (the
// annotation prune writes on it, which a ConfigMap writer cannot) say so.

const env = useControlPlane();
const V1ALPHA1 = 'cluster.k8s.io/v1alpha1';
const V1ALPHA2 = 'cluster.x-k8s.io/v1alpha2';
const KINDS = ['Cluster', 'MachineClass', 'MachineDeployment', 'MachineSet', 'Machine'];
const LABELS = { 'app.kubernetes.io/managed-by': 'capi-kit' };
/** Every kind apply creates for an AWS cluster (Secrets aside). */
const TARGET_KINDS: readonly (readonly [string, string])[] = [
  [V1ALPHA2, 'Cluster'],
  [V1ALPHA2, 'MachineDeployment'],
  [V1ALPHA2, 'MachineSet'],
  [V1ALPHA2, 'Machine'],
  ['infrastructure.cluster.x-k8s.io/v1alpha2', 'AWSCluster'],
  ['infrastructure.cluster.x-k8s.io/v1alpha2', 'AWSMachine'],
  ['infrastructure.cluster.x-k8s.io/v1alpha2', 'AWSMachineTemplate'],
  ['bootstrap.cluster.x-k8s.io/v1alpha2', 'KubeadmConfig'],
  ['bootstrap.cluster.x-k8s.io/v1alpha2', 'KubeadmConfigTemplate'],
  ['v1', 'Secret'],
];

/** `Kind name` and the annotations of every object apply created in a namespace (it carries the source UID). */
async function created(namespace: string): Promise<{ label: string; annotations: Record<string, string> }[]> {
  const out: { label: string; annotations: Record<string, string> }[] = [];
  for (const [apiVersion, kind] of TARGET_KINDS)
    for (const o of await listObjects(env.kubeConfig, apiVersion, kind, namespace)) {
      const annotations = (o.metadata.annotations ?? {}) as Record<string, string>;
      if (annotations[SOURCE_UID_ANNOTATION] !== undefined)
        out.push({ label: `${kind} ${namespace}/${String(o.metadata.name)}`, annotations });
    }
  return out.sort((a, b) => a.label.localeCompare(b.label));
}

const options = (namespace: string, afterWrite?: (write: Write) => void) =>
  awsMigrationOptions(env.kubeConfig, namespace, afterWrite);

/** `Kind name uid` of every object of the kinds, in a namespace. */
async function objects(apiVersion: string, kinds: readonly string[], namespace: string): Promise<string[]> {
  const out: string[] = [];
  for (const kind of kinds)
    for (const o of await listObjects(env.kubeConfig, apiVersion, kind, namespace))
      out.push(`${kind} ${String(o.metadata.name)} ${String(o.metadata.uid)}`);
  return out.sort();
}

const uidsOf = (listed: readonly string[]) => listed.map((l) => l.split(' ')[2]!);

async function writeRecord(namespace: string, labels: Record<string, string> | undefined, uids: string) {
  const core = env.kubeConfig.makeApiClient(CoreV1Api);
  await core.deleteNamespacedConfigMap({ name: PRUNED_RECORD, namespace }).catch(() => undefined);
  await core.createNamespacedConfigMap({
    namespace,
    body: {
      metadata: { name: PRUNED_RECORD, namespace, ...(labels === undefined ? {} : { labels }) },
      data: { uids },
    },
  });
}

describe.skipIf(noControlPlane())("migrate's prune with a forged record", () => {
  beforeAll(async () => {
    for (const dir of crdDirs) await env.installCRDs(dir);
  });

  it('a forged record cannot make prune delete anything but the verified v1alpha1 objects of its scope', async () => {
    const namespace = await env.createNamespace('migrate-record');
    const other = await env.createNamespace('migrate-record');
    const source = await seedSourceCluster(env.kubeConfig, namespace, {
      provider: 'aws',
      name: 'rec',
      workers: 1,
    });
    await seedSourceCluster(env.kubeConfig, other, { provider: 'aws', name: 'rec', workers: 1 });
    for (const ns of [namespace, other]) {
      const applied = await applyClusterMigration(options(ns));
      if (E.isLeft(applied)) throw new Error(JSON.stringify(applied.left));
    }
    const sources = await objects(V1ALPHA1, KINDS, namespace);
    const elsewhere = await objects(V1ALPHA1, KINDS, other);
    const targets = await objects(
      V1ALPHA2,
      ['Cluster', 'MachineDeployment', 'MachineSet', 'Machine'],
      namespace,
    );
    const secrets = await objects('v1', ['Secret'], namespace);
    expect(sources).toHaveLength(source.objects);

    // Not capi-kit's (no label), or not one UID a line: prune stops before its first write.
    for (const [labels, uids] of [
      [undefined, `${uidsOf(elsewhere).join('\n')}\n`],
      [LABELS, 'Machine rec-workers-0\n'],
    ] as const) {
      await writeRecord(namespace, labels, uids);
      const writes: Write[] = [];
      const refused = await pruneClusterMigration(options(namespace, (w) => void writes.push(w)));
      expect(E.isLeft(refused) && refused.left.code).toBe('verification');
      expect(E.isLeft(refused) && refused.left.message).toContain(
        `ConfigMap ${namespace}/${PRUNED_RECORD}, prune's record of the v1alpha1 objects it deleted, cannot be used`,
      );
      expect(writes).toEqual([]);
      expect(await objects(V1ALPHA1, KINDS, namespace)).toEqual(sources);
    }

    // Labelled as capi-kit's and listing the UIDs of what must stay: the other namespace's
    // v1alpha1 objects, this namespace's v1alpha2 objects and Secrets.
    await writeRecord(
      namespace,
      LABELS,
      [...uidsOf(elsewhere), ...uidsOf(targets), ...uidsOf(secrets)].map((uid) => `${uid}\n`).join(''),
    );
    const deletes: string[] = [];
    const pruned = await pruneClusterMigration(
      options(namespace, (w) => {
        if (w.verb === 'delete') deletes.push(`${w.object.kind} ${w.object.name}`);
      }),
    );
    if (E.isLeft(pruned)) throw new Error(JSON.stringify(pruned.left));
    // Exactly this namespace's v1alpha1 objects, nothing the record lists.
    expect(deletes.sort()).toEqual(sources.map((l) => l.split(' ').slice(0, 2).join(' ')).sort());
    expect(await objects(V1ALPHA1, KINDS, namespace)).toEqual([]);
    expect(await objects(V1ALPHA1, KINDS, other)).toEqual(elsewhere);
    expect(
      await objects(V1ALPHA2, ['Cluster', 'MachineDeployment', 'MachineSet', 'Machine'], namespace),
    ).toEqual(targets);
    expect(await objects('v1', ['Secret'], namespace)).toEqual(secrets);
  });

  it('a record forged to list the source UID of an orphan does not silence verify, and prune still refuses', async () => {
    // (verify took every object whose source UID a labelled record listed for pruned: a
    // ConfigMap writer could hide an orphan from it and let prune past its safety stop)
    const namespace = await env.createNamespace('migrate-record');
    const source = await seedSourceCluster(env.kubeConfig, namespace, {
      provider: 'aws',
      name: 'orphan',
      workers: 2,
    });
    const applied = await applyClusterMigration(options(namespace));
    if (E.isLeft(applied)) throw new Error(JSON.stringify(applied.left));
    // A v1alpha1 Machine deleted by hand (not by prune), its finalizer cleared first.
    const gone = source.workers[1]!;
    const machine = { apiVersion: V1ALPHA1, kind: 'Machine', metadata: { name: gone, namespace } };
    await mergePatchAs(env.kubeConfig, { ...machine, metadata: { ...machine.metadata, finalizers: null } });
    await KubernetesObjectApi.makeApiClient(env.kubeConfig).delete(machine as KubernetesObject);
    const targets = applied.right.plan.objects.filter(
      (o) => o.source.kind === 'Machine' && o.source.name === gone,
    );
    const uid = targets[0]!.source.uid;
    const orphans = (recorded: boolean) =>
      targets
        .map((o) => ({
          object: `${o.key.kind} ${namespace}/${o.key.name}`,
          message: `its v1alpha1 source Machine ${namespace}/${gone} no longer exists${recorded ? ` (prune's record lists it, but the object does not carry ${SOURCE_PRUNED_ANNOTATION}: ${uid}, which prune writes with it)` : ''}`,
        }))
        .sort((a, b) => a.object.localeCompare(b.object));
    expect(orphans(false).map((o) => o.object)).toEqual([
      `AWSMachine ${namespace}/${gone}`,
      `KubeadmConfig ${namespace}/${gone}`,
      `Machine ${namespace}/${gone}`,
    ]);
    const verified = await verifyClusterMigration(options(namespace));
    expect(E.isRight(verified) && verified.right.differences).toEqual(orphans(false));

    // The forger needs only to create ConfigMaps (the UID is on the orphan for whoever may
    // read it): a record labelled as capi-kit's, alone or added to the UIDs of the sources
    // still there, as an edit of a genuine record would be.
    const sources = await objects(V1ALPHA1, KINDS, namespace);
    for (const uids of [[uid], [...uidsOf(sources), uid]]) {
      await writeRecord(namespace, LABELS, uids.map((u) => `${u}\n`).join(''));
      const again = await verifyClusterMigration(options(namespace));
      expect(E.isRight(again) && again.right.differences).toEqual(orphans(true));
      const writes: Write[] = [];
      const refused = await pruneClusterMigration(options(namespace, (w) => void writes.push(w)));
      expect(E.isLeft(refused) && refused.left.code === 'verification' && refused.left.differences).toEqual(
        orphans(true),
      );
      expect(writes).toEqual([]);
      expect(await objects(V1ALPHA1, KINDS, namespace)).toEqual(sources);
    }
  });

  it('a genuine record keeps working: prune marks each object it leaves behind, verify and a second prune pass; the record or the mark alone does not', async () => {
    const namespace = await env.createNamespace('migrate-record');
    const source = await seedSourceCluster(env.kubeConfig, namespace, {
      provider: 'aws',
      name: 'genuine',
      workers: 1,
    });
    const applied = await applyClusterMigration(options(namespace));
    if (E.isLeft(applied)) throw new Error(JSON.stringify(applied.left));
    const pruned = await pruneClusterMigration(options(namespace));
    if (E.isLeft(pruned)) throw new Error(JSON.stringify(pruned.left));
    expect(pruned.right.deleted).toHaveLength(source.objects);
    expect(await objects(V1ALPHA1, KINDS, namespace)).toEqual([]);

    // Every object apply created carries its source's UID twice: apply's annotation and prune's.
    const left = await created(namespace);
    expect(left.map((o) => o.label)).toEqual(
      applied.right.plan.objects.map((o) => `${o.key.kind} ${namespace}/${o.key.name}`).sort(),
    );
    for (const { annotations } of left)
      expect(annotations[SOURCE_PRUNED_ANNOTATION]).toBe(annotations[SOURCE_UID_ANNOTATION]);

    // Verify passes again, and a second prune (the runbook's "run verify, then prune again")
    // passes and writes nothing.
    const verified = await verifyClusterMigration(options(namespace));
    expect(E.isRight(verified) && verified.right.differences).toEqual([]);
    const writes: Write[] = [];
    const second = await pruneClusterMigration(options(namespace, (w) => void writes.push(w)));
    if (E.isLeft(second)) throw new Error(JSON.stringify(second.left));
    expect(second.right.deleted).toEqual([]);
    expect(writes).toEqual([]);

    // Prune's mark taken off one object (as on an object pruned before prune wrote it): the
    // record alone does not make it pruned, and verify says what is missing.
    const cluster = { apiVersion: V1ALPHA2, kind: 'Cluster', metadata: { name: 'genuine', namespace } };
    const clusterUid = applied.right.plan.objects.find((o) => o.key.kind === 'Cluster')!.source.uid;
    await mergePatchAs(env.kubeConfig, {
      ...cluster,
      metadata: { ...cluster.metadata, annotations: { [SOURCE_PRUNED_ANNOTATION]: null } },
    });
    const unmarked = await verifyClusterMigration(options(namespace));
    expect(E.isRight(unmarked) && unmarked.right.differences).toEqual([
      {
        object: `Cluster ${namespace}/genuine`,
        message: `its v1alpha1 source Cluster ${namespace}/genuine no longer exists (prune's record lists it, but the object does not carry ${SOURCE_PRUNED_ANNOTATION}: ${clusterUid}, which prune writes with it)`,
      },
    ]);
    // Put back, the record deleted: the marks alone do not do either.
    await mergePatchAs(env.kubeConfig, {
      ...cluster,
      metadata: { ...cluster.metadata, annotations: { [SOURCE_PRUNED_ANNOTATION]: clusterUid } },
    });
    await env.kubeConfig
      .makeApiClient(CoreV1Api)
      .deleteNamespacedConfigMap({ name: PRUNED_RECORD, namespace });
    const unrecorded = await verifyClusterMigration(options(namespace));
    expect(E.isRight(unrecorded) && unrecorded.right.differences.map((d) => d.object)).toEqual(
      left.map((o) => o.label),
    );
  });
});
