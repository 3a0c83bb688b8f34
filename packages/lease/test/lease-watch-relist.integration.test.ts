import { setTimeout as sleep } from 'node:timers/promises';
import { type AnswerProxy, startAnswerProxy } from '@capi-kit/envtest/answer-proxy';
import { noControlPlane, useControlPlane } from '@capi-kit/envtest/vitest';
import { CoordinationV1Api } from '@kubernetes/client-node';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { formatMicroTime, type LeaseChange, NodeLeaseObserver } from '../src/index.js';
import { fastTiming, nodeName } from './helpers/clients.js';
import { eventually } from './helpers/eventually.js';

/**
 * A list made after the first one (after an ERROR event, a failed watch) is checked as the
 * first is, and a refusal of it ends watch() as the first list's does: from a proxy in front
 * of the real server, the first list is the server's own, the first watch stream is replaced
 * by an ERROR 410 Expired event (sent once the server has ended the real stream, after the
 * 1 s `timeoutSeconds`), and the lists after it are replaced. A malformed LeaseList or a 403
 * must end watch() with that error, never be retried quietly for ever; a 500 is retried and
 * the watch goes on once the server answers again.
 */
const env = useControlPlane();
const direct = () => env.kubeConfig.makeApiClient(CoordinationV1Api);
const leasesPath = /^\/apis\/coordination\.k8s\.io\/v1\/namespaces\/[^/]+\/leases$/;
let proxy: AnswerProxy;

/** A free lease on the real server. */
async function freeLease(node: string): Promise<void> {
  const now = formatMicroTime(new Date());
  await direct().createNamespacedLease({
    namespace: env.namespace,
    body: {
      metadata: { name: node },
      spec: { holderIdentity: '', leaseDurationSeconds: 1, acquireTime: now, renewTime: now } as never,
    },
  });
}

const expired = {
  type: 'ERROR',
  object: {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message: 'too old resource version: 1 (2)',
    reason: 'Expired',
    code: 410,
  },
};

/** A 403 Status as the server sends it for an RBAC denial, `verb` on leases in the namespace. */
const forbiddenStatus = (verb: string) => ({
  kind: 'Status',
  apiVersion: 'v1',
  metadata: {},
  status: 'Failure',
  message: `leases.coordination.k8s.io is forbidden: User "observer" cannot ${verb} resource "leases" in API group "coordination.k8s.io" in the namespace "${env.namespace}"`,
  reason: 'Forbidden',
  details: { group: 'coordination.k8s.io', kind: 'leases' },
  code: 403,
});

/**
 * Passes the first list through, answers the first watch with an ERROR 410 Expired event,
 * and answers every later list with what `relisted` returns while `rewriting()` holds (the
 * real answer otherwise). Counts the lists.
 */
function expireThenAnswerLists(
  relisted: (real: unknown) => { json: unknown; status?: number },
  rewriting: () => boolean = () => true,
) {
  const counts = { lists: 0, watches: 0 };
  proxy.rewrite({
    watch: true,
    method: 'GET',
    path: leasesPath,
    answer: (served) => {
      if (served.query.get('watch') === 'true') {
        return counts.watches++ === 0 ? { text: `${JSON.stringify(expired)}\n` } : undefined;
      }
      return counts.lists++ === 0 || !rewriting() ? undefined : relisted(served.json);
    },
  });
  return counts;
}

/** Consumes an observer's watch through the proxy in the background, keeping every change. */
function watchThroughProxy() {
  const observer = new NodeLeaseObserver({
    kubeConfig: proxy.kubeConfig,
    namespace: env.namespace,
    timing: fastTiming,
  });
  const changes = observer.watch({ timeoutSeconds: 1 });
  const seen: LeaseChange[] = [];
  const outcome = (async (): Promise<{ error?: unknown }> => {
    try {
      for await (const change of changes) seen.push(change);
      return {};
    } catch (error) {
      return { error };
    }
  })();
  return {
    about: (node: string) => seen.filter((change) => change.leaseName === node),
    /** How the watch ended, or `still watching` when it has not within `ms`. */
    ended: (ms = 15_000) => Promise.race([outcome, sleep(ms).then(() => 'still watching' as const)]),
    stop: async () => {
      await changes.return?.();
      await outcome;
    },
  };
}

/** The real LeaseList with its first item's holder made a number. */
function withNumericHolder(real: unknown): unknown {
  const list = real as { items: Array<{ spec?: Record<string, unknown> }> };
  const [first, ...rest] = list.items;
  return { ...list, items: [{ ...first, spec: { ...first?.spec, holderIdentity: 7 } }, ...rest] };
}

