import { noControlPlane, useControlPlane } from '@capi-kit/envtest/vitest';
import { CoordinationV1Api } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { HeldLease, type LeaseChange, LeaseManager, NodeLeaseObserver } from '../src/index.js';
import { fastTiming, leaseClient, nodeName } from './helpers/clients.js';
import { eventually } from './helpers/eventually.js';

const env = useControlPlane();

describe.skipIf(noControlPlane())('watch()', () => {
  it('reports existing leases, then acquisitions, renewals, releases and deletions as they happen', async () => {
    const early = nodeName('early');
    const late = nodeName('late');
    const alice = leaseClient(env.kubeConfig, env.namespace, 'alice');
    await alice.tryAcquire(early);

    const observer = new NodeLeaseObserver({
      kubeConfig: env.kubeConfig,
      namespace: env.namespace,
      timing: fastTiming,
    });
    const stop = new AbortController();
    const changes: LeaseChange[] = [];
    const consumed = (async () => {
      for await (const change of observer.watch({ signal: stop.signal })) changes.push(change);
    })();
    const until = async (predicate: () => boolean) => expect(await eventually(predicate)).toBe(true);
    const about = (node: string) => changes.filter((c) => c.node === node);

    await until(() => about(early).length > 0);
    expect(about(early)[0]).toMatchObject({ type: 'added', inspection: { state: 'held', holder: 'alice' } });

    await alice.tryAcquire(late);
    await until(() => about(late).length > 0);
    await alice.renew(late);
    await alice.release(late);
    await until(() => about(late).some((c) => c.inspection.state === 'free'));
    await env.kubeConfig
      .makeApiClient(CoordinationV1Api)
      .deleteNamespacedLease({ name: late, namespace: env.namespace });
    await until(() => about(late).some((c) => c.type === 'deleted'));

    stop.abort();
    await consumed;
    expect(about(late).map((c) => [c.type, c.inspection.state, c.inspection.holder])).toEqual([
      ['added', 'held', 'alice'],
      ['modified', 'held', 'alice'],
      ['modified', 'free', undefined],
      ['deleted', 'absent', undefined],
    ]);
  });
});

describe.skipIf(noControlPlane())('LeaseManager', () => {
  it('holds many node leases from one process and renews them in bounded cycles', async () => {
    const nodes = Array.from({ length: 40 }, () => nodeName('fleet'));
    // Forty leases renewed four at a time: under load a cycle takes seconds, so the renew
    // deadline (the holder's own give-up bound) must be well above the 1.5 s of fastTiming,
    // or leases are rightly given up before the cycle reaches them.
    const timing = { leaseDurationSeconds: 12, renewDeadlineMs: 10_000, retryPeriodMs: 2_000 };
    const client = leaseClient(env.kubeConfig, env.namespace, 'fleet-agent', { timing });
    const manager = new LeaseManager(client, { concurrency: 4 });
    const held = await Promise.all(nodes.map((node) => manager.hold(node)));
    expect(held.every((h) => h instanceof HeldLease && h.isHeld())).toBe(true);
    expect(manager.held.size).toBe(40);

    const report = await manager.renewAll();
    expect(report).toMatchObject({ renewed: 40, failed: 0, lost: 0 });

    // Someone else takes one node over behind the manager's back (as after a long outage):
    // the next cycle notices and that lease alone is signalled lost.
    const api = env.kubeConfig.makeApiClient(CoordinationV1Api);
    const stolen = await api.readNamespacedLease({ name: nodes[0]!, namespace: env.namespace });
    stolen.spec!.holderIdentity = 'intruder';
    await api.replaceNamespacedLease({ name: nodes[0]!, namespace: env.namespace, body: stolen });
    const second = await manager.renewAll();
    expect(second).toMatchObject({ renewed: 39, lost: 1 });
    expect(held[0]!.signal.aborted).toBe(true);
    expect(held[0]!.lost?.holder).toBe('intruder');
    expect(manager.held.size).toBe(39);

    // Periodic cycles keep the rest alive past a lease duration: wait (polling, generously)
    // until every remaining lease was renewed more than a duration after the cycles began,
    // which without those renewals it would not have survived.
    const startedMs = performance.now();
    manager.start();
    const pastOneDuration = () =>
      held.slice(1).every((h) => h.lastRenewSentAtMs > startedMs + timing.leaseDurationSeconds * 1000);
    expect(await eventually(pastOneDuration, 120_000)).toBe(true);
    expect(held.slice(1).every((h) => h.isHeld())).toBe(true);
    const other = leaseClient(env.kubeConfig, env.namespace, 'other');
    expect(await other.tryAcquire(nodes[1]!)).toMatchObject({ acquired: false, because: 'held' });

    await manager.stop();
    expect(manager.held.size).toBe(0);
    expect((await other.inspect(nodes[1]!)).state).toBe('free');
  });
});
