import { readdirSync, readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { type ControlPlane, startControlPlane } from '@capi-kit/envtest';
import { noControlPlane } from '@capi-kit/envtest/vitest';
import { CoordinationV1Api } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type HeldLease,
  LeaseApiError,
  type LeaseChange,
  LeaseLostError,
  type LeaseTiming,
  NodeLeaseObserver,
} from '../src/index.js';
import { fastTiming, leaseClient, nodeName } from './helpers/clients.js';
import { eventually } from './helpers/eventually.js';
import { OwnershipHistory } from './helpers/ownership-history.js';

// A private control plane: restarting the shared one would disturb every other test file.
let cp: ControlPlane;
let namespace: string;

describe.skipIf(noControlPlane('private-local'))(
  'a lease across an API server restart (private control plane)',
  () => {
    beforeAll(async () => {
      cp = await startControlPlane({ backend: 'local', log: () => {} });
      namespace = await cp.createNamespace('lease-restart');
    });

    afterAll(async () => {
      await cp?.stop();
    });

    /** The PID of this control plane's kube-apiserver (its flags name the plane's directory). */
    function apiServerPid(): number {
      const dir = dirname(cp.kubeconfigPath);
      for (const entry of readdirSync('/proc')) {
        if (!/^\d+$/.test(entry)) continue;
        try {
          const argv = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0');
          if (argv[0]?.endsWith('kube-apiserver') && argv.some((a) => a.includes(dir))) return Number(entry);
        } catch {
          // the process ended while we looked
        }
      }
      throw new Error(`no kube-apiserver process for ${dir}`);
    }

    /**
     * Samples a holder's belief every 20 ms: whenever it says it holds the lease, less than a
     * lease duration has passed since its last successful renewal was sent (after which others
     * may judge it expired).
     */
    function watchBelief(held: HeldLease, timing: LeaseTiming) {
      const violations: string[] = [];
      let sampling = true;
      const done = (async () => {
        while (sampling) {
          const sinceRenewal = performance.now() - held.lastRenewSentAtMs;
          if (held.isHeld() && sinceRenewal >= timing.leaseDurationSeconds * 1000) {
            violations.push(`believed held ${sinceRenewal} ms after its last renewal`);
          }
          await sleep(20);
        }
      })();
      return {
        violations,
        stop: async () => {
          sampling = false;
          await done;
        },
      };
    }

    it('while the API server restarts, holders keep their lease or report its loss, never holding past expiry', async () => {
      // Two holders through the same outage: one whose renew deadline (1.5 s) is shorter than a
      // restart, one whose deadline (40 s) outlasts it.
      const longTiming: LeaseTiming = {
        leaseDurationSeconds: 60,
        renewDeadlineMs: 40_000,
        retryPeriodMs: 500,
      };
      const shortNode = nodeName('restart-short');
      const longNode = nodeName('restart-long');
      const alice = leaseClient(cp.kubeConfig, namespace, 'alice');
      const carol = leaseClient(cp.kubeConfig, namespace, 'carol', { timing: longTiming });
      const history = new OwnershipHistory();

      const short = await alice.hold(shortNode);
      history.begin('alice', performance.now());
      const long = await carol.hold(longNode);
      let lostAtMs: number | undefined;
      short.signal.addEventListener('abort', () => {
        lostAtMs = performance.now();
        // Alice's belief ended when isHeld() turned false, at the renew deadline at the
        // latest, however late a busy event loop runs this listener.
        history.end('alice', Math.min(lostAtMs, short.validUntilMs));
      });
      const shortBelief = watchBelief(short, fastTiming);
      const longBelief = watchBelief(long, longTiming);

      // An observer watching the namespace throughout: its watch must resume after the restart.
      const observer = new NodeLeaseObserver({ kubeConfig: cp.kubeConfig, namespace, timing: fastTiming });
      const stopWatching = new AbortController();
      const changes: LeaseChange[] = [];
      const watching = (async () => {
        for await (const change of observer.watch({ signal: stopWatching.signal })) changes.push(change);
      })();

      // Both holders renew at least once before the outage (polled, not slept).
      const beforeRenewals = performance.now();
      expect(
        await eventually(
          () => short.lastRenewSentAtMs > beforeRenewals && long.lastRenewSentAtMs > beforeRenewals,
        ),
      ).toBe(true);
      const restartStartedMs = performance.now();
      await cp.restartApiServer();
      const outageMs = performance.now() - restartStartedMs;

      // Once the server is back, a second client contends for the short lease.
      const bob = leaseClient(cp.kubeConfig, namespace, 'bob');
      let lastRefusalRenewTime: Date | undefined;
      const bobGot = await bob.acquire(shortNode, {
        signal: AbortSignal.timeout(20_000),
        onWait: (refusal) => {
          lastRefusalRenewTime = refusal.lease.renewTime;
        },
      });
      history.begin('bob', performance.now());
      // The long holder renews again after the outage.
      const afterOutage = performance.now();
      expect(await eventually(() => long.lastRenewSentAtMs > afterOutage)).toBe(true);
      await shortBelief.stop();
      await longBelief.stop();
      const bobSeen = () => changes.some((c) => c.node === shortNode && c.inspection.holder === 'bob');
      await eventually(bobSeen);
      stopWatching.abort();
      await watching;
      expect(bobSeen()).toBe(true);

      expect(shortBelief.violations).toEqual([]);
      expect(longBelief.violations).toEqual([]);
      expect(history.overlaps()).toEqual([]);

      if (short.signal.aborted) {
        // Lost during the outage: reported with a LeaseLostError, before the lease could expire.
        expect(short.lost).toBeInstanceOf(LeaseLostError);
        expect(short.lost?.message).toMatch(/renew deadline/);
        // Its belief ended before expiry (the watchBelief sampler checks that strictly); the
        // loss was reported, if a busy event loop delays the timer, up to seconds later.
        expect(short.validUntilMs - short.lastRenewSentAtMs).toBeLessThan(
          fastTiming.leaseDurationSeconds * 1000,
        );
        expect(lostAtMs! - short.lastRenewSentAtMs).toBeLessThan(
          fastTiming.leaseDurationSeconds * 1000 + 15_000,
        );
      } else {
        // Only possible if the restart was shorter than the renew deadline.
        expect(outageMs).toBeLessThan(fastTiming.renewDeadlineMs);
      }
      // Bob took the lease only after it expired: a full duration after alice's last renewal.
      // (A fresh client waits a whole duration, so it was refused at least once.)
      expect(lastRefusalRenewTime).toBeDefined();
      expect(bobGot.lease.acquireTime!.getTime() - lastRefusalRenewTime!.getTime()).toBeGreaterThanOrEqual(
        fastTiming.leaseDurationSeconds * 1000,
      );
      expect(bobGot.lease.holder).toBe('bob');

      // The long holder kept its lease through the outage, and renews again.
      expect(long.signal.aborted).toBe(false);
      expect(long.isHeld()).toBe(true);
      const stored = await cp.kubeConfig
        .makeApiClient(CoordinationV1Api)
        .readNamespacedLease({ name: longNode, namespace });
      expect(stored.spec?.holderIdentity).toBe('carol');
      expect(new Date(String(stored.spec?.renewTime)).getTime()).toBeGreaterThan(Date.now() - 3000);
      expect(await bob.tryAcquire(longNode)).toMatchObject({ acquired: false, because: 'held' });
      expect(await long.release()).toEqual({ released: true });
    });

    it('a request to a hung API server (SIGSTOPped) ends with a timeout error, not a hang', async () => {
      const pid = apiServerPid();
      const dave = leaseClient(cp.kubeConfig, namespace, 'dave'); // 1 s request timeout
      process.kill(pid, 'SIGSTOP');
      try {
        const error = await dave.inspect(nodeName('hung')).catch((e: unknown) => e);
        expect(error).toBeInstanceOf(LeaseApiError);
        expect(error).toMatchObject({ code: 'timeout' });
        expect((error as Error).message).toMatch(/no answer within the request timeout/);
      } finally {
        process.kill(pid, 'SIGCONT');
      }
      // Once it runs again, so does the client.
      expect((await dave.inspect(nodeName('after'))).state).toBe('absent');
    });
  },
);
