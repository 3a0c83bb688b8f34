import { type ControlPlane, startControlPlane } from '@capi-kit/envtest';
import { noControlPlane } from '@capi-kit/envtest/vitest';
import { CoordinationV1Api, type V1Lease } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { leaseClient, nodeName } from './helpers/clients.js';

// The API server drops `strategy` and `preferredHolder` unless Coordinated Leader Election
// is enabled, so a private control plane runs with it on.
let cp: ControlPlane;
let namespace: string;

describe.skipIf(noControlPlane('private-local'))(
  'leases of Coordinated Leader Election (private control plane with the feature gate)',
  () => {
    beforeAll(async () => {
      cp = await startControlPlane({
        backend: 'local',
        log: () => {},
        apiServerFlags: [
          '--feature-gates=CoordinatedLeaderElection=true',
          '--runtime-config=coordination.k8s.io/v1beta1=true',
        ],
      });
      namespace = await cp.createNamespace('lease-foreign');
    });

    afterAll(async () => {
      await cp?.stop();
    });

    it('reports a Coordinated Leader Election lease as foreign and never writes it', async () => {
      const api = cp.kubeConfig.makeApiClient(CoordinationV1Api);
      const node = nodeName('cle');
      const body: V1Lease = {
        metadata: { name: node },
        spec: {
          holderIdentity: 'kube-scheduler-a',
          leaseDurationSeconds: 1,
          strategy: 'OldestEmulationVersion',
          renewTime: '2001-01-01T00:00:00.000000Z' as never,
        },
      };
      const created = await api.createNamespacedLease({ namespace, body });
      expect(created.spec?.strategy).toBe('OldestEmulationVersion');

      // Even with the remote rule saying "expired long ago", it is left alone...
      const client = leaseClient(cp.kubeConfig, namespace, 'ts-agent', { trustRenewTime: true });
      expect(await client.inspect(node)).toMatchObject({
        foreign: true,
        state: 'expired',
        holder: 'kube-scheduler-a',
      });
      expect(await client.tryAcquire(node)).toMatchObject({ acquired: false, because: 'foreign' });
      // ...even when it names this client as holder.
      const mine = await api.readNamespacedLease({ name: node, namespace });
      mine.spec!.holderIdentity = 'ts-agent';
      const written = await api.replaceNamespacedLease({ name: node, namespace, body: mine });
      expect(await client.tryAcquire(node)).toMatchObject({ acquired: false, because: 'foreign' });
      expect(await client.renew(node)).toMatchObject({ renewed: false, because: 'foreign' });
      expect(await client.release(node)).toMatchObject({ released: false, because: 'not-holder' });

      const after = await api.readNamespacedLease({ name: node, namespace });
      // Not one write: the resourceVersion is the one the test itself produced.
      expect(after.metadata?.resourceVersion).toBe(written.metadata?.resourceVersion);
      expect(after.spec).toMatchObject({ holderIdentity: 'ts-agent', leaseDurationSeconds: 1 });
      expect(after.spec?.renewTime).toBe('2001-01-01T00:00:00.000000Z');
    });
  },
);
