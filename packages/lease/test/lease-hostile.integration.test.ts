import { noControlPlane, useControlPlane } from '@capi-kit/envtest/vitest';
import { CoordinationV1Api } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { formatMicroTime } from '../src/index.js';
import { leaseClient, nodeName } from './helpers/clients.js';

/**
 * Leases as anyone who may write a Lease can leave them: values at the edge of what the API
 * server stores. Every one of them must still be usable by the protocol.
 */
const env = useControlPlane();
const api = () => env.kubeConfig.makeApiClient(CoordinationV1Api);

async function createLease(name: string, spec: Record<string, unknown>) {
  const now = formatMicroTime(new Date());
  await api().createNamespacedLease({
    namespace: env.namespace,
    body: {
      metadata: { name },
      spec: { leaseDurationSeconds: 15, acquireTime: now, renewTime: now, ...spec } as never,
    },
  });
}

const stored = async (name: string) =>
  (await api().readNamespacedLease({ name, namespace: env.namespace })).spec;

describe.skipIf(noControlPlane())('hostile leases', () => {
  it('takes a lease whose leaseTransitions is int32 max: the count wraps to 0', async () => {
    const node = nodeName('transitions-max');
    // Free (released): takeable at once.
    await createLease(node, { holderIdentity: '', leaseDurationSeconds: 1, leaseTransitions: 2147483647 });
    const client = leaseClient(env.kubeConfig, env.namespace, 'ts-agent');
    expect(await client.tryAcquire(node)).toMatchObject({ acquired: true, how: 'taken' });
    expect(await stored(node)).toMatchObject({ holderIdentity: 'ts-agent', leaseTransitions: 0 });
    // And the count goes on from there.
    await client.release(node);
    expect(await leaseClient(env.kubeConfig, env.namespace, 'other').tryAcquire(node)).toMatchObject({
      acquired: true,
      how: 'taken',
    });
    expect(await stored(node)).toMatchObject({ holderIdentity: 'other', leaseTransitions: 1 });
  });

  it('takes an expired lease at int32 max transitions (remote renewTime trusted)', async () => {
    const node = nodeName('transitions-max-expired');
    const old = '2020-01-01T00:00:00.000000Z';
    await createLease(node, {
      holderIdentity: 'gone',
      acquireTime: old,
      renewTime: old,
      leaseTransitions: 2147483647,
    });
    const client = leaseClient(env.kubeConfig, env.namespace, 'ts-agent', { trustRenewTime: true });
    expect(await client.tryAcquire(node)).toMatchObject({ acquired: true, how: 'taken' });
    expect(await stored(node)).toMatchObject({ holderIdentity: 'ts-agent', leaseTransitions: 0 });
  });

  it('says why a hold was lost: deleted, released by someone else, taken', async () => {
    const client = leaseClient(env.kubeConfig, env.namespace, 'holder', {
      timing: { leaseDurationSeconds: 30, renewDeadlineMs: 20_000, retryPeriodMs: 200 },
    });
    const cases = [
      ['deleted', 'the lease was deleted', undefined],
      ['emptied', 'the lease was released by someone else (it has no holder)', undefined],
      ['taken', "the lease is now held by 'usurper'", 'usurper'],
    ] as const;
    for (const [label, why, holder] of cases) {
      const node = nodeName(label);
      const held = await client.hold(node);
      if (label === 'deleted') {
        await api().deleteNamespacedLease({ name: node, namespace: env.namespace });
      } else {
        const current = await api().readNamespacedLease({ name: node, namespace: env.namespace });
        current.spec!.holderIdentity = label === 'emptied' ? '' : 'usurper';
        await api().replaceNamespacedLease({ name: node, namespace: env.namespace, body: current });
      }
      const lost = await held.ended;
      expect(lost, label).toMatchObject({
        code: 'lost',
        because: label === 'emptied' ? 'taken' : label,
        holder,
        message: `lost the maintenance lease of node ${node}: ${why}`,
      });
      expect(held.signal.reason, label).toBe(lost);
    }
  });
});