describe.skipIf(noControlPlane())('watch(): a list made after an ERROR event', () => {
  beforeAll(async () => {
    proxy = await startAnswerProxy(env.kubeConfig);
  });
  afterAll(() => proxy.close());
  beforeEach(() => proxy.rewrite(undefined));

  it('answered with a malformed LeaseList ends watch() with unreadable-lease naming the item', async () => {
    const node = nodeName('relist-malformed');
    await freeLease(node);
    const counts = expireThenAnswerLists((real) => ({ json: withNumericHolder(real) }));
    const watch = watchThroughProxy();
    try {
      expect(await watch.ended()).toEqual({
        error: expect.objectContaining({
          name: 'LeaseApiError',
          code: 'unreadable-lease',
          status: 200,
          path: 'items[0].spec.holderIdentity',
          message: expect.stringMatching(
            new RegExp(
              `^list leases in ${env.namespace}: the server's answer is not the LeaseList asked for: items\\[0\\]\\.spec\\.holderIdentity: expected `,
            ),
          ),
        }),
      });
      // Once: the first malformed answer ends it, nothing is retried after it.
      expect(counts.lists).toBe(2);
      // The lease from the first (real) list, and nothing made of the malformed one.
      expect(watch.about(node)).toEqual([
        expect.objectContaining({ type: 'added', inspection: expect.objectContaining({ state: 'free' }) }),
      ]);
    } finally {
      await watch.stop();
    }
  });

  it('refused 403 (an RBAC change) ends watch() with forbidden and the server message', async () => {
    const node = nodeName('relist-forbidden');
    await freeLease(node);
    const counts = expireThenAnswerLists(() => ({ json: forbiddenStatus('list'), status: 403 }));
    const watch = watchThroughProxy();
    try {
      expect(await watch.ended()).toEqual({
        error: expect.objectContaining({
          name: 'LeaseApiError',
          code: 'forbidden',
          status: 403,
          reason: 'Forbidden',
          message: `list leases in ${env.namespace}: ${forbiddenStatus('list').message} (HTTP 403)`,
        }),
      });
      expect(counts.lists).toBe(2);
      expect(watch.about(node)).toHaveLength(1);
    } finally {
      await watch.stop();
    }
  });

  it('answered 500 is retried, and the watch goes on once the server answers again', async () => {
    const node = nodeName('relist-500');
    await freeLease(node);
    let failing = true;
    const counts = expireThenAnswerLists(
      () => ({
        json: {
          kind: 'Status',
          apiVersion: 'v1',
          metadata: {},
          status: 'Failure',
          message: 'etcdserver: request timed out',
          reason: 'InternalError',
          code: 500,
        },
        status: 500,
      }),
      () => failing,
    );
    const watch = watchThroughProxy();
    try {
      expect(await eventually(() => watch.about(node).length > 0)).toBe(true);
      // Several relists answered 500, each retried: the watch is still on.
      expect(await eventually(() => counts.lists >= 4)).toBe(true);
      expect(await watch.ended(500)).toBe('still watching');
      // A change made while the lists fail: only the first list answered again can report it.
      const current = await direct().readNamespacedLease({ name: node, namespace: env.namespace });
      await direct().replaceNamespacedLease({
        name: node,
        namespace: env.namespace,
        body: { ...current, spec: { ...current.spec, holderIdentity: 'bob' } },
      });
      failing = false;
      expect(await eventually(() => watch.about(node).length > 1)).toBe(true);
      expect(watch.about(node)).toEqual([
        expect.objectContaining({ type: 'added', inspection: expect.objectContaining({ state: 'free' }) }),
        expect.objectContaining({ type: 'modified', inspection: expect.objectContaining({ holder: 'bob' }) }),
      ]);
      expect(await watch.ended(1_500)).toBe('still watching');
    } finally {
      await watch.stop();
    }
  });
});

describe.skipIf(noControlPlane())('watch(): a watch request refused', () => {
  beforeAll(async () => {
    proxy = await startAnswerProxy(env.kubeConfig);
  });
  afterAll(() => proxy.close());
  beforeEach(() => proxy.rewrite(undefined));

  it('403 ends watch() with forbidden, though every list succeeds', async () => {
    const node = nodeName('watch-forbidden');
    await freeLease(node);
    const counts = { lists: 0, watches: 0 };
    proxy.rewrite({
      watch: true,
      method: 'GET',
      path: leasesPath,
      answer: (served) => {
        if (served.query.get('watch') !== 'true') {
          counts.lists++;
          return undefined;
        }
        counts.watches++;
        return { json: forbiddenStatus('watch'), status: 403 };
      },
    });
    const watch = watchThroughProxy();
    try {
      expect(await watch.ended()).toEqual({
        error: expect.objectContaining({
          name: 'LeaseApiError',
          code: 'forbidden',
          status: 403,
          message: expect.stringMatching(new RegExp(`^watch leases in ${env.namespace}: .* \\(HTTP 403\\)$`)),
        }),
      });
      expect(counts).toEqual({ lists: 1, watches: 1 });
      expect(watch.about(node)).toHaveLength(1);
    } finally {
      await watch.stop();
    }
  });
});
