import { setTimeout as sleep } from 'node:timers/promises';
import { noControlPlane, useControlPlane } from '@capi-kit/envtest/vitest';
import { CoordinationV1Api } from '@kubernetes/client-node';
import { expect, it } from 'vitest';
import { type HeldLease, LeaseApiError } from '../src/index.js';
import { leaseClient, nodeName } from './helpers/clients.js';
import { OwnershipHistory } from './helpers/ownership-history.js';

const env = useControlPlane();

const contenders = 12;
// The run lasts until the lease has changed hands enough (liveness, so a generous cap), not
// a fixed time: on a loaded machine 9 s may see only a few tenures.
const minRunMs = 9_000;
const maxRunMs = 90_000;

it.skipIf(noControlPlane())(
  `${contenders} contenders on one node never believe they hold it at the same time`,
  async () => {
    const node = nodeName('contended');
    const history = new OwnershipHistory();
    const outcomes = { released: 0, lost: 0, crashed: 0, timedOut: 0 };
    const stopping = new AbortController();
    const stop = AbortSignal.any([stopping.signal, AbortSignal.timeout(maxRunMs)]);
    const begunMs = performance.now();
    const enough = () =>
      performance.now() - begunMs >= minRunMs &&
      history.tenures().length >= 6 &&
      new Set(history.tenures().map((t) => t.holder)).size >= 4 &&
      outcomes.released > 0;

    const contender = async (index: number) => {
      const identity = `contender-${index}`;
      const client = leaseClient(env.kubeConfig, env.namespace, identity);
      while (!stop.aborted) {
        let held: HeldLease;
        try {
          held = await client.hold(node, { signal: stop });
        } catch (error) {
          if (stop.aborted) return;
          // A request that got no answer in time (a loaded machine): the caller tries
          // again, as an agent would. Safety does not depend on it: nothing was believed.
          if (error instanceof LeaseApiError && error.code === 'timeout') {
            outcomes.timedOut++;
            continue;
          }
          throw error;
        }
        const startMs = performance.now();
        history.begin(identity, startMs);
        let endMs: number | undefined;
        held.signal.addEventListener('abort', () => {
          // The belief ended when isHeld() turned false: at the renew deadline at the
          // latest, even if a busy event loop runs this listener later.
          endMs ??= Math.min(performance.now(), held.validUntilMs);
        });
        // Keep it a while (several renewals for some), unless lost or the run ends.
        await Promise.race([sleep(150 + Math.random() * 900), held.ended]);
        if (!held.signal.aborted && Math.random() < 0.12 && outcomes.crashed < 2) {
          // A crash: stop renewing without releasing. The others must wait for expiry.
          endMs = Math.min(performance.now(), held.validUntilMs);
          held.abandon();
          history.end(identity, endMs);
          outcomes.crashed++;
          return; // a crashed process does not come back
        }
        if (!held.signal.aborted) {
          endMs = Math.min(performance.now(), held.validUntilMs); // the belief ends before the release is sent
          history.end(identity, endMs);
          await held.release().catch(() => {});
          outcomes.released++;
        } else {
          history.end(identity, endMs ?? Math.min(performance.now(), held.validUntilMs));
          if (held.lost) outcomes.lost++;
        }
        if (enough()) stopping.abort();
        await sleep(Math.random() * 200);
      }
    };

    await Promise.all(Array.from({ length: contenders }, (_, i) => contender(i)));

    const tenures = history.tenures();
    expect(history.overlaps()).toEqual([]);
    // Not a vacuous pass: the lease changed hands many times between many contenders.
    expect(tenures.length).toBeGreaterThanOrEqual(6);
    expect(new Set(tenures.map((t) => t.holder)).size).toBeGreaterThanOrEqual(4);
    expect(outcomes.released).toBeGreaterThan(0);
    // The server counts one transition per change of holder: one per tenure after the first.
    const stored = await env.kubeConfig
      .makeApiClient(CoordinationV1Api)
      .readNamespacedLease({ name: node, namespace: env.namespace });
    expect(stored.spec?.leaseTransitions).toBe(tenures.length - 1);
  },
);
