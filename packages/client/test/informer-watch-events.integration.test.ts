import { type AnswerProxy, startAnswerProxy } from '@capi-kit/envtest/answer-proxy';
import { noControlPlane, useControlPlane } from '@capi-kit/envtest/vitest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ClientError, connect, type Informer, type InformerOptions } from '../src/index.js';
import { capiCrdDirs, unwrap, v1alpha2Machine } from './helpers/fixtures.js';

// Watch events about objects an informer does not watch: another namespace's, another kind's
// or version's, without a name, with a namespace or resourceVersion that is no string, a
// bookmark whose resourceVersion is no string. A real API server never sends them; a proxy in
// front of it (or an impostor) can, and client-node's ListWatch put the object into the cache
// (and watched on from whatever resourceVersion it carried). Each must end the watch as a
// MalformedWatchError naming why, reported to the error handlers, with nothing of the stream
// in the cache, and a relist after which the informer follows the server again.
//
// The real server answers, through a proxy that replaces one watch answer. The proxy sends a
// replaced answer once the server has ended the real one, which a watch does not do for a long
// time; so while it rewrites, the Machine list's resourceVersion is made "x": the server refuses
// a watch from there at once (a 500), and the proxy sends these events instead. Only a relist
// gets the informer off "x" (resuming from it, it would be refused for ever).
const cp = useControlPlane();

const API_VERSION = 'cluster.x-k8s.io/v1alpha2';
const MACHINES = /^\/apis\/cluster\.x-k8s\.io\/v1alpha2\/(namespaces\/[^/]+\/)?machines$/;

