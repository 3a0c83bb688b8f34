import { join } from 'node:path';
import { type ControlPlane, startControlPlane } from '@capi-kit/envtest';
import { noControlPlane } from '@capi-kit/envtest/vitest';
import { CustomObjectsApi, PatchStrategy, setHeaderOptions } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { crdRoot } from '../../client/test/helpers/fixtures.js';
import { main } from '../src/main.js';
import { captureIO } from './helpers/capture-io.js';
import { CONTROL_BUT_NEWLINE } from './helpers/hostile-lease.js';

// A paused Cluster (and a paused Machine) keeps its stored status.phase, which is free text
// anyone with RBAC on the status subresource writes: describe's tree prints it escaped.
describe.skipIf(noControlPlane('private-local'))('capi-kit describe: stored phases from the server', () => {
  let plane: ControlPlane;
  let ns: string;
  const hostile = '\u001b[2J\u001b]0;owned\u0007Run\u202ening';

  beforeAll(async () => {
    plane = await startControlPlane({ backend: 'local', log: () => {} });
    await plane.installCRDs(join(crdRoot, 'later/v0.3.25'));
    ns = await plane.createNamespace('describe-phase');
    const api = plane.kubeConfig.makeApiClient(CustomObjectsApi);
    const target = { group: 'cluster.x-k8s.io', version: 'v1alpha3', namespace: ns };
    await api.createNamespacedCustomObject({
      ...target,
      plural: 'clusters',
      body: {
        apiVersion: 'cluster.x-k8s.io/v1alpha3',
        kind: 'Cluster',
        metadata: { name: 'held', namespace: ns },
        spec: {
          paused: true,
          infrastructureRef: {
            apiVersion: 'infrastructure.cluster.x-k8s.io/v1alpha3',
            kind: 'AWSCluster',
            name: 'held',
          },
        },
      },
    });
    await api.createNamespacedCustomObject({
      ...target,
      plural: 'machines',
      body: {
        apiVersion: 'cluster.x-k8s.io/v1alpha3',
        kind: 'Machine',
        metadata: { name: 'm-0', namespace: ns },
        spec: {
          clusterName: 'held',
          bootstrap: { dataSecretName: 'm-0-bootstrap' },
          infrastructureRef: {
            apiVersion: 'infrastructure.cluster.x-k8s.io/v1alpha3',
            kind: 'AWSMachine',
            name: 'm-0',
          },
        },
      },
    });
    const merge = setHeaderOptions('Content-Type', PatchStrategy.MergePatch);
    for (const [plural, name] of [
      ['clusters', 'held'],
      ['machines', 'm-0'],
    ] as const)
      await api.patchNamespacedCustomObjectStatus(
        { ...target, plural, name, body: { status: { phase: hostile } } },
        merge,
      );
  });
  afterAll(async () => {
    await plane?.stop();
  });

  it('the tree escapes a stored Cluster and Machine phase; --json keeps them as JSON escapes', async () => {
    const env = { KUBECONFIG: plane.kubeconfigPath };
    const args = ['describe', 'cluster', 'held', '-n', ns, '--workload-kubeconfig', plane.kubeconfigPath];
    const text = captureIO('', env);
    expect(await main(args, text.io)).toBe(0);
    expect(text.stdout()).not.toMatch(CONTROL_BUT_NEWLINE);
    expect(text.stdout()).not.toContain('\u202e');
    const escaped = '\\x1b[2J\\x1b]0;owned\\x07Run\\u{202E}ning';
    expect(text.stdout().split('\n')[0]).toContain(`phase ${escaped}`);
    expect(text.stdout()).toContain(`Machine m-0  ${escaped}  <no providerID>`);

    const json = captureIO('', env);
    expect(await main([...args, '--json'], json.io)).toBe(0);
    expect(json.stdout()).not.toMatch(CONTROL_BUT_NEWLINE);
    const out = JSON.parse(json.stdout());
    expect(out.cluster.phase).toBe(hostile);
    expect(out.machines[0].phase).toBe(hostile);
  });
});
