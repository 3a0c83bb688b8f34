import { noControlPlane, useControlPlane } from '@capi-kit/envtest/vitest';
import { CoordinationV1Api, CoreV1Api } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { LeaseConfigError, medik8sLeases, NodeLeaseClient, NodeLeaseObserver } from '../src/index.js';
import { LeaseApi } from '../src/lease-api.js';
import { fastTiming, leaseClient, nodeName } from './helpers/clients.js';

const env = useControlPlane();
const microTime = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/;

function leases() {
  return env.kubeConfig.makeApiClient(CoordinationV1Api);
}

describe.skipIf(noControlPlane())('acquire, renew, release, inspect', () => {
  it('creates the lease with all five fields, in MicroTime, and reports it', async () => {
    const node = nodeName('create');
    const alice = leaseClient(env.kubeConfig, env.namespace, 'alice');
    const result = await alice.tryAcquire(node);
    expect(result).toMatchObject({ acquired: true, how: 'created' });

    const stored = await leases().readNamespacedLease({ name: node, namespace: env.namespace });
    expect(stored.spec).toMatchObject({
      holderIdentity: 'alice',
      leaseDurationSeconds: 2,
      leaseTransitions: 0,
    });
    // client-node hands MicroTime back as the server's text: six fractional digits.
    expect(String(stored.spec?.acquireTime)).toMatch(microTime);
    expect(String(stored.spec?.renewTime)).toMatch(microTime);
    expect(stored.spec?.strategy).toBeUndefined();
    expect(stored.spec?.preferredHolder).toBeUndefined();

    const seen = await alice.inspect(node);
    expect(seen).toMatchObject({
      state: 'held',
      holder: 'alice',
      heldByMe: true,
      reserved: false,
      foreign: false,
    });
    expect(seen.expiresInMs).toBeGreaterThan(0);
    expect(seen.expiresInMs).toBeLessThanOrEqual(2000);
    const observer = new NodeLeaseObserver({ kubeConfig: env.kubeConfig, namespace: env.namespace });
    expect(await observer.isUnderMaintenance(node)).toBe(true);
    expect(await observer.inspect(node)).toMatchObject({ holder: 'alice', heldByMe: false });
  });

  it('refuses a lease held by someone else, renews its own, and releases as client-go does', async () => {
    const node = nodeName('cycle');
    const alice = leaseClient(env.kubeConfig, env.namespace, 'alice');
    const bob = leaseClient(env.kubeConfig, env.namespace, 'bob');
    await alice.tryAcquire(node);
    const before = await leases().readNamespacedLease({ name: node, namespace: env.namespace });

    expect(await bob.tryAcquire(node)).toMatchObject({ acquired: false, because: 'held', holder: 'alice' });
    expect(await bob.renew(node)).toMatchObject({ renewed: false, because: 'lost', holder: 'alice' });
    expect(await bob.release(node)).toEqual({ released: false, because: 'not-holder', holder: 'alice' });

    const renewed = await alice.renew(node);
    expect(renewed.renewed).toBe(true);
    const after = await leases().readNamespacedLease({ name: node, namespace: env.namespace });
    expect(after.spec?.acquireTime).toBe(before.spec?.acquireTime);
    expect(after.spec?.renewTime).not.toBe(before.spec?.renewTime);
    expect(after.spec?.leaseTransitions).toBe(0);

    // Acquiring a lease one already holds is a renewal.
    expect(await alice.tryAcquire(node)).toMatchObject({ acquired: true, how: 'renewed' });

    expect(await alice.release(node)).toEqual({ released: true });
    const released = await leases().readNamespacedLease({ name: node, namespace: env.namespace });
    expect(released.spec?.holderIdentity ?? '').toBe('');
    expect(released.spec?.leaseDurationSeconds).toBe(1);
    expect(released.spec?.leaseTransitions).toBe(0);
    expect(String(released.spec?.renewTime)).toMatch(microTime);
    expect(await bob.isUnderMaintenance(node)).toBe(false);
    expect((await bob.inspect(node)).state).toBe('free');

    // A released lease is free at once: no waiting for its old duration.
    expect(await bob.tryAcquire(node)).toMatchObject({ acquired: true, how: 'taken' });
    const taken = await leases().readNamespacedLease({ name: node, namespace: env.namespace });
    expect(taken.spec).toMatchObject({ holderIdentity: 'bob', leaseTransitions: 1, leaseDurationSeconds: 2 });
    expect(taken.spec?.acquireTime).toBe(taken.spec?.renewTime);
  });

  it('waits in acquire() until the holder’s lease expires, and honours an AbortSignal', async () => {
    const node = nodeName('wait');
    const alice = leaseClient(env.kubeConfig, env.namespace, 'alice');
    const bob = leaseClient(env.kubeConfig, env.namespace, 'bob');
    await alice.tryAcquire(node);

    const aborted = bob.acquire(node, { signal: AbortSignal.timeout(300) });
    await expect(aborted).rejects.toMatchObject({ name: 'TimeoutError' });

    const waits: string[] = [];
    const result = await bob.acquire(node, { onWait: (refusal) => waits.push(refusal.holder) });
    expect(result).toMatchObject({ acquired: true, how: 'taken' });
    expect(waits.length).toBeGreaterThan(0);
    expect(new Set(waits)).toEqual(new Set(['alice']));
    expect(await alice.renew(node)).toMatchObject({ renewed: false, because: 'lost', holder: 'bob' });
  });

  it('reports an absent lease and renews or releases nothing', async () => {
    const node = nodeName('absent');
    const alice = leaseClient(env.kubeConfig, env.namespace, 'alice');
    expect(await alice.inspect(node)).toMatchObject({ state: 'absent', holder: undefined, heldByMe: false });
    expect(await alice.isUnderMaintenance(node)).toBe(false);
    expect(await alice.renew(node)).toMatchObject({ renewed: false, because: 'absent' });
    expect(await alice.release(node)).toEqual({ released: false, because: 'absent', holder: undefined });
  });

  it('releases by deleting with preconditions when asked', async () => {
    const node = nodeName('delete');
    const alice = leaseClient(env.kubeConfig, env.namespace, 'alice', { releaseBy: 'delete' });
    await alice.tryAcquire(node);
    expect(await alice.release(node)).toEqual({ released: true });
    expect((await alice.inspect(node)).state).toBe('absent');
  });
});

