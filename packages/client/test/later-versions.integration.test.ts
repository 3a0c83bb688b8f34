import { join } from 'node:path';
import { type ControlPlane, startControlPlane } from '@capi-kit/envtest';
import { noControlPlane } from '@capi-kit/envtest/vitest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CapiClient, connect, describeCluster } from '../src/index.js';
import { crdRoot, unwrap } from './helpers/fixtures.js';

// A management cluster of today (Cluster API v1.14: v1beta1 served, v1beta2 stored), on a
// private control plane: its CRDs share names with the v1alpha2 ones the shared plane serves.
describe.skipIf(noControlPlane('private-local'))('later Cluster API versions', () => {
  let plane: ControlPlane;
  let client: CapiClient;
  let ns: string;

  beforeAll(async () => {
    plane = await startControlPlane({ backend: 'local', log: () => {} });
    await plane.installCRDs(join(crdRoot, 'later/v1.14.0'));
    ns = await plane.createNamespace('later');
    client = unwrap(await connect(plane.kubeConfig));
  });
  afterAll(async () => {
    await plane?.stop();
  });

  it('discovers v1beta1 and v1beta2 with MachineHealthChecks, and types them', async () => {
    const served = Object.fromEntries(client.discovery.served.map((v) => [v.apiVersion, v.kinds]));
    expect(served['cluster.x-k8s.io/v1beta2']).toEqual([
      'Cluster',
      'Machine',
      'MachineSet',
      'MachineDeployment',
      'MachineHealthCheck',
    ]);
    expect(served['cluster.x-k8s.io/v1beta1']).toContain('MachineHealthCheck');
    expect(client.discovery.unknown).toEqual([]);

    const machines = unwrap(client.resource('cluster.x-k8s.io/v1beta2', 'Machine'));
    const created = unwrap(
      await machines.create({
        apiVersion: 'cluster.x-k8s.io/v1beta2',
        kind: 'Machine',
        metadata: { name: 'm-0', namespace: ns },
        spec: {
          clusterName: 'today',
          bootstrap: { dataSecretName: 'm-0-bootstrap' },
          infrastructureRef: { apiGroup: 'infrastructure.cluster.x-k8s.io', kind: 'AWSMachine', name: 'm-0' },
          providerID: 'aws:///eu-west-1a/i-0abc',
        },
      }),
    );
    expect(created.spec?.clusterName).toBe('today');
    const listed = unwrap(await machines.list({ namespace: ns }));
    expect(listed.items.map((m) => m.metadata?.name)).toEqual(['m-0']);
    expect(listed.invalid).toEqual([]);
    // The same object read at the served v1beta1 (the API server converts with strategy None).
    const v1beta1 = unwrap(client.resource('cluster.x-k8s.io/v1beta1', 'Machine'));
    expect((await v1beta1.get(ns, 'm-0'))._tag).toBe('Right');

    const informer = unwrap(client.informer('cluster.x-k8s.io/v1beta2', 'Machine', { namespace: ns }));
    try {
      await informer.start();
      expect(informer.byIndex('clusterName', 'today').map((m) => m.metadata?.name)).toEqual(['m-0']);
      expect(informer.byProviderID('aws:////i-0abc').map((m) => m.metadata?.name)).toEqual(['m-0']);
    } finally {
      informer.stop();
    }
  });

  it('describes a v1beta2 Cluster, its Machines found by spec.clusterName', async () => {
    const clusters = unwrap(client.resource('cluster.x-k8s.io/v1beta2', 'Cluster'));
    unwrap(
      await clusters.create({
        apiVersion: 'cluster.x-k8s.io/v1beta2',
        kind: 'Cluster',
        metadata: { name: 'today', namespace: ns },
        spec: { paused: false },
      }),
    );
    const described = unwrap(await describeCluster(client, 'today', { namespace: ns }));
    expect(described.cluster.apiVersion).toBe('cluster.x-k8s.io/v1beta2');
    expect(described.machines.map((m) => [m.name, m.providerID])).toEqual([
      ['m-0', 'aws:///eu-west-1a/i-0abc'],
    ]);
    expect(described.problems.map((p) => p.object)).toEqual([`Secret ${ns}/today-kubeconfig`]);
    // Phases by v1beta2's rules, though nothing is stored yet: the Cluster has no reference
    // (Pending); the Machine has its bootstrap secret and a providerID (Provisioned).
    expect(described.cluster.phase).toBe('Pending');
    expect(described.machines.map((m) => m.phase)).toEqual(['Provisioned']);

    // A paused Cluster is not reconciled, nor are its Machines: their stored phase ("") stands.
    unwrap(await clusters.patch(ns, 'today', { type: 'merge', patch: { spec: { paused: true } } }));
    const paused = unwrap(await describeCluster(client, 'today', { namespace: ns }));
    expect(paused.cluster.phase).toBe('');
    expect(paused.machines.map((m) => m.phase)).toEqual(['']);
  });
});
