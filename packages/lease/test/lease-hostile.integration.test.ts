import { noControlPlane, useControlPlane } from '@capi-kit/envtest/vitest';
import { CoordinationV1Api, CoreV1Api } from '@kubernetes/client-node';
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

  it('refuses a holder identity with a lone surrogate, which the server would store altered', async () => {
    // The server decodes JSON as Go does: a lone surrogate becomes U+FFFD, so the stored
    // holder never equals the identity. Such a client created the lease, then was refused it
    // as "held" by that other spelling: locked out of its own lease until it expired.
    const api = env.kubeConfig.makeApiClient(CoordinationV1Api);
    const node = nodeName('surrogate');
    await createLease(node, { holderIdentity: 'agent-\ud800' });
    expect((await stored(node))?.holderIdentity).toBe('agent-\ufffd');
    await api.deleteNamespacedLease({ name: node, namespace: env.namespace });
    for (const identity of ['agent-\ud800', '\udc00agent', 'a\udc00\ud800b']) {
      expect(() => leaseClient(env.kubeConfig, env.namespace, identity)).toThrow(
        expect.objectContaining({ code: 'invalid-config', path: 'holderIdentity' }),
      );
    }
    // A well-formed pair (an emoji) round-trips and is accepted.
    const emoji = leaseClient(env.kubeConfig, env.namespace, 'agent-\u{1f527}');
    expect(await emoji.tryAcquire(node)).toMatchObject({ acquired: true, how: 'created' });
    expect((await stored(node))?.holderIdentity).toBe('agent-\u{1f527}');
    expect(await emoji.tryAcquire(node)).toMatchObject({ acquired: true, how: 'renewed' });
  });

  it('never touches a kubelet heartbeat in kube-node-lease, even an expired one', async () => {
    const core = env.kubeConfig.makeApiClient(CoreV1Api);
    await core.createNamespace({ body: { metadata: { name: 'kube-node-lease' } } }).catch(() => {});
    const node = nodeName('heartbeat');
    const old = '2020-01-01T00:00:00.000000Z';
    // As a kubelet writes it: named after the node, held by the node, 40 s; long dead.
    await api().createNamespacedLease({
      namespace: 'kube-node-lease',
      body: {
        metadata: { name: node },
        spec: { holderIdentity: node, leaseDurationSeconds: 40, renewTime: old } as never,
      },
    });
    const before = await api().readNamespacedLease({ name: node, namespace: 'kube-node-lease' });
    const client = leaseClient(env.kubeConfig, 'kube-node-lease', 'ts-agent', { trustRenewTime: true });
    await expect(client.tryAcquire(node)).rejects.toMatchObject({
      code: 'invalid-config',
      path: 'namespace',
    });
    const after = await api().readNamespacedLease({ name: node, namespace: 'kube-node-lease' });
    expect(after.metadata?.resourceVersion).toBe(before.metadata?.resourceVersion);
    expect(after.spec?.holderIdentity).toBe(node);
    await api().deleteNamespacedLease({ name: node, namespace: 'kube-node-lease' });
  });
});