describe.skipIf(noControlPlane())('the administrators’ reserved kubeadm prefix', () => {
  it('refuses to be used as an identity', () => {
    expect(() => leaseClient(env.kubeConfig, env.namespace, 'kubeadm-alice')).toThrow(LeaseConfigError);
    expect(() => leaseClient(env.kubeConfig, env.namespace, '')).toThrow(/holder identity is required/);
  });

  it('makes a lease held for ever, even with no duration and an ancient renewTime', async () => {
    const node = nodeName('reserved');
    // What an administrator writes with kubectl: a holder and nothing else that matters.
    await leases().createNamespacedLease({
      namespace: env.namespace,
      body: {
        metadata: { name: node },
        spec: { holderIdentity: 'kubeadm:alice', renewTime: '2001-01-01T00:00:00.000000Z' as never },
      },
    });
    const bob = leaseClient(env.kubeConfig, env.namespace, 'bob', { trustRenewTime: true });
    expect(await bob.tryAcquire(node)).toEqual(
      expect.objectContaining({ acquired: false, because: 'reserved', holder: 'kubeadm:alice' }),
    );
    const seen = await bob.inspect(node);
    expect(seen).toMatchObject({ state: 'reserved', reserved: true, expiresInMs: undefined });
    expect(await bob.isUnderMaintenance(node)).toBe(true);
    await expect(bob.acquire(node, { signal: AbortSignal.timeout(2500) })).rejects.toMatchObject({
      name: 'TimeoutError',
    });
    expect(
      (await leases().readNamespacedLease({ name: node, namespace: env.namespace })).spec?.holderIdentity,
    ).toBe('kubeadm:alice');
  });
});

