import { join } from 'node:path';
import { type ControlPlane, startControlPlane } from '@capi-kit/envtest';
import { noControlPlane } from '@capi-kit/envtest/vitest';
import { awsConversionPlugin } from '@capi-kit/providers-aws';
import { KubernetesObjectApi } from '@kubernetes/client-node';
import * as E from 'fp-ts/lib/Either.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyClusterMigration, type MigrationOptions, verifyClusterMigration } from '../src/index.js';
import { root, seedSourceCluster } from './support/source-cluster.js';

// v1alpha1 straight to v1beta2, what today's management clusters serve, along the conversion
// chain. The v1.14.0 CRDs replace the v1alpha2 ones of the same names, so this file runs on
// a private control plane: the shared one keeps serving v1alpha2 to the other files.

const V1BETA2 = 'cluster.x-k8s.io/v1beta2';
const crdDirs = [
  'v1alpha1',
  'later/v1.14.0',
  'providers/aws/v1alpha2',
  'providers/kubeadm-bootstrap/v1alpha2',
].map((dir) => join(root, 'testdata/crds', dir));

describe.skipIf(noControlPlane('private-local'))('migrate --to cluster.x-k8s.io/v1beta2', () => {
  let plane: ControlPlane | undefined;
  let options: MigrationOptions;
  beforeAll(async () => {
    plane = await startControlPlane({ backend: 'local', log: () => {} });
    for (const dir of crdDirs) await plane.installCRDs(dir);
    const namespace = await plane.createNamespace('migrate-v1beta2');
    await seedSourceCluster(plane.kubeConfig, namespace, { provider: 'aws', name: 'today', workers: 2 });
    options = {
      kubeConfig: plane.kubeConfig,
      scope: { namespace },
      plugins: [awsConversionPlugin],
      to: V1BETA2,
    };
  }, 300_000);
  afterAll(async () => {
    await plane?.stop();
  });

  it('creates v1beta2 objects with rebuilt owners and restored status; a second apply writes nothing; verify passes', async () => {
    const applied = await applyClusterMigration(options);
    if (E.isLeft(applied)) throw new Error(JSON.stringify(applied.left));
    expect(applied.right.created.length).toBe(applied.right.plan.objects.length);

    const client = KubernetesObjectApi.makeApiClient(plane!.kubeConfig);
    const namespace = 'namespace' in options.scope ? options.scope.namespace : '';
    const list = async (kind: string) =>
      JSON.parse(JSON.stringify((await client.list(V1BETA2, kind, namespace)).items)) as {
        metadata: {
          name: string;
          uid: string;
          ownerReferences?: { apiVersion: string; kind: string; uid: string }[];
          labels?: object;
        };
        spec: Record<string, unknown>;
        status?: Record<string, unknown>;
      }[];
    const machineSets = await list('MachineSet');
    const machines = await list('Machine');
    expect(machines).toHaveLength(3);
    const worker = machines.find((m) => m.metadata.name === 'today-workers-5d8f-000')!;
    expect(worker.metadata.ownerReferences).toEqual([
      expect.objectContaining({ apiVersion: V1BETA2, kind: 'MachineSet', uid: machineSets[0]!.metadata.uid }),
    ]);
    expect(worker.metadata.labels).toMatchObject({ 'cluster.x-k8s.io/cluster-name': 'today' });
    // v1beta2 references name the group, not the version.
    expect(worker.spec.infrastructureRef).toMatchObject({
      apiGroup: 'infrastructure.cluster.x-k8s.io',
      kind: 'AWSMachine',
    });
    expect(worker.status).toMatchObject({ nodeRef: { name: 'today-node-0' } });

    let writes = 0;
    const again = await applyClusterMigration({ ...options, afterWrite: () => writes++ });
    if (E.isLeft(again)) throw new Error(JSON.stringify(again.left));
    expect(writes).toBe(0);

    const verified = await verifyClusterMigration(options);
    expect(E.isRight(verified) && verified.right.differences).toEqual([]);
  });
});
