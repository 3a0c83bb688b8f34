import { join } from 'node:path';
import { type ControlPlane, startControlPlane } from '@capi-kit/envtest';
import { noControlPlane } from '@capi-kit/envtest/vitest';
import { CustomObjectsApi } from '@kubernetes/client-node';
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
    await plane.kubeConfig.makeApiClient(CustomObjectsApi).createNamespacedCustomObject({
      group: 'cluster.x-k8s.io',
      version: 'v1beta2',
      namespace: ns,
      plural: 'machines',
      body: {
        apiVersion: 'cluster.x-k8s.io/v1beta2',
        kind: 'Machine',
        metadata: { name: 'm-0', namespace: ns },
        spec: {
          clusterName: 'today',
          bootstrap: { dataSecretName: 'm-0-bootstrap' },
          infrastructureRef: { apiGroup: 'infrastructure.cluster.x-k8s.io', kind: 'AWSMachine', name: 'm-0' },
        },
      },
    });
  });
  afterAll(async () => {
    await plane?.stop();
  });

  it('lists each Machine once, at v1beta2', () => {
    const table = runCli(['get', 'machines', '-n', ns], { env: { KUBECONFIG: plane.kubeconfigPath } });
    expect(table.code).toBe(0);
    const rows = table.stdout.trimEnd().split('\n').slice(1);
    expect(rows.map((r) => r.split(/\s+/).slice(0, 3))).toEqual([
      ['m-0', 'cluster.x-k8s.io/v1beta2', 'today'],
    ]);
    const json = JSON.parse(
      runCli(['get', 'machines', '-n', ns, '-o', 'json'], { env: { KUBECONFIG: plane.kubeconfigPath } })
        .stdout,
    );
    expect(json.items).toHaveLength(1);
  });
});