describe.skipIf(noControlPlane())('layout options', () => {
  it('uses the medik8s preset names and creates its namespace on demand', async () => {
    const namespace = `medik8s-${Math.random().toString(36).slice(2, 8)}`;
    const client = new NodeLeaseClient({
      kubeConfig: env.kubeConfig,
      holderIdentity: 'NodeMaintenance',
      location: medik8sLeases(namespace),
      ensureNamespace: true,
      timing: fastTiming,
    });
    try {
      expect(await client.tryAcquire('worker-1')).toMatchObject({ acquired: true, how: 'created' });
      const stored = await leases().readNamespacedLease({ name: 'node-worker-1', namespace });
      expect(stored.spec?.holderIdentity).toBe('NodeMaintenance');
      expect(await client.inspect('worker-1')).toMatchObject({ leaseName: 'node-worker-1', heldByMe: true });
    } finally {
      await env.kubeConfig.makeApiClient(CoreV1Api).deleteNamespace({ name: namespace });
    }
  });

  it('fails clearly when the namespace is missing and not to be created', async () => {
    const client = leaseClient(env.kubeConfig, 'kube-node-maintenance-missing', 'alice');
    await expect(client.tryAcquire('n')).rejects.toMatchObject({
      name: 'LeaseApiError',
      code: 'not-found',
      status: 404,
    });
  });

  it('names the field the server refused (a 422 is tagged invalid, with its path)', async () => {
    const api = new LeaseApi(env.kubeConfig, 30_000);
    const name = nodeName('refused');
    const body = { metadata: { name }, spec: { holderIdentity: 'alice', leaseDurationSeconds: 0 } };
    await expect(api.create(env.namespace, body)).rejects.toMatchObject({
      name: 'LeaseApiError',
      code: 'invalid',
      status: 422,
      reason: 'Invalid',
      path: 'spec.leaseDurationSeconds',
      message: expect.stringContaining(`create lease ${env.namespace}/${name}`),
    });
  });

  it('sets an ownerReference to the Node when asked', async () => {
    const node = nodeName('owned');
    const core = env.kubeConfig.makeApiClient(CoreV1Api);
    const created = await core.createNode({ body: { metadata: { name: node } } });
    try {
      const alice = leaseClient(env.kubeConfig, env.namespace, 'alice', { ownerReference: true });
      await alice.tryAcquire(node);
      const stored = await leases().readNamespacedLease({ name: node, namespace: env.namespace });
      expect(stored.metadata?.ownerReferences).toEqual([
        expect.objectContaining({ apiVersion: 'v1', kind: 'Node', name: node, uid: created.metadata?.uid }),
      ]);
      const orphan = leaseClient(env.kubeConfig, env.namespace, 'alice', { ownerReference: true });
      await expect(orphan.tryAcquire(nodeName('no-such-node'))).rejects.toMatchObject({ code: 'not-found' });
    } finally {
      await core.deleteNode({ name: node });
    }
  });
});

describe.skipIf(noControlPlane())('deleting with preconditions (releaseBy: delete)', () => {
  it('a delete whose resourceVersion or UID no longer matches is refused (409) and deletes nothing', async () => {
    const api = new LeaseApi(env.kubeConfig, 30_000);
    const name = nodeName('precondition');
    const created = await leases().createNamespacedLease({
      namespace: env.namespace,
      body: { metadata: { name }, spec: { holderIdentity: 'alice', leaseDurationSeconds: 30 } },
    });
    // Someone writes in between: the copy we hold is stale.
    const updated = await leases().replaceNamespacedLease({
      name,
      namespace: env.namespace,
      body: { ...created, spec: { ...created.spec, holderIdentity: 'bob' } },
    });
    expect(await api.delete(env.namespace, created)).toBe(false);
    expect(
      (await leases().readNamespacedLease({ name, namespace: env.namespace })).spec?.holderIdentity,
    ).toBe('bob');

    // Deleted and created again under the same name: same name, another UID.
    await leases().deleteNamespacedLease({ name, namespace: env.namespace });
    const again = await leases().createNamespacedLease({
      namespace: env.namespace,
      body: { metadata: { name }, spec: { holderIdentity: 'carol' } },
    });
    expect(
      await api.delete(env.namespace, {
        ...again,
        metadata: { ...again.metadata, uid: updated.metadata?.uid },
      }),
    ).toBe(false);
    expect(await api.delete(env.namespace, again)).toBe(true);
    // Already gone (404) counts as deleted.
    expect(await api.delete(env.namespace, again)).toBe(true);
  });

  it('release() with releaseBy: delete deletes only its own, current lease', async () => {
    const node = nodeName('release-delete');
    const alice = leaseClient(env.kubeConfig, env.namespace, 'alice', { releaseBy: 'delete' });
    expect(await alice.tryAcquire(node)).toMatchObject({ acquired: true });
    expect(await alice.release(node)).toEqual({ released: true });
    expect((await alice.inspect(node)).state).toBe('absent');
  });
});
