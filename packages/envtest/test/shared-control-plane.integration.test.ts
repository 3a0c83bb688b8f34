import { ApiException, CoordinationV1Api, CoreV1Api, type V1Lease } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { noControlPlane, useControlPlane } from '../src/vitest/index.js';

const cp = useControlPlane();

async function statusOf(promise: Promise<unknown>): Promise<number | 'ok'> {
  try {
    await promise;
    return 'ok';
  } catch (error) {
    if (error instanceof ApiException) return error.code;
    throw error;
  }
}

describe.skipIf(noControlPlane())('the shared control plane (vitest global setup)', () => {
  it('gives each test file its own namespace, named after the file', async () => {
    expect(cp.namespace).toMatch(/^shared-control-plane-[0-9a-f]{8}$/);
    const ns = await cp.kubeConfig.makeApiClient(CoreV1Api).readNamespace({ name: cp.namespace });
    expect(ns.status?.phase).toBe('Active');
  });

  it('creates, reads and replaces a Lease; a stale resourceVersion is a 409 Conflict', async () => {
    const leases = cp.kubeConfig.makeApiClient(CoordinationV1Api);
    const namespace = cp.namespace;
    const created = await leases.createNamespacedLease({
      namespace,
      body: {
        metadata: { name: 'node-a' },
        spec: { holderIdentity: 'tester-1', leaseDurationSeconds: 30 },
      },
    });
    const staleVersion = created.metadata?.resourceVersion;
    expect(staleVersion).toBeTruthy();

    const read = await leases.readNamespacedLease({ namespace, name: 'node-a' });
    expect(read.spec?.holderIdentity).toBe('tester-1');

    const renewed: V1Lease = { ...read, spec: { ...read.spec, holderIdentity: 'tester-2' } };
    const replaced = await leases.replaceNamespacedLease({ namespace, name: 'node-a', body: renewed });
    expect(replaced.spec?.holderIdentity).toBe('tester-2');
    expect(replaced.metadata?.resourceVersion).not.toBe(staleVersion);

    // A writer still holding the first version loses: optimistic concurrency.
    const stale: V1Lease = {
      ...created,
      metadata: { ...created.metadata, resourceVersion: staleVersion },
      spec: { ...created.spec, holderIdentity: 'tester-3' },
    };
    const conflict = await leases.replaceNamespacedLease({ namespace, name: 'node-a', body: stale }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(conflict).toBeInstanceOf(ApiException);
    expect((conflict as ApiException<string>).code).toBe(409);
    expect(String((conflict as ApiException<string>).body)).toContain('Conflict');
    const after = await leases.readNamespacedLease({ namespace, name: 'node-a' });
    expect(after.spec?.holderIdentity).toBe('tester-2');
  });

  it.skipIf(noControlPlane('client-certificates'))(
    'kubeConfigFor() mints a non-admin user that RBAC governs',
    async () => {
      const namespace = cp.namespace;
      const userKc = await cp.kubeConfigFor('lease-reader', ['capi-kit:testers']);
      const userLeases = userKc.makeApiClient(CoordinationV1Api);
      expect(await statusOf(userLeases.listNamespacedLease({ namespace }))).toBe(403);

      // Bound to the group, so this also proves the groups reached the apiserver.
      await cp.grant(
        { kind: 'Group', name: 'capi-kit:testers' },
        [{ apiGroups: ['coordination.k8s.io'], resources: ['leases'], verbs: ['get', 'list'] }],
        { namespace, name: 'lease-reader' },
      );
      // RBAC changes reach the authorizer through an informer: poll, generously (a minute).
      let status: number | 'ok' = 403;
      for (const deadline = performance.now() + 60_000; status !== 'ok' && performance.now() < deadline; ) {
        status = await statusOf(userLeases.listNamespacedLease({ namespace }));
        if (status !== 'ok') await new Promise((r) => setTimeout(r, 100));
      }
      expect(status).toBe('ok');
      // Reading was granted, writing was not.
      expect(
        await statusOf(
          userLeases.createNamespacedLease({ namespace, body: { metadata: { name: 'x' }, spec: {} } }),
        ),
      ).toBe(403);
      expect(await statusOf(userLeases.listNamespacedLease({ namespace: 'default' }))).toBe(403);
    },
  );

  it('hands out a kubeconfig file usable by other tools', async () => {
    const { KubeConfig } = await import('@kubernetes/client-node');
    const kc = new KubeConfig();
    kc.loadFromFile(cp.kubeconfigPath);
    const ns = await kc.makeApiClient(CoreV1Api).readNamespace({ name: cp.namespace });
    expect(ns.metadata?.name).toBe(cp.namespace);
  });
});
