import { type AnswerProxy, startAnswerProxy } from '@capi-kit/envtest/answer-proxy';
import { noControlPlane, useControlPlane } from '@capi-kit/envtest/vitest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, type WatchEvent } from '../src/index.js';
import { capiCrdDirs, unwrap, v1alpha2Machine } from './helpers/fixtures.js';

// `ResourceClient.watch()` on watch events about what it does not watch: another namespace's or
// kind's object, one without a name, a resourceVersion that is no string, an event of a type no
// server sends, a line that is no event. A real API server never sends them; a proxy in front of
// it (or an impostor) can, and they reached the caller's callback (the unknown type and the line
// were dropped quietly, and the watch went on). Each must end the watch: `done` resolves to a
// `malformed-watch-event` ClientError naming why, and the callback sees neither the bad event nor
// anything after it (an honest event before it, it does see, as before).
//
// The real server answers, through a proxy that replaces the watch answer. The proxy sends a
// replaced answer once the server has ended the real one, which a watch does not do for a long
// time; so the watch starts from resourceVersion "x", which the server refuses at once, and the
// proxy sends the events under test instead.
const cp = useControlPlane();

const API_VERSION = 'cluster.x-k8s.io/v1alpha2';
const MACHINES = /^\/apis\/cluster\.x-k8s\.io\/v1alpha2\/(namespaces\/[^/]+\/)?machines$/;

describe.skipIf(noControlPlane())('ResourceClient.watch on watch events about what it does not watch', () => {
  let proxy: AnswerProxy;

  beforeAll(async () => {
    for (const dir of capiCrdDirs) await cp.installCRDs(dir);
    proxy = await startAnswerProxy(cp.kubeConfig);
  });
  afterAll(async () => {
    await proxy?.close();
  });

  /** Replaces the next Machine watch answer with `events` (one JSON line each); after it, passes everything. */
  function replaceNextWatch(events: readonly unknown[]) {
    let replaced = false;
    proxy.rewrite({
      method: 'GET',
      path: MACHINES,
      watch: true,
      // (once replaced, nothing matches: a matched answer, a watch's too, is held until it ends)
      query: (query) => !replaced && query.get('watch') === 'true',
      answer: () => {
        replaced = true;
        return { text: `${events.map((event) => JSON.stringify(event)).join('\n')}\n` };
      },
    });
  }

  /** A Machine as a watch event carries it, in the watched namespace unless changed. */
  const machine = (name: string | undefined, metadata: Record<string, unknown> = {}) => ({
    ...v1alpha2Machine(cp.namespace, name ?? 'x'),
    metadata: { name, namespace: cp.namespace, uid: `uid-${name}`, resourceVersion: '2', ...metadata },
  });

  const nameOf = (object: unknown) => (object as { metadata?: { name?: unknown } }).metadata?.name;

  /**
   * Watches Machines through the proxy while the answer sends an honest ADDED Machine, `bad`,
   * then another honest ADDED Machine: the callback must see only the first, and `done` be a
   * `malformed-watch-event` naming `why`.
   */
  async function meets(
    bad: unknown,
    why: string,
    where: { namespace?: string } = { namespace: cp.namespace },
  ) {
    const namespace = where.namespace;
    replaceNextWatch([
      { type: 'ADDED', object: machine('before') },
      bad,
      { type: 'ADDED', object: machine('late') },
    ]);
    const client = unwrap(await connect(proxy.kubeConfig));
    const machines = unwrap(client.resource(API_VERSION, 'Machine'));
    const seen: WatchEvent<unknown>[] = [];
    const handle = await machines.watch(
      { ...(namespace === undefined ? {} : { namespace }), resourceVersion: 'x' },
      (event) => seen.push(event),
    );
    try {
      const ended = await handle.done;
      expect(ended).toMatchObject({
        code: 'malformed-watch-event',
        target: {
          apiVersion: API_VERSION,
          kind: 'Machine',
          ...(namespace === undefined ? {} : { namespace }),
        },
      });
      expect(ended?.message).toContain(`: the watch stream sent ${why}; the watch was ended`);
      expect(ended?.message).not.toContain('no answer from the API server');
      expect(seen.map((event) => (event.type === 'ADDED' ? `ADDED ${nameOf(event.object)}` : event))).toEqual(
        ['ADDED before'],
      );
    } finally {
      handle.stop();
    }
  }

  it('an object of another namespace', async () => {
    await meets(
      { type: 'ADDED', object: machine('intruder', { namespace: 'elsewhere' }) },
      `an event of type ADDED whose object's metadata.namespace is "elsewhere", not "${cp.namespace}", the namespace watched`,
    );
  });

  it('an object without a namespace, watched in every namespace', async () => {
    await meets(
      { type: 'MODIFIED', object: machine('intruder', { namespace: undefined }) },
      `an event of type MODIFIED whose object's metadata.namespace is (undefined), not a non-empty string (Machine is namespaced)`,
      {},
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
      { type: 'DELETED', object: { ...machine('intruder'), apiVersion: 'cluster.x-k8s.io/v1alpha1' } },
      `an event of type DELETED whose object's apiVersion is "cluster.x-k8s.io/v1alpha1", not "${API_VERSION}"`,
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
      { type: 'MODIFIED', object: machine('before', { resourceVersion: 12345 }) },
      `an event of type MODIFIED whose object's metadata.resourceVersion is (a number), not a non-empty string`,
    );
  });

  it('a bookmark whose resourceVersion is no string', async () => {
    await meets(
      {
        type: 'BOOKMARK',
        object: { apiVersion: API_VERSION, kind: 'Machine', metadata: { resourceVersion: 17 } },
      },
      `an event of type BOOKMARK whose object's metadata.resourceVersion is (a number), not a non-empty string`,
    );
  });

  it('an event of an unknown type', async () => {
    await meets({ type: 'SYNC', object: machine('intruder') }, `an event of unknown type "SYNC"`);
  });

  it('a line that is no event', async () => {
    await meets(
      { apiVersion: 'v1', kind: 'Status', status: 'Success' },
      `a line that is not a watch event (no "type")`,
    );
  });
});
