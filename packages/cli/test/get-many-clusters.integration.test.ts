// `capi-kit get clusters` on a management cluster with many Clusters: the MACHINES column
// must cost work in proportion to the objects listed, not to clusters × machines. Counted,
// not timed: the library's clusterNameOf is wrapped to count how often a Machine's
// cluster is asked for (the server, and everything else, stay real).
import { noControlPlane, useControlPlane } from '@capi-kit/envtest/vitest';
import { CustomObjectsApi } from '@kubernetes/client-node';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { capiCrdDirs } from '../../client/test/helpers/fixtures.js';
import { runMain } from './helpers/capture-io.js';

const calls = vi.hoisted(() => ({ clusterNameOf: 0 }));
vi.mock('@capi-kit/client', async (importOriginal) => {
  const original = await importOriginal<typeof import('@capi-kit/client')>();
  return {
    ...original,
    clusterNameOf: (...args: Parameters<typeof original.clusterNameOf>) => {
      calls.clusterNameOf++;
      return original.clusterNameOf(...args);
    },
  };
});

const env = useControlPlane();
const CLUSTERS = 40;

describe.skipIf(noControlPlane())('capi-kit get clusters with many Clusters', () => {
  beforeAll(async () => {
    for (const dir of capiCrdDirs) await env.installCRDs(dir);
    const api = env.kubeConfig.makeApiClient(CustomObjectsApi);
    const create = (plural: string, body: Record<string, unknown>) =>
      api.createNamespacedCustomObject({
        group: 'cluster.x-k8s.io',
        version: 'v1alpha2',
        namespace: env.namespace,
        plural,
        body: { apiVersion: 'cluster.x-k8s.io/v1alpha2', ...body },
      });
    await Promise.all(
      Array.from({ length: CLUSTERS }, async (_, i) => {
        await create('clusters', { kind: 'Cluster', metadata: { name: `c${i}` }, spec: {} });
        await create('machines', {
          kind: 'Machine',
          metadata: { name: `m${i}`, labels: { 'cluster.x-k8s.io/cluster-name': `c${i}` } },
          spec: { bootstrap: { data: 'eA==' }, infrastructureRef: { name: 'x' } },
        });
      }),
    );
  });

  it("counts each Cluster's Machines with work linear in the objects listed", async () => {
    calls.clusterNameOf = 0;
    const { code, stdout } = await runMain([
      'get',
      'clusters',
      '-n',
      env.namespace,
      '--kubeconfig',
      env.kubeconfigPath,
    ]);
    expect(code).toBe(0);
    const rows = stdout.trimEnd().split('\n').slice(1);
    expect(rows).toHaveLength(CLUSTERS);
    expect(rows.every((row) => row.split(/\s+/)[3] === '0/1')).toBe(true);
    // Linear: a few questions per Machine. Asking every Machine for every Cluster would be
    // CLUSTERS × CLUSTERS = 1,600.
    expect(calls.clusterNameOf).toBeLessThanOrEqual(4 * CLUSTERS);
  });
});
