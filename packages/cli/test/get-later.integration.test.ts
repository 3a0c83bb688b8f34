import { join } from 'node:path';
import { type ControlPlane, startControlPlane } from '@capi-kit/envtest';
import { noControlPlane } from '@capi-kit/envtest/vitest';
import { CustomObjectsApi, PatchStrategy, setHeaderOptions } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { crdRoot } from '../../client/test/helpers/fixtures.js';
import { runCli } from './helpers/run-cli.js';

// A Cluster API v1.14 management cluster serves each object at v1beta1 and v1beta2: `get`
// lists it once, at the group's preferred version.
describe.skipIf(noControlPlane('private-local'))('capi-kit get on a v1beta1 + v1beta2 cluster', () => {
  let plane: ControlPlane;
  let ns: string;

  beforeAll(async () => {
    plane = await startControlPlane({ backend: 'local', log: () => {} });
    await plane.installCRDs(join(crdRoot, 'later/v1.14.0'));
    ns = await plane.createNamespace('get-later');
    const api = plane.kubeConfig.makeApiClient(CustomObjectsApi);
    const create = (plural: string, body: object) =>
      api.createNamespacedCustomObject({
        group: 'cluster.x-k8s.io',
        version: 'v1beta2',
        namespace: ns,
        plural,
        body,
      });
    const machine = (name: string, clusterName: string) => ({
      apiVersion: 'cluster.x-k8s.io/v1beta2',
      kind: 'Machine',
      metadata: { name, namespace: ns },
      spec: {
        clusterName,
        bootstrap: { dataSecretName: `${name}-bootstrap` },
        infrastructureRef: { apiGroup: 'infrastructure.cluster.x-k8s.io', kind: 'AWSMachine', name },
      },
    });
    const cluster = (name: string, paused: boolean) => ({
      apiVersion: 'cluster.x-k8s.io/v1beta2',
      kind: 'Cluster',
      metadata: { name, namespace: ns },
      spec: {
        paused,
        infrastructureRef: { apiGroup: 'infrastructure.cluster.x-k8s.io', kind: 'AWSCluster', name },
      },
    });
    await create('machines', machine('m-0', 'today'));
    await create('machines', machine('m-1', 'held'));
    const running = machine('m-2', 'today');
    await create('machines', { ...running, spec: { ...running.spec, providerID: 'aws:///eu-west-1a/i-2' } });
    await api.patchNamespacedCustomObjectStatus(
      {
        group: 'cluster.x-k8s.io',
        version: 'v1beta2',
        namespace: ns,
        plural: 'machines',
        name: 'm-2',
        body: {
          status: { initialization: { infrastructureProvisioned: true }, nodeRef: { name: 'node-2' } },
        },
      },
      setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
    );
    await create('clusters', cluster('today', false));
    await create('clusters', cluster('held', true));
  });
  afterAll(async () => {
    await plane?.stop();
  });

  it('lists each Machine once, at v1beta2', () => {
    const table = runCli(['get', 'machines', '-n', ns], { env: { KUBECONFIG: plane.kubeconfigPath } });
    expect(table.code).toBe(0);
    const rows = table.stdout.trimEnd().split('\n').slice(1);
    // PHASE is v1beta2's rule, though no status is stored: bootstrap secret named, no
    // infrastructure yet → Provisioning; m-1's Cluster is paused, so its stored "" stands.
    expect(rows.map((r) => r.split(/\s+/).slice(0, 4))).toEqual([
      ['m-0', 'cluster.x-k8s.io/v1beta2', 'today', 'Provisioning'],
      ['m-1', 'cluster.x-k8s.io/v1beta2', 'held', '<unknown>'],
      ['m-2', 'cluster.x-k8s.io/v1beta2', 'today', 'Running'],
    ]);
    const json = JSON.parse(
      runCli(['get', 'machines', '-n', ns, '-o', 'json'], { env: { KUBECONFIG: plane.kubeconfigPath } })
        .stdout,
    );
    expect(json.items).toHaveLength(3);
  });

  it('shows computed Cluster phases, and counts v1beta2 Running Machines', () => {
    const table = runCli(['get', 'clusters', '-n', ns], { env: { KUBECONFIG: plane.kubeconfigPath } });
    expect(table.code).toBe(0);
    const rows = table.stdout.trimEnd().split('\n').slice(1);
    expect(rows.map((r) => r.split(/\s+/).slice(0, 4))).toEqual([
      ['held', 'cluster.x-k8s.io/v1beta2', '<unknown>', '0/1'],
      ['today', 'cluster.x-k8s.io/v1beta2', 'Provisioning', '1/2'],
    ]);
  });
});
