import { noControlPlane, useControlPlane } from '@capi-kit/envtest/vitest';
import { type KubernetesObject, KubernetesObjectApi } from '@kubernetes/client-node';
import * as E from 'fp-ts/lib/Either.js';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  applyClusterMigration,
  type MigrateError,
  type MigrationOptions,
  planClusterMigration,
} from '../src/index.js';
import { awsMigrationOptions, crdDirs, seedSourceCluster } from './support/source-cluster.js';

// Objects read from a cluster are no manifest's documents: what plan and apply say about
// them names each object, never a document number.

const env = useControlPlane();
const V1ALPHA1 = 'cluster.k8s.io/v1alpha1';

const options = (namespace: string) => awsMigrationOptions(env.kubeConfig, namespace);

function create(object: Record<string, unknown>): Promise<KubernetesObject> {
  return KubernetesObjectApi.makeApiClient(env.kubeConfig).create(object as KubernetesObject);
}

describe.skipIf(noControlPlane())('migrate names live objects, not documents', () => {
  beforeAll(async () => {
    for (const dir of crdDirs) await env.installCRDs(dir);
  });

  it("plan's conversion warnings name their object", async () => {
    const namespace = await env.createNamespace('migrate-names');
    await seedSourceCluster(env.kubeConfig, namespace, { provider: 'aws', name: 'warned', workers: 1 });
    await create({
      apiVersion: V1ALPHA1,
      kind: 'MachineClass',
      metadata: { name: 'unused-class', namespace },
      providerSpec: { instanceType: 't3.large' },
    });
    const plan = await planClusterMigration(options(namespace));
    if (E.isLeft(plan)) throw new Error(plan.left.message);
    expect(plan.right.warnings).toContainEqual(
      expect.stringMatching(new RegExp(`^MachineClass ${namespace}/unused-class: not used by any object`)),
    );
    expect(plan.right.warnings.filter((w) => /document \d/.test(w))).toEqual([]);
  });

  it("plan's and apply's conversion errors name their object", async () => {
    const namespace = await env.createNamespace('migrate-names');
    await seedSourceCluster(env.kubeConfig, namespace, { provider: 'aws', name: 'failed', workers: 1 });
    await create({
      apiVersion: V1ALPHA1,
      kind: 'Machine',
      metadata: { name: 'odd-provider', namespace, labels: { 'cluster.k8s.io/cluster-name': 'failed' } },
      spec: {
        versions: { kubelet: 'v1.14.4' },
        providerSpec: { value: { apiVersion: 'example.com/v1', kind: 'NoSuchProviderSpec' } },
      },
    });
    // A MachineDeployment and a MachineSet of one name make one AWSMachineTemplate twice.
    const { spec } = (await KubernetesObjectApi.makeApiClient(env.kubeConfig).read({
      apiVersion: V1ALPHA1,
      kind: 'MachineSet',
      metadata: { name: 'failed-workers-5d8f', namespace },
    })) as KubernetesObject & { spec: { template: { spec: { providerSpec: { value: object } } } } };
    const value = spec.template.spec.providerSpec.value;
    for (const [kind, instanceType] of [
      ['MachineDeployment', 't3.large'],
      ['MachineSet', 't3.xlarge'],
    ] as const) {
      await create({
        apiVersion: V1ALPHA1,
        kind,
        metadata: { name: 'twin', namespace },
        spec: {
          replicas: 0,
          selector: { matchLabels: { set: 'twin' } },
          template: {
            metadata: { labels: { set: 'twin' } },
            spec: { versions: { kubelet: 'v1.14.4' }, providerSpec: { value: { ...value, instanceType } } },
          },
        },
      });
    }
    const runs: ((o: MigrationOptions) => Promise<E.Either<MigrateError, unknown>>)[] = [
      planClusterMigration,
      applyClusterMigration,
    ];
    for (const run of runs) {
      const result = await run(options(namespace));
      if (E.isRight(result) || result.left.code !== 'conversion') throw new Error(JSON.stringify(result));
      const lines = result.left.message.split('\n');
      expect(lines).toEqual([
        `MachineSet ${namespace}/twin: AWSMachineTemplate ${namespace}/twin would be written twice, with different content (also by MachineDeployment ${namespace}/twin); does the manifest mix versions of one object?`,
        expect.stringMatching(new RegExp(`^Machine ${namespace}/odd-provider: spec\\.providerSpec`)),
      ]);
      expect(lines.filter((l) => /document \d/.test(l))).toEqual([]);
    }
  });
});
