// from-secret reads each Cluster's `<cluster>-kubeconfig` Secret in the Machine's namespace.
// The API server does not check a v1alpha3+ `spec.clusterName`, so it may hold a '/'.
import { useControlPlane } from '@capi-kit/envtest/vitest';
import { CoreV1Api } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Workloads } from '../src/workloads.js';

const management = useControlPlane();

describe("from-secret reads the Secret of the machine's own cluster", () => {
  let workloads: Workloads;

  beforeAll(async () => {
    // Cluster `a` has a kubeconfig Secret (this very control plane); `a/b` has none.
    await management.kubeConfig.makeApiClient(CoreV1Api).createNamespacedSecret({
      namespace: management.namespace,
      body: {
        metadata: { name: 'a-kubeconfig' },
        stringData: { value: management.kubeConfig.exportConfig() },
      },
    });
    workloads = await Workloads.start('from-secret', management.kubeConfig, undefined, () => {});
  });

  afterAll(async () => {
    await workloads?.stop();
  });

  it('a spec.clusterName with a slash is not taken for the cluster before it (a/b read the Secret of a)', async () => {
    const ns = management.namespace;
    await workloads.ensureFor([{ metadata: { name: 'm1', namespace: ns }, spec: { clusterName: 'a/b' } }]);
    expect(workloads.problems()).toEqual([
      expect.objectContaining({
        object: `Cluster ${ns}/a/b`,
        // (refused as a name, before any read: it cannot name a Secret)
        message: `workload cluster ${ns}/a/b: the workload cluster's name "a/b" is not a valid Cluster name: its kubeconfig Secret would be "a/b-kubeconfig", not a valid Secret name (lowercase letters, digits, '-' and '.', at most 253 characters)`,
      }),
    ]);
    // and cluster `a` itself is reached through its Secret
    await workloads.ensureFor([{ metadata: { name: 'm2', namespace: ns }, spec: { clusterName: 'a' } }]);
    expect(workloads.problems()).toEqual([]);
  });
});
