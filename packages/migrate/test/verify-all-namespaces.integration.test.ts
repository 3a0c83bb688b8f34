import { type ControlPlane, startControlPlane } from '@capi-kit/envtest';
import { noControlPlane } from '@capi-kit/envtest/vitest';
import { awsConversionPlugin } from '@capi-kit/providers-aws';
import { vsphereConversionPlugin } from '@capi-kit/providers-vsphere';
import { type KubernetesObject, KubernetesObjectApi } from '@kubernetes/client-node';
import * as E from 'fp-ts/lib/Either.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  applyClusterMigration,
  type MigrationOptions,
  pruneClusterMigration,
  verifyClusterMigration,
} from '../src/index.js';
import { crdDirs, type SourceCluster, seedSourceCluster } from './support/source-cluster.js';

const V1ALPHA1 = 'cluster.k8s.io/v1alpha1';
const V1ALPHA1_KINDS = ['Machine', 'MachineSet', 'MachineDeployment', 'MachineClass', 'Cluster'];
/** A certificate key pair as v1alpha1 providerSpecs carry it ([]byte, so base64 in JSON). */
const keyPair = { cert: 'Y2VydA==', key: 'a2V5' };

// With -A, verify lists the key-pair Secrets in the namespaces of the plan and of every object
// an earlier apply created: a namespace whose v1alpha1 objects are all gone has no plan object
// left, only the v1alpha2 objects apply made there. A private control plane, because -A sees
// every namespace: on the shared one, other files' half-done migrations would show up here.
describe.skipIf(noControlPlane('private-local'))('migrate verify -A', () => {
  let plane: ControlPlane;
  let gone: SourceCluster;
  let kept: SourceCluster;
  const options = (): MigrationOptions => ({
    kubeConfig: plane.kubeConfig,
    scope: { allNamespaces: true },
    plugins: [awsConversionPlugin, vsphereConversionPlugin],
  });

  beforeAll(async () => {
    plane = await startControlPlane({ backend: 'local', log: () => {} });
    for (const dir of crdDirs) await plane.installCRDs(dir);
    gone = await seedSourceCluster(plane.kubeConfig, await plane.createNamespace('gone'), {
      provider: 'aws',
      name: 'east',
      workers: 1,
    });
    kept = await seedSourceCluster(plane.kubeConfig, await plane.createNamespace('kept'), {
      provider: 'vsphere',
      name: 'west',
      workers: 1,
    });
    // Key pairs on both Clusters, so apply makes the <cluster>-ca and -etcd Secrets.
    for (const { name, namespace } of [gone, kept]) {
      await mergePatch({
        apiVersion: V1ALPHA1,
        kind: 'Cluster',
        metadata: { name, namespace },
        spec: { providerSpec: { value: { caKeyPair: keyPair, etcdCAKeyPair: keyPair } } },
      });
    }
  }, 120_000);
  /** A JSON merge patch (RFC 7386) of the object the body names, as `kubectl patch --type merge`. */
  const mergePatch = (body: Record<string, unknown>) =>
    KubernetesObjectApi.makeApiClient(plane.kubeConfig).patch(
      body as KubernetesObject,
      undefined,
      undefined,
      undefined,
      undefined,
      'application/merge-patch+json',
    );

  afterAll(async () => {
    await plane?.stop();
  });

  it("reports every object apply made for a namespace whose v1alpha1 objects are all gone, key-pair Secrets included, and nothing of the other namespace's", async () => {
    const applied = await applyClusterMigration(options());
    if (E.isLeft(applied)) throw new Error(JSON.stringify(applied.left));
    const before = await verifyClusterMigration(options());
    if (E.isLeft(before)) throw new Error(before.left.message);
    expect(before.right.differences).toEqual([]);

    const objects = KubernetesObjectApi.makeApiClient(plane.kubeConfig);
    for (const kind of V1ALPHA1_KINDS) {
      const { items } = await objects.list(V1ALPHA1, kind, gone.namespace);
      for (const item of items) {
        const at = {
          apiVersion: V1ALPHA1,
          kind,
          metadata: { name: item.metadata?.name, namespace: gone.namespace },
        };
        await mergePatch({ ...at, metadata: { ...at.metadata, finalizers: null } });
        await objects.delete(at as KubernetesObject);
      }
    }

    const expected = applied.right.plan.objects
      .filter((o) => o.source.namespace === gone.namespace)
      .map((o) => `${o.key.kind} ${gone.namespace}/${o.key.name}`)
      .sort();
    expect(expected).toEqual(
      expect.arrayContaining([`Secret ${gone.namespace}/east-ca`, `Secret ${gone.namespace}/east-etcd`]),
    );
    const after = await verifyClusterMigration(options());
    if (E.isLeft(after)) throw new Error(after.left.message);
    const differences = new Map(after.right.differences.map((d) => [d.object, d.message]));
    expect([...differences.keys()].sort()).toEqual(expected);
    for (const message of differences.values())
      expect(message).toMatch(/^its v1alpha1 source .* no longer exists$/);
    // (a template names no owner, so its source is given by UID; a Secret names its Cluster)
    expect(differences.get(`Secret ${gone.namespace}/east-ca`)).toBe(
      `its v1alpha1 source Cluster ${gone.namespace}/east no longer exists`,
    );

    const refused = await pruneClusterMigration(options());
    expect(E.isLeft(refused) && refused.left.code).toBe('verification');
    const { items } = await objects.list(V1ALPHA1, 'Machine', kept.namespace);
    expect(items.length).toBeGreaterThan(0);
  }, 120_000);
});
