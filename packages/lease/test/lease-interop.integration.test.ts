import { noControlPlane, useControlPlane } from '@capi-kit/envtest/vitest';
import { CoordinationV1Api, type V1Lease } from '@kubernetes/client-node';
import { expect, it } from 'vitest';
import { leaseClient, nodeName } from './helpers/clients.js';
import { FakeClock } from './helpers/fake-clock.js';

const env = useControlPlane();

/**
 * A lease exactly as client-go's LeaseLock writes it (LeaderElectionRecordToLeaseSpec): all
 * five fields, MicroTime with six digits, no strategy and no preferredHolder.
 */
function goWrittenLease(name: string, spec: Partial<Record<string, unknown>>): V1Lease {
  return {
    apiVersion: 'coordination.k8s.io/v1',
    kind: 'Lease',
    metadata: { name },
    spec: {
      holderIdentity: 'kube-controller-7f9c_1b2d',
      leaseDurationSeconds: 15,
      acquireTime: '2026-05-04T03:02:01.123456Z',
      renewTime: '2026-05-04T03:02:11.654321Z',
      leaseTransitions: 3,
      ...spec,
    } as unknown as V1Lease['spec'],
  };
}

it.skipIf(noControlPlane())(
  'reads and honours a lease written by client-go’s rules, then follows them itself',
  async () => {
    const api = env.kubeConfig.makeApiClient(CoordinationV1Api);
    const node = nodeName('go');
    await api.createNamespacedLease({ namespace: env.namespace, body: goWrittenLease(node, {}) });

    const clock = new FakeClock(new Date('2026-05-04T03:02:12Z'));
    const client = leaseClient(env.kubeConfig, env.namespace, 'ts-agent', { clock });
    const seen = await client.inspect(node);
    expect(seen).toMatchObject({
      state: 'held',
      holder: 'kube-controller-7f9c_1b2d',
      leaseDurationSeconds: 15,
      leaseTransitions: 3,
      expiresInMs: 15_000,
      heldByMe: false,
    });
    expect(seen.acquireTime?.toISOString()).toBe('2026-05-04T03:02:01.123Z');
    expect(seen.renewTime?.toISOString()).toBe('2026-05-04T03:02:11.654Z');
    expect(await client.tryAcquire(node)).toMatchObject({ acquired: false, because: 'held' });

    // The Go holder renews (renewTime only): the TypeScript client's wait starts over.
    clock.advance(14_000);
    const renewed = await api.readNamespacedLease({ name: node, namespace: env.namespace });
    renewed.spec!.renewTime = '2026-05-04T03:02:25.000001Z' as never;
    await api.replaceNamespacedLease({ name: node, namespace: env.namespace, body: renewed });
    expect(await client.inspect(node)).toMatchObject({ state: 'held', expiresInMs: 15_000 });
    clock.advance(14_000);
    expect(await client.tryAcquire(node)).toMatchObject({ acquired: false, because: 'held' });

    // 15 s without a change: expired by client-go's rule, so taken, with transitions + 1.
    clock.advance(1_000);
    expect(await client.tryAcquire(node)).toMatchObject({ acquired: true, how: 'taken' });
    const taken = await api.readNamespacedLease({ name: node, namespace: env.namespace });
    expect(taken.spec).toMatchObject({
      holderIdentity: 'ts-agent',
      leaseDurationSeconds: 2,
      leaseTransitions: 4,
    });
    expect(String(taken.spec?.acquireTime)).toMatch(/^2026-05-04T03:02:4\d\.\d{6}Z$/);
    expect(taken.spec?.renewTime).toBe(taken.spec?.acquireTime);
  },
);

it.skipIf(noControlPlane())(
  'treats client-go’s release (empty holder, duration 1) as free at once, and releases the same way',
  async () => {
    const api = env.kubeConfig.makeApiClient(CoordinationV1Api);
    const node = nodeName('go-released');
    await api.createNamespacedLease({
      namespace: env.namespace,
      body: goWrittenLease(node, { holderIdentity: '', leaseDurationSeconds: 1 }),
    });
    const client = leaseClient(env.kubeConfig, env.namespace, 'ts-agent');
    expect(await client.inspect(node)).toMatchObject({ state: 'free', holder: undefined });
    expect(await client.tryAcquire(node)).toMatchObject({ acquired: true, how: 'taken' });
    await client.release(node);
    const released = await api.readNamespacedLease({ name: node, namespace: env.namespace });
    // What tryRelease in client-go leaves behind, field for field.
    expect(released.spec).toMatchObject({ holderIdentity: '', leaseDurationSeconds: 1, leaseTransitions: 4 });
    expect(released.spec?.acquireTime).toBe(released.spec?.renewTime);
    expect(String(released.spec?.renewTime)).toMatch(/\.\d{6}Z$/);
  },
);

it.skipIf(noControlPlane())(
  'keeps a Go-written acquireTime to the microsecond when it renews a lease it holds',
  async () => {
    const api = env.kubeConfig.makeApiClient(CoordinationV1Api);
    const node = nodeName('go-same-identity');
    // The same participant, restarted as a TypeScript process, finds its own lease.
    await api.createNamespacedLease({
      namespace: env.namespace,
      body: goWrittenLease(node, { holderIdentity: 'ts-agent' }),
    });
    const client = leaseClient(env.kubeConfig, env.namespace, 'ts-agent');
    expect(await client.renew(node)).toMatchObject({ renewed: true });
    const stored = await api.readNamespacedLease({ name: node, namespace: env.namespace });
    expect(stored.spec?.acquireTime).toBe('2026-05-04T03:02:01.123456Z');
    expect(stored.spec?.leaseTransitions).toBe(3);
    expect(stored.spec?.leaseDurationSeconds).toBe(2);
  },
);