describe.skipIf(noControlPlane())('an informer on watch events about what it does not watch', () => {
  let proxy: AnswerProxy;
  let created = 0;

  beforeAll(async () => {
    for (const dir of capiCrdDirs) await cp.installCRDs(dir);
    const direct = unwrap(await connect(cp.kubeConfig));
    const machines = unwrap(direct.resource(API_VERSION, 'Machine'));
    unwrap(await machines.create(v1alpha2Machine(cp.namespace, 'm-0')));
    proxy = await startAnswerProxy(cp.kubeConfig);
  });
  afterAll(async () => {
    await proxy?.close();
  });

  /**
   * Replaces the first Machine watch answer from now on with `events` (one JSON line each),
   * making Machine lists start their watch from "x" until then; after it, passes everything.
   */
  function replaceFirstWatch(events: readonly unknown[]) {
    let replaced = false;
    proxy.rewrite({
      method: 'GET',
      path: MACHINES,
      watch: true,
      // (once replaced, nothing matches: a matched answer, a watch's too, is held until it ends)
      query: () => !replaced,
      answer: ({ query, json }) => {
        if (query.get('watch') === 'true') {
          replaced = true;
          return { text: `${events.map((event) => JSON.stringify(event)).join('\n')}\n` };
        }
        const list = json as { metadata?: Record<string, unknown> };
        return { json: { ...list, metadata: { ...list.metadata, resourceVersion: 'x' } } };
      },
    });
  }

  /** A Machine as a watch event carries it, in the informer's namespace unless changed. */
  const machine = (name: string | undefined, metadata: Record<string, unknown> = {}) => ({
    apiVersion: API_VERSION,
    kind: 'Machine',
    metadata: { name, namespace: cp.namespace, uid: `uid-${name}`, resourceVersion: '2', ...metadata },
    spec: v1alpha2Machine(cp.namespace, name ?? 'x').spec,
  });

  /**
   * Runs an informer through the proxy while its first watch sends `bad`, then a good ADDED
   * Machine `late`: the error handlers must hear `why`, the cache hold neither the bad object
   * nor `late`, and after a relist the informer must follow a Machine created on the server.
   */
  async function meets(bad: unknown, why: string, options: InformerOptions = { namespace: cp.namespace }) {
    replaceFirstWatch([bad, { type: 'ADDED', object: machine('late') }]);
    const client = unwrap(await connect(proxy.kubeConfig));
    const informer: Informer<ReturnType<typeof machine>> = unwrap(
      client.informer(API_VERSION, 'Machine', { ...options, backoff: { initialMs: 50, maxMs: 200 } }),
    ) as never;
    const errors: ClientError[] = [];
    informer.on('error', (error) => errors.push(error));
    const seen: unknown[] = [];
    informer.on('add', (object) => seen.push(object));
    informer.on('invalid', (object) => seen.push(object));
    try {
      await informer.start();
      await expect.poll(() => errors.length, { timeout: 20_000 }).toBeGreaterThan(0);
      expect(errors[0]).toMatchObject({ code: 'malformed-watch-event' });
      expect(errors[0]?.message).toContain(`sent ${why}; it was ended, to list again`);
      expect(errors[0]?.message).not.toContain('no answer from the API server');
      // (relisted: a second list, which the proxy no longer rewrites)
      await expect.poll(() => informer.stats.lists, { timeout: 20_000 }).toBeGreaterThanOrEqual(2);
      // (what the server holds: m-0 and the Machines earlier tests created)
      const held = ['m-0', ...Array.from({ length: created }, (_, i) => `after-${i + 1}`)];
      expect(informer.list().map((m) => `${m.metadata.namespace}/${m.metadata.name}`)).toEqual(
        expect.arrayContaining(held.map((name) => `${cp.namespace}/${name}`)),
      );
      // (watching every namespace, the informer also holds the Machines other test files,
      // running alongside, created in theirs: only this file's namespace is counted then)
      const mine = (objects: readonly unknown[]) =>
        options.namespace === undefined
          ? objects.filter(
              (o) => (o as { metadata?: { namespace?: unknown } }).metadata?.namespace === cp.namespace,
            )
          : objects;
      expect(mine(informer.list())).toHaveLength(held.length);
      expect(informer.invalid()).toEqual([]);
      // (nor the bad event's object or the one after it, in whatever namespace they claim)
      const fed = (o: unknown) =>
        ['intruder', 'late'].includes(String((o as { metadata?: { name?: unknown } }).metadata?.name));
      expect([...informer.list(), ...seen].filter(fed)).toEqual([]);
      expect(
        mine(seen)
          .map((o) => (o as { metadata?: { name?: unknown } }).metadata?.name)
          .sort(),
      ).toEqual(held.sort());
      // The server's own events are followed again.
      const name = `after-${++created}`;
      const direct = unwrap(await connect(cp.kubeConfig));
      unwrap(
        await unwrap(direct.resource(API_VERSION, 'Machine')).create(v1alpha2Machine(cp.namespace, name)),
      );
      await expect
        .poll(() => informer.get(cp.namespace, name)?.metadata.name, { timeout: 20_000 })
        .toBe(name);
      expect(errors).toHaveLength(1);
    } finally {
      informer.stop();
    }
  }

  it('an object of another namespace', async () => {
    await meets(
      { type: 'ADDED', object: machine('intruder', { namespace: 'elsewhere' }) },
      `an event of type ADDED whose object's metadata.namespace is "elsewhere", not "${cp.namespace}", the namespace watched`,
    );
  });

  it('an object whose namespace is no string', async () => {
    await meets(
      { type: 'MODIFIED', object: machine('m-0', { namespace: 7, resourceVersion: '3' }) },
      `an event of type MODIFIED whose object's metadata.namespace is (a number), not "${cp.namespace}", the namespace watched`,
    );
  });

  it('an object of another kind', async () => {
    await meets(
      { type: 'ADDED', object: { ...machine('intruder'), kind: 'MachineSet' } },
      `an event of type ADDED whose object's kind is "MachineSet", not "Machine"`,
    );
  });

  it('an object of another apiVersion', async () => {
    await meets(
      { type: 'ADDED', object: { ...machine('intruder'), apiVersion: 'cluster.x-k8s.io/v1alpha1' } },
      `an event of type ADDED whose object's apiVersion is "cluster.x-k8s.io/v1alpha1", not "${API_VERSION}"`,
    );
  });

  it('an object without a name', async () => {
    await meets(
      { type: 'ADDED', object: machine(undefined) },
      `an event of type ADDED whose object's metadata.name is (undefined), not a non-empty string`,
    );
  });

  it('an object whose resourceVersion is no string', async () => {
    await meets(
      { type: 'MODIFIED', object: machine('m-0', { resourceVersion: 12345 }) },
      `an event of type MODIFIED whose object's metadata.resourceVersion is (a number), not a non-empty string`,
    );
  });

  it('a bookmark whose resourceVersion is no string', async () => {
    await meets(
      {
        type: 'BOOKMARK',
        object: { apiVersion: API_VERSION, kind: 'Machine', metadata: { resourceVersion: {} } },
      },
      `an event of type BOOKMARK whose object's metadata.resourceVersion is (an object), not a non-empty string`,
    );
  });

  it('an object without a namespace, watched in every namespace', async () => {
    await meets(
      { type: 'ADDED', object: machine('intruder', { namespace: undefined }) },
      `an event of type ADDED whose object's metadata.namespace is (undefined), not a non-empty string (Machine is namespaced)`,
      {},
    );
  });
});
