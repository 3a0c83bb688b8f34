import { setTimeout as sleep } from 'node:timers/promises';
import { type ControlPlane, startControlPlane } from '@capi-kit/envtest';
import { CoordinationV1Api } from '@kubernetes/client-node';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type HeldLease, LeaseLostError } from '../src/index.js';
import { fastTiming, leaseClient, nodeName } from './helpers/clients.js';
import { OwnershipHistory } from './helpers/ownership-history.js';

// A private control plane: restarting the shared one would disturb every other test file.
let cp: ControlPlane;
let namespace: string;

beforeAll(async () => {
  cp = await startControlPlane({ log: () => {} });
  namespace = await cp.createNamespace('lease-restart');
});

afterAll(async () => {
  await cp?.stop();
});

it('while the API server restarts, the holder keeps the lease or reports its loss, never holding past expiry', async () => {
  const node = nodeName('restart');
  const alice = leaseClient(cp.kubeConfig, namespace, 'alice');
  const history = new OwnershipHistory();
  const held: HeldLease = await alice.hold(node);
  history.begin('alice', performance.now());

  // Samples the holder's belief throughout: whenever it says it holds the lease, less than
  // a lease duration has passed since its last successful renewal was sent.
  const violations: string[] = [];
  let sampling = true;
  const sampler = (async () => {
    while (sampling) {
      const now = performance.now();
      if (held.isHeld() && now >= held.lastRenewSentAtMs + fastTiming.leaseDurationSeconds * 1000) {
        violations.push(`believed held ${now - held.lastRenewSentAtMs} ms after its last renewal`);
      }
      await sleep(20);
    }
  })();
  let lostAtMs: number | undefined;
  held.signal.addEventListener('abort', () => {
    lostAtMs = performance.now();
    history.end('alice', lostAtMs);
  });

  await sleep(1000);
  await cp.restartApiServer();

  // Once the server is back, a second client contends for the lease.
  const bob = leaseClient(cp.kubeConfig, namespace, 'bob');
  const bobGot = bob.acquire(node, { signal: AbortSignal.timeout(15_000) }).then((result) => {
    history.begin('bob', performance.now());
    return result;
  });
  const outcome = await Promise.race([
    bobGot.then(() => 'bob' as const),
    sleep(5_000).then(() => 'timeout' as const),
  ]);
  sampling = false;
  await sampler;

  expect(violations).toEqual([]);
  if (held.signal.aborted) {
    // Lost during the outage: reported through the signal with a LeaseLostError, and only
    // then could bob take over (after expiry).
    expect(held.lost).toBeInstanceOf(LeaseLostError);
    expect(held.lost?.message).toMatch(/renew deadline|held by 'bob'/);
    expect(outcome).toBe('bob');
    expect(lostAtMs! - held.lastRenewSentAtMs).toBeLessThan(fastTiming.leaseDurationSeconds * 1000);
  } else {
    // Kept: renewals resumed, bob is still waiting.
    expect(outcome).toBe('timeout');
    const stored = await cp.kubeConfig
      .makeApiClient(CoordinationV1Api)
      .readNamespacedLease({ name: node, namespace });
    expect(stored.spec?.holderIdentity).toBe('alice');
    await held.release();
    await bobGot;
  }
  expect(history.overlaps()).toEqual([]);
  expect((await bob.inspect(node)).holder).toBe('bob');
});
