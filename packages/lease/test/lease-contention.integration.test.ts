import { setTimeout as sleep } from 'node:timers/promises';
import { noControlPlane, useControlPlane } from '@capi-kit/envtest/vitest';
import { CoordinationV1Api } from '@kubernetes/client-node';
import { expect, it } from 'vitest';
import type { HeldLease } from '../src/index.js';
import { leaseClient, nodeName } from './helpers/clients.js';
import { OwnershipHistory } from './helpers/ownership-history.js';

const env = useControlPlane();

const contenders = 12;
const runForMs = 9_000;

it.skipIf(noControlPlane())(
  `${contenders} contenders on one node never believe they hold it at the same time`,
  async () => {
    const node = nodeName('contended');
    const history = new OwnershipHistory();
    const stop = AbortSignal.timeout(runForMs);
    const outcomes = { released: 0, lost: 0, crashed: 0 };

    const contender = async (index: number) => {
      const identity = `contender-${index}`;
      const client = leaseClient(env.kubeConfig, env.namespace, identity);
      while (!stop.aborted) {
        let held: HeldLease;
        try {
          held = await client.hold(node, { signal: stop });
        } catch (error) {
          if (stop.aborted) return;
          throw error;
        }
        const startMs = performance.now();
        history.begin(identity, startMs);
        let endMs: number | undefined;
        held.signal.addEventListener('abort', () => {
          endMs ??= performance.now();
        });
        // Keep it a while (several renewals for some), unless lost or the run ends.
        await Promise.race([sleep(150 + Math.random() * 900), held.ended]);
        if (!held.signal.aborted && Math.random() < 0.12 && outcomes.crashed < 2) {
          // A crash: stop renewing without releasing. The others must wait for expiry.
          endMs = performance.now();
          held.abandon();
          history.end(identity, endMs);
          outcomes.crashed++;
          return; // a crashed process does not come back
        }
        if (!held.signal.aborted) {
          endMs = performance.now(); // the belief ends before the release is sent
          history.end(identity, endMs);
          await held.release().catch(() => {});
          outcomes.released++;
        } else {
          history.end(identity, endMs ?? performance.now());
          if (held.lost) outcomes.lost++;
        }
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
