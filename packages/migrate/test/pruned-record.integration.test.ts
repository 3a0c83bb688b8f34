import { noControlPlane, useControlPlane } from '@capi-kit/envtest/vitest';
import { awsConversionPlugin } from '@capi-kit/providers-aws';
import { CoreV1Api } from '@kubernetes/client-node';
import * as E from 'fp-ts/lib/Either.js';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  applyClusterMigration,
  type MigrationOptions,
  PRUNED_RECORD,
  pruneClusterMigration,
  type Write,
} from '../src/index.js';
import { crdDirs, listObjects, seedSourceCluster } from './support/source-cluster.js';

// Prune's record (the ConfigMap capi-kit-migrate-pruned) is trusted on its label alone, so
// whoever may create ConfigMaps in a namespace can write one. What prune deletes never comes
// from it: only the v1alpha1 objects of the plan, after verify, each under the UID and
// resourceVersion verify read. A forged record can stop a prune before its first delete (it
// does not read), never widen what is deleted.

const env = useControlPlane();
const V1ALPHA1 = 'cluster.k8s.io/v1alpha1';
const V1ALPHA2 = 'cluster.x-k8s.io/v1alpha2';
const KINDS = ['Cluster', 'MachineClass', 'MachineDeployment', 'MachineSet', 'Machine'];
const LABELS = { 'app.kubernetes.io/managed-by': 'capi-kit' };

function options(namespace: string, afterWrite?: (write: Write) => void): MigrationOptions {
  return {
    kubeConfig: env.kubeConfig,
    scope: { namespace },
    plugins: [awsConversionPlugin],
    ...(afterWrite === undefined ? {} : { afterWrite }),
  };
}

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
});
