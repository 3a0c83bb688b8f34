// The inventory of a management cluster with many v1alpha1 Clusters in one namespace:
// finding each Secret's Cluster must cost work in proportion to the Secrets and Clusters,
// not to their product. Counted, not timed: the object helpers inventory.ts calls are
// wrapped to count how often an object is read (the server, and the rest, stay real).
import { noControlPlane, useControlPlane } from '@capi-kit/envtest/vitest';
import { CoreV1Api, CustomObjectsApi } from '@kubernetes/client-node';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { ClusterApi } from '../src/cluster-api.js';
import { readInventory } from '../src/inventory.js';
import { crdDirs } from './support/source-cluster.js';

const reads = vi.hoisted(() => ({ count: 0 }));
vi.mock('../src/object.js', async (importOriginal) => {
  const original = await importOriginal<typeof import('../src/object.js')>();
  const counted =
    <A extends unknown[], R>(f: (...args: A) => R) =>
    (...args: A): R => {
      reads.count++;
      return f(...args);
    };
  return {
    ...original,
    metadataOf: counted(original.metadataOf),
    keyOf: counted(original.keyOf),
    uidOf: counted(original.uidOf),
  };
});

const env = useControlPlane();
const CLUSTERS = 50;

describe.skipIf(noControlPlane())('migrate inventory with many Clusters in one namespace', () => {
  beforeAll(async () => {
    for (const dir of crdDirs) await env.installCRDs(dir);
    const custom = env.kubeConfig.makeApiClient(CustomObjectsApi);
    const core = env.kubeConfig.makeApiClient(CoreV1Api);
    const namespace = env.namespace;
    await Promise.all(
      Array.from({ length: CLUSTERS }, async (_, i) => {
        await custom.createNamespacedCustomObject({
          group: 'cluster.k8s.io',
          version: 'v1alpha1',
          namespace,
          plural: 'clusters',
          body: {
            apiVersion: 'cluster.k8s.io/v1alpha1',
            kind: 'Cluster',
            metadata: { name: `c${i}` },
            spec: {
              clusterNetwork: {
                services: { cidrBlocks: ['10.96.0.0/12'] },
                pods: { cidrBlocks: ['192.168.0.0/16'] },
                serviceDomain: 'cluster.local',
              },
            },
          },
        });
        // The Cluster's kubeconfig, and an application's Secret only named like it.
        for (const name of [`c${i}-kubeconfig`, `c${i}-db-password`])
          await core.createNamespacedSecret({ namespace, body: { metadata: { name }, data: {} } });
      }),
    );
  });

  it("finds each Secret's Cluster with work linear in the objects read", async () => {
    reads.count = 0;
    const inventory = await readInventory(new ClusterApi(env.kubeConfig), { namespace: env.namespace });
    expect(inventory.secrets).toHaveLength(CLUSTERS);
    expect(inventory.lookalikes).toHaveLength(CLUSTERS);
    for (const { secret, cluster } of inventory.secrets)
      expect((secret.metadata as { name: string }).name).toBe(`${cluster}-kubeconfig`);
    for (const { secret, cluster } of inventory.lookalikes ?? [])
      expect((secret.metadata as { name: string }).name).toBe(`${cluster}-db-password`);
    // Linear: a few reads per Cluster and per Secret. Judging every Secret against every
    // Cluster would be (2 × CLUSTERS) × CLUSTERS = 5,000 and more.
    expect(reads.count).toBeLessThanOrEqual(10 * (CLUSTERS + 2 * CLUSTERS));
  });
});
