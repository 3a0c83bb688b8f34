import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { noControlPlane, useControlPlane } from '@capi-kit/envtest/vitest';
import { afterEach, expect, it } from 'vitest';
import type { AcquireResult } from '../src/index.js';
import { fastTiming, leaseClient, nodeName } from './helpers/clients.js';
import { eventually } from './helpers/eventually.js';

const env = useControlPlane();
const fixture = fileURLToPath(new URL('./fixtures/hold-lease.ts', import.meta.url));
const packageDir = fileURLToPath(new URL('..', import.meta.url));
const children: ChildProcess[] = [];

afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
});

/** Starts the fixture holding `node` and resolves once it reports the lease held. */
async function holderProcess(node: string, identity: string): Promise<ChildProcess> {
  const child = spawn(
    process.execPath,
    [
      '--conditions=@capi-kit/source',
      '--import',
      'tsx',
      fixture,
      env.kubeconfigPath,
      env.namespace,
      node,
      identity,
    ],
    { cwd: packageDir, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  children.push(child);
  const lines = createInterface({ input: child.stdout! });
  for await (const line of lines) {
    if (line.includes('"held"')) return child;
  }
  throw new Error(`the holder process exited (${child.exitCode}) before holding the lease`);
}

it.skipIf(noControlPlane())(
  'a SIGKILLed holder’s lease is taken over after it expires, and not before',
  async () => {
    const node = nodeName('killed');
    const child = await holderProcess(node, 'doomed-agent');
    const survivor = leaseClient(env.kubeConfig, env.namespace, 'survivor');

    // The survivor starts waiting while the holder is alive and renewing.
    let lastRefusal: (AcquireResult & { acquired: false }) | undefined;
    const renewTimesSeen = new Set<number>();
    const takeover = survivor.acquire(node, {
      onWait: (refusal) => {
        lastRefusal = refusal;
        if (refusal.lease.renewTime) renewTimesSeen.add(refusal.lease.renewTime.getTime());
      },
    });
    // Until the survivor has seen the live holder renew twice (no fixed sleep: under load
    // that takes longer).
    expect(await eventually(() => renewTimesSeen.size >= 2)).toBe(true);
    expect(lastRefusal?.holder).toBe('doomed-agent');

    child.kill('SIGKILL');
    const killedAtMs = performance.now();
    await once(child, 'exit');

    const taken = await takeover;
    const tookMs = performance.now() - killedAtMs;

    expect(taken.how).toBe('taken');
    // Safety, strict: not before the lease expired: the takeover was written at least a full duration after
    // the dead holder's last renewal (both times are this machine's wall clock).
    const lastRenewal = lastRefusal!.lease.renewTime!.getTime();
    expect(taken.lease.acquireTime!.getTime() - lastRenewal).toBeGreaterThanOrEqual(
      fastTiming.leaseDurationSeconds * 1000,
    );
    // Liveness, generous: ideally within duration + one jittered retry period of the kill
    // (the survivor wakes at expiry), but a loaded machine delays timers and round trips by
    // seconds; 15 s more still catches a survivor that never wakes or waits a second lease.
    expect(tookMs).toBeLessThan(
      fastTiming.leaseDurationSeconds * 1000 + 1.2 * fastTiming.retryPeriodMs + 15_000,
    );
    expect(taken.lease).toMatchObject({ holder: 'survivor', leaseTransitions: 1 });
  },
);
