// The Node cache on watch events about what it does not watch: a Node in a namespace (Nodes are
// cluster-scoped), an object of another kind, a bookmark whose resourceVersion is no string. A
// real API server never sends them; a proxy in front of it can, and client-node's ListWatch put
// the object into the cache (under that namespace) or watched on from whatever resourceVersion
// it carried. Each must end the watch as a MalformedWatchError naming why (the cache's last
// error), with nothing of the stream in the cache, and the cache must recover and follow the
// server again.
//
// The real server answers, through a proxy that replaces watch answers. The proxy sends a
// replaced answer once the server has ended the real one, which a watch of Nodes does not do
// for a long time; so while it rewrites, the Node list's resourceVersion is made "x", and the
// server refuses each watch from there at once (a 500), which the proxy replaces: the first
// with a bookmark (the cache has synced), the second with the events under test, the third
// (the cache's restart, from "x" still) with the 410 a server sends for a resourceVersion it
// no longer has, so that the cache lists again, the server's own list from then on.
import { MalformedWatchError } from '@capi-kit/client';
import { type AnswerProxy, startAnswerProxy } from '@capi-kit/envtest/answer-proxy';
import { noControlPlane, useControlPlane } from '@capi-kit/envtest/vitest';
import { CoreV1Api } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startNodeCache } from '../src/informer.js';
import type { KubeObject } from '../src/objects.js';
import { createNode, unique } from './helpers/cluster-objects.js';

const cp = useControlPlane();
const NODES = '/api/v1/nodes';

describe.skipIf(noControlPlane())('the Node cache on watch events about what it does not watch', () => {
  let proxy: AnswerProxy;
  const created: string[] = [];

  beforeAll(async () => {
    proxy = await startAnswerProxy(cp.kubeConfig);
  });
  afterAll(async () => {
    await proxy?.close();
    const core = cp.kubeConfig.makeApiClient(CoreV1Api);
    for (const name of created) await core.deleteNode({ name }).catch(() => {});
  });

  /** Replaces the second Node watch answer with `events`, the first and third as above; then passes everything. */
  function replaceSecondWatch(events: readonly unknown[]) {
    const streams = [
      [{ type: 'BOOKMARK', object: { apiVersion: 'v1', kind: 'Node', metadata: { resourceVersion: 'x' } } }],
      events,
      [
        {
          type: 'ERROR',
          object: { apiVersion: 'v1', kind: 'Status', status: 'Failure', reason: 'Expired', code: 410 },
        },
      ],
    ];
    let watches = 0;
    proxy.rewrite({
      method: 'GET',
      path: NODES,
      watch: true,
      // (then nothing matches: a matched answer, a watch's too, is held until it ends)
      query: () => watches < streams.length,
      answer: ({ query, json }) => {
        if (query.get('watch') === 'true') {
          const lines = streams[watches++] ?? [];
          return { text: `${lines.map((event) => JSON.stringify(event)).join('\n')}\n` };
        }
        const list = json as { metadata?: Record<string, unknown> };
        return { json: { ...list, metadata: { ...list.metadata, resourceVersion: 'x' } } };
      },
    });
  }

  const node = (name: string, metadata: Record<string, unknown> = {}) => ({
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name, uid: `uid-${name}`, resourceVersion: '2', ...metadata },
    spec: {},
  });

  async function meets(bad: (intruder: string) => unknown, why: string) {
    const intruder = unique('intruder');
    const late = unique('late');
    replaceSecondWatch([bad(intruder), { type: 'ADDED', object: node(late) }]);
    const core = proxy.kubeConfig.makeApiClient(CoreV1Api);
    const cache = await startNodeCache<KubeObject>({
      kubeConfig: proxy.kubeConfig,
      path: NODES,
      list: () => core.listNode() as never,
      onChange: () => {},
    });
    try {
      await expect.poll(() => cache.lastError, { timeout: 20_000 }).toBeInstanceOf(MalformedWatchError);
      expect((cache.lastError as Error).message).toBe(
        `the watch of ${NODES} sent ${why}; it was ended, to list again`,
      );
      const names = () => cache.list().map((n) => `${n.metadata?.namespace ?? ''}/${n.metadata?.name}`);
      expect(names().filter((key) => key.includes(intruder) || key.includes(late))).toEqual([]);
      // It lists again and follows the server's own events.
      const name = unique('after');
      created.push(name);
      await createNode(cp.kubeConfig, name, undefined);
      await expect.poll(() => cache.get('', name)?.metadata?.name, { timeout: 20_000 }).toBe(name);
      expect(cache.lastError).toBe(undefined);
      expect(names().filter((key) => key.includes(intruder) || key.includes(late))).toEqual([]);
    } finally {
      await cache.stop();
    }
  }

  it('a Node in a namespace', async () => {
    await meets(
      (intruder) => ({ type: 'ADDED', object: node(intruder, { namespace: 'kube-system' }) }),
      `an event of type ADDED whose object's metadata.namespace is "kube-system", not absent (Node is cluster-scoped)`,
    );
  });

  it('an object of another kind', async () => {
    await meets(
      (intruder) => ({ type: 'ADDED', object: { ...node(intruder), kind: 'Pod' } }),
      `an event of type ADDED whose object's kind is "Pod", not "Node"`,
    );
  });

  it('a bookmark whose resourceVersion is no string', async () => {
    await meets(
      () => ({
        type: 'BOOKMARK',
        object: { apiVersion: 'v1', kind: 'Node', metadata: { resourceVersion: 17 } },
      }),
      `an event of type BOOKMARK whose object's metadata.resourceVersion is (a number), not a non-empty string`,
    );
  });
});
