import { noControlPlane, useControlPlane } from '@capi-kit/envtest/vitest';
import { CoordinationV1Api } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { leaseClient, nodeName } from './helpers/clients.js';
import { FakeClock } from './helpers/fake-clock.js';

const env = useControlPlane();
const hours = (n: number) => n * 3_600_000;

/** A clock whose wall time is `offsetMs` away from the real one (the holder's machine is off). */
function skewedClock(offsetMs: number): FakeClock {
  return new FakeClock(new Date(Date.now() + offsetMs));
}

async function storedRenewTime(node: string): Promise<string> {
  const lease = await env.kubeConfig
    .makeApiClient(CoordinationV1Api)
    .readNamespacedLease({ name: node, namespace: env.namespace });
  return String(lease.spec?.renewTime);
}

describe.skipIf(noControlPlane())('clock skew', () => {
  for (const offset of [-hours(2), +hours(2)]) {
    it(`the local-clock rule ignores a holder whose clock is ${offset < 0 ? 'behind' : 'ahead'} by 2 h`, async () => {
      const node = nodeName('skew');
      const holder = leaseClient(env.kubeConfig, env.namespace, 'skewed-holder', {
        clock: skewedClock(offset),
      });
      await holder.tryAcquire(node);
      const written = new Date(await storedRenewTime(node)).getTime();
      expect(Math.abs(written - (Date.now() + offset))).toBeLessThan(60_000);

      // An observer with a controllable monotonic clock: only its own elapsed time matters.
      const clock = new FakeClock();
      const observer = leaseClient(env.kubeConfig, env.namespace, 'observer', { clock });
      expect(await observer.inspect(node)).toMatchObject({ state: 'held', expiresInMs: 2000 });
      expect(await observer.tryAcquire(node)).toMatchObject({ acquired: false, because: 'held' });
      clock.advance(1999);
      expect(await observer.tryAcquire(node)).toMatchObject({ acquired: false, because: 'held' });
      clock.advance(1);
      expect(await observer.inspect(node)).toMatchObject({
        state: 'expired',
        decidedBy: 'local-observation',
      });
      expect(await observer.tryAcquire(node)).toMatchObject({ acquired: true, how: 'taken' });
    });
  }

  it('a renewal seen by the observer restarts its wait, whatever the renewTime says', async () => {
    const node = nodeName('renewed');
    const holderClock = skewedClock(-hours(5));
    const holder = leaseClient(env.kubeConfig, env.namespace, 'skewed-holder', { clock: holderClock });
    await holder.tryAcquire(node);
    const clock = new FakeClock();
    const observer = leaseClient(env.kubeConfig, env.namespace, 'observer', { clock });
    await observer.inspect(node);
    clock.advance(1500);
    holderClock.advance(1500); // the holder's (wrong) clock still ticks, so its renewTime changes
    await holder.renew(node);
    expect(await observer.inspect(node)).toMatchObject({ state: 'held', expiresInMs: 2000 });
    clock.advance(1500);
    expect(await observer.tryAcquire(node)).toMatchObject({ acquired: false, because: 'held' });
  });

  it('opting in to the remote renewTime takes over an old lease at once, and trusts a clock that is behind', async () => {
    const node = nodeName('remote');
    // A lease whose holder stopped renewing an hour ago (or whose clock is an hour behind:
    // the remote rule cannot tell the difference, which is its trade-off).
    const holder = leaseClient(env.kubeConfig, env.namespace, 'old-holder', {
      clock: skewedClock(-hours(1)),
    });
    await holder.tryAcquire(node);
    const trusting = leaseClient(env.kubeConfig, env.namespace, 'trusting', {
      clock: new FakeClock(new Date()),
      trustRenewTime: { maxClockSkewMs: 3000 },
    });
    expect(await trusting.inspect(node)).toMatchObject({ state: 'expired', decidedBy: 'remote-renew-time' });
    expect(await trusting.tryAcquire(node)).toMatchObject({ acquired: true, how: 'taken' });

    // A renewTime in the future (clock ahead) never extends the wait beyond the local rule.
    const ahead = nodeName('ahead');
    await leaseClient(env.kubeConfig, env.namespace, 'ahead-holder', {
      clock: skewedClock(hours(1)),
    }).tryAcquire(ahead);
    const clock = new FakeClock(new Date());
    const trusting2 = leaseClient(env.kubeConfig, env.namespace, 'trusting', { clock, trustRenewTime: true });
    expect(await trusting2.inspect(ahead)).toMatchObject({ state: 'held', decidedBy: 'local-observation' });
    clock.advance(2000);
    expect(await trusting2.tryAcquire(ahead)).toMatchObject({ acquired: true, how: 'taken' });
  });
});
