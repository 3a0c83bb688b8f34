import type { v1alpha2 } from '@capi-kit/core';
import { type ControlPlane, startControlPlane } from '@capi-kit/envtest';
import { noControlPlane } from '@capi-kit/envtest/vitest';
import { providerIDRegistry } from '@capi-kit/providerid';
import * as E from 'fp-ts/lib/Either.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CapiClient, connect, type Informer, type ResourceClient } from '../src/index.js';
import { capiCrdDirs, unwrap, v1alpha2Machine } from './helpers/fixtures.js';
import { inParallel, pollUntil } from './helpers/poll.js';

type Machine = v1alpha2.Machine;

// A private control plane: these tests restart the API server, which would disturb every
// other test file on the shared one.
describe.skipIf(noControlPlane('private-local'))('informers on a real API server', () => {
  let cp: ControlPlane;
  let client: CapiClient;
  let machines: ResourceClient<Machine>;
  const informers: Informer<Machine>[] = [];

  beforeAll(async () => {
    cp = await startControlPlane({ log: () => {} });
    for (const dir of capiCrdDirs) await cp.installCRDs(dir);
    client = unwrap(await connect(cp.kubeConfig));
    machines = unwrap(client.resource('cluster.x-k8s.io/v1alpha2', 'Machine'));
  });

  afterAll(async () => {
    for (const informer of informers) informer.stop();
    await cp?.stop();
  });

  function informerOf(namespace: string, options: Parameters<CapiClient['informer']>[2] = {}) {
    const informer = unwrap(
      client.informer('cluster.x-k8s.io/v1alpha2', 'Machine', { namespace, ...options }),
    );
    informers.push(informer);
    return informer;
  }

  /** name → resourceVersion, from the cache and from a fresh list. */
  const versions = (items: readonly Machine[]) =>
    Object.fromEntries(items.map((m) => [m.metadata?.name, m.metadata?.resourceVersion]));
  async function freshList(namespace: string) {
    return versions(unwrap(await machines.list({ namespace })).items);
  }
  async function cacheEqualsFreshList(informer: Informer<Machine>, namespace: string) {
    const fresh = await freshList(namespace);
    const cached = versions(informer.list());
    return JSON.stringify(Object.entries(cached).sort()) === JSON.stringify(Object.entries(fresh).sort());
  }

  it('holds 5,000 Machines with indexes, and follows creates, updates and deletes', async () => {
    const ns = await cp.createNamespace('informer-5k');
    const names = Array.from({ length: 5000 }, (_, i) => i);
    await inParallel(names, 16, async (i) => {
      const machine = v1alpha2Machine(ns, `m-${i}`, i % 2 === 0 ? 'even' : 'odd', {
        providerID: `aws:///us-east-1a/i-${i.toString(16).padStart(8, '0')}`,
      });
      unwrap(await machines.create(machine));
    });

    const informer = informerOf(ns, { providerIDRegistry });
    const seen = { add: 0, update: 0, delete: 0 };
    informer.on('add', () => seen.add++);
    informer.on('update', () => seen.update++);
    informer.on('delete', () => seen.delete++);
    await informer.start();
    expect(informer.size).toBe(5000);
    expect(seen.add).toBe(5000);
    expect(await cacheEqualsFreshList(informer, ns)).toBe(true);
    expect(informer.byIndex('clusterName', 'even')).toHaveLength(2500);
    // By identity: the Node's ID leaves out the zone, and still denotes the Machine.
    expect(informer.byProviderID('aws:////i-000003e7').map((m) => m.metadata?.name)).toEqual(['m-999']);

    // Changes while watching.
    for (let i = 0; i < 10; i++) unwrap(await machines.create(v1alpha2Machine(ns, `new-${i}`, 'even')));
    for (let i = 0; i < 10; i++)
      unwrap(
        await machines.patch(ns, `m-${i}`, {
          type: 'merge',
          patch: { metadata: { labels: { changed: 'yes' } } },
        }),
      );
    for (let i = 10; i < 20; i++) unwrap(await machines.delete(ns, `m-${i}`));
    await pollUntil(
      'the cache follows the changes',
      () => seen.add === 5010 && seen.update >= 10 && seen.delete === 10,
    );
    expect(informer.size).toBe(5000);
    expect(informer.get(ns, 'm-3')?.metadata?.labels?.changed).toBe('yes');
    expect(informer.get(ns, 'm-15')).toBeUndefined();
    expect(informer.byIndex('clusterName', 'even')).toHaveLength(2510 - 5);
    expect(informer.byProviderID('aws:///us-east-1a/i-0000000f')).toEqual([]);
    expect(await cacheEqualsFreshList(informer, ns)).toBe(true);
  }, 900_000);

  it('converges to a fresh list with no lost update across an API server restart mid-watch', async () => {
    const ns = await cp.createNamespace('informer-restart');
    const count = 20;
    for (let i = 0; i < count; i++) unwrap(await machines.create(v1alpha2Machine(ns, `r-${i}`)));
    const informer = informerOf(ns, { backoff: { initialMs: 100, maxMs: 1000 } });
    const errors: string[] = [];
    informer.on('error', (e) => errors.push(e.code));
    await informer.start();

    // A writer bumps a counter label on every Machine, round after round, through the restart;
    // `written` holds the last value the server acknowledged for each.
    const written = new Map<string, number>();
    let writing = true;
    let round = 0;
    const writer = (async () => {
      while (writing) {
        round++;
        for (let i = 0; i < count && writing; i++) {
          const patched = await machines.patch(ns, `r-${i}`, {
            type: 'merge',
            patch: { metadata: { labels: { round: String(round) } } },
          });
          if (E.isRight(patched)) written.set(`r-${i}`, round);
        }
      }
    })();
    await pollUntil('a few rounds before the restart', () => round >= 3);
    await cp.restartApiServer();
    const roundAfterRestart = round;
    await pollUntil('a few rounds after the restart', () => round >= roundAfterRestart + 3);
    writing = false;
    await writer;

    await pollUntil('the cache equals a fresh list', () => cacheEqualsFreshList(informer, ns));
    for (const [name, value] of written) {
      expect(informer.get(ns, name)?.metadata?.labels?.round, name).toBe(String(value));
    }
    expect(informer.stats.reconnects).toBeGreaterThan(0);
    expect(errors).toContain('unreachable');
  });

  it('relists when its resourceVersion is too old (410 Gone) and drops what was deleted meanwhile', async () => {
    const ns = await cp.createNamespace('informer-gone');
    for (let i = 0; i < 5; i++) unwrap(await machines.create(v1alpha2Machine(ns, `g-${i}`)));
    const informer = informerOf(ns, { backoff: { initialMs: 100, maxMs: 1000 } });
    const deleted: string[] = [];
    informer.on('delete', (m) => deleted.push(m.metadata?.name ?? ''));
    await informer.start();
    const listsBefore = informer.stats.lists;

    // While the API server is down the informer cannot watch; on its return the watch
    // resumes from a resourceVersion older than the new watch cache: 410, then a relist.
    // A Machine deleted through etcd-backed writes after the restart, before the watch is
    // back, must then leave the cache through the relist or the watch.
    await cp.restartApiServer();
    unwrap(await machines.delete(ns, 'g-0'));
    await pollUntil('the informer relisted', () => informer.stats.lists > listsBefore);
    await pollUntil('the cache equals a fresh list', () => cacheEqualsFreshList(informer, ns));
    expect(informer.get(ns, 'g-0')).toBeUndefined();
    expect(deleted).toEqual(['g-0']);
    expect(informer.stats.gone).toBeGreaterThan(0);
  });

  it('restarts a watch that falls silent, and stays equal to a fresh list', async () => {
    const ns = await cp.createNamespace('informer-silent');
    unwrap(await machines.create(v1alpha2Machine(ns, 's-0')));
    const informer = informerOf(ns, { silenceTimeoutMs: 500 });
    await informer.start();
    await pollUntil('the silent watch is restarted twice', () => informer.stats.silentRestarts >= 2);
    unwrap(await machines.create(v1alpha2Machine(ns, 's-1')));
    unwrap(await machines.delete(ns, 's-0'));
    await pollUntil(
      'the cache follows',
      () => informer.get(ns, 's-1') !== undefined && informer.get(ns, 's-0') === undefined,
    );
    expect(await cacheEqualsFreshList(informer, ns)).toBe(true);
  });
});
