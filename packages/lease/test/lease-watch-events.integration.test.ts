import { setTimeout as sleep } from 'node:timers/promises';
import { type AnswerProxy, startAnswerProxy } from '@capi-kit/envtest/answer-proxy';
import { noControlPlane, useControlPlane } from '@capi-kit/envtest/vitest';
import { CoordinationV1Api } from '@kubernetes/client-node';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { formatMicroTime, type LeaseChange, NodeLeaseObserver } from '../src/index.js';
import { fastTiming, nodeName } from './helpers/clients.js';
import { eventually } from './helpers/eventually.js';

/**
 * Watch events a real API server never sends, from a proxy in front of the real one: the
 * list is the server's own, the first watch stream is replaced (the proxy sends its lines once
 * the server has ended the real stream, after the 1 s `timeoutSeconds`). Each bad event must
 * end watch() with an `unreadable-lease` error naming the event's path, after the changes
 * before it: never a change reported on it, never a watch that goes quietly on.
 */
const env = useControlPlane();
const direct = () => env.kubeConfig.makeApiClient(CoordinationV1Api);
const leasesPath = /^\/apis\/coordination\.k8s\.io\/v1\/namespaces\/[^/]+\/leases$/;
let proxy: AnswerProxy;

type Lease = {
  apiVersion: string;
  kind: string;
  metadata: Record<string, unknown>;
  spec: Record<string, unknown>;
};

/** A free lease on the real server, and its JSON as the server sends it in a watch event. */
async function freeLease(node: string): Promise<Lease> {
  const now = formatMicroTime(new Date());
  const spec = { holderIdentity: '', leaseDurationSeconds: 1, acquireTime: now, renewTime: now };
  const created = await direct().createNamespacedLease({
    namespace: env.namespace,
    body: { metadata: { name: node }, spec: spec as never },
  });
  return {
    apiVersion: 'coordination.k8s.io/v1',
    kind: 'Lease',
    metadata: {
      name: node,
      namespace: env.namespace,
      uid: created.metadata?.uid,
      resourceVersion: created.metadata?.resourceVersion,
    },
    spec,
  };
}

/** Replaces the first watch stream on leases with these events, one JSON line each. */
function replaceFirstWatch(events: readonly unknown[]) {
  let watches = 0;
  proxy.rewrite({
    watch: true,
    method: 'GET',
    path: leasesPath,
    query: (query) => query.get('watch') === 'true',
    answer: () =>
      watches++ === 0 ? { text: `${events.map((event) => JSON.stringify(event)).join('\n')}\n` } : undefined,
  });
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

const unreadable = (path: string) => ({
  name: 'LeaseApiError',
  code: 'unreadable-lease',
  status: 200,
  path,
  message: expect.stringMatching(
    new RegExp(
      `^watch leases in ${env.namespace}: the server's answer is not a watch event on a Lease in the namespace: ${
        path === '' ? 'the answer' : path.replace(/[.[\]]/g, '\\$&')
      }: expected `,
    ),
  ),
});

/** Hostile events, built from the real lease: each, the path its error names. */
const eventCases: ReadonlyArray<readonly [string, (lease: Lease) => readonly unknown[], string]> = [
  [
    'a MODIFIED lease with a numeric holder',
    (l) => [{ type: 'MODIFIED', object: { ...l, spec: { ...l.spec, holderIdentity: 7 } } }],
    'object.spec.holderIdentity',
  ],
  [
    'a MODIFIED lease with a duration as text',
    (l) => [{ type: 'MODIFIED', object: { ...l, spec: { ...l.spec, leaseDurationSeconds: '15' } } }],
    'object.spec.leaseDurationSeconds',
  ],
  [
    'a MODIFIED lease without metadata',
    (l) => [{ type: 'MODIFIED', object: { ...l, metadata: undefined } }],
    'object.metadata',
  ],
  [
    'an ADDED lease of another namespace',
    (l) => [{ type: 'ADDED', object: { ...l, metadata: { ...l.metadata, namespace: 'default' } } }],
    'object.metadata.namespace',
  ],
  [
    'an ADDED object of another kind',
    (l) => [{ type: 'ADDED', object: { ...l, apiVersion: 'v1', kind: 'ConfigMap', spec: undefined } }],
    'object.kind',
  ],
  ['an ADDED null', () => [{ type: 'ADDED', object: null }], 'object'],
  [
    'a DELETED object without metadata',
    () => [{ type: 'DELETED', object: { apiVersion: 'coordination.k8s.io/v1', kind: 'Lease' } }],
    'object.metadata',
  ],
  ['an unknown event type', (l) => [{ type: 'SYNC', object: l }], 'type'],
  ['an event without a type', (l) => [{ object: l }], 'type'],
  ['an ERROR carrying a Lease instead of a Status', (l) => [{ type: 'ERROR', object: l }], 'object.kind'],
  [
    'a BOOKMARK without a resourceVersion',
    () => [
      { type: 'BOOKMARK', object: { apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: {} } },
    ],
    'object.metadata.resourceVersion',
  ],
  ['a line that is a number', () => [7], ''],
  ['a line that is an array', (l) => [[l]], ''],
];

describe.skipIf(noControlPlane())('watch events that are not events about a Lease', () => {
  beforeAll(async () => {
    proxy = await startAnswerProxy(env.kubeConfig);
  });
  afterAll(() => proxy.close());
  beforeEach(() => proxy.rewrite(undefined));

  it.each(eventCases)(
    'the watch stream carries %s: watch() fails naming the path, reports no change on it',
    async (_, events, path) => {
      const node = nodeName('event');
      const lease = await freeLease(node);
      replaceFirstWatch(events(lease));
      const watch = watchThroughProxy();
      try {
        expect(await watch.ended()).toEqual({ error: expect.objectContaining(unreadable(path)) });
        // The lease from the (real) list, and nothing made of the bad event.
        expect(watch.about(node)).toEqual([
          expect.objectContaining({ type: 'added', inspection: expect.objectContaining({ state: 'free' }) }),
        ]);
        expect(proxy.state.rewrites).toBe(1);
      } finally {
        await watch.stop();
      }
    },
  );

  it('the changes before a bad event are reported, then the error', async () => {
    const node = nodeName('before');
    const lease = await freeLease(node);
    const taken = { ...lease, spec: { ...lease.spec, holderIdentity: 'bob' } };
    replaceFirstWatch([
      { type: 'MODIFIED', object: taken },
      { type: 'MODIFIED', object: { ...lease, spec: { ...lease.spec, holderIdentity: ['alice'] } } },
      { type: 'MODIFIED', object: { ...lease, spec: { ...lease.spec, holderIdentity: 'carol' } } },
    ]);
    const watch = watchThroughProxy();
    try {
      expect(await watch.ended()).toEqual({
        error: expect.objectContaining(unreadable('object.spec.holderIdentity')),
      });
      // (carol's event came after the bad one: the watch had stopped)
      expect(watch.about(node)).toEqual([
        expect.objectContaining({ type: 'added', inspection: expect.objectContaining({ state: 'free' }) }),
        expect.objectContaining({ type: 'modified', inspection: expect.objectContaining({ holder: 'bob' }) }),
      ]);
    } finally {
      await watch.stop();
    }
  });

  // Not a check of the new rule (any ERROR event already led to a new list): that a 410
  // Status, which the event check lets through, still does, and is no error.
  it('an ERROR event with a 410 Expired Status still lists again and goes on watching', async () => {
    const node = nodeName('gone');
    await freeLease(node);
    let watches = 0;
    let lists = 0;
    proxy.rewrite({
      watch: true,
      method: 'GET',
      path: leasesPath,
      answer: (served) => {
        if (served.query.get('watch') !== 'true') {
          lists++;
          return undefined;
        }
        return watches++ === 0
          ? {
              text: `${JSON.stringify({
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
              })}\n`,
            }
          : undefined;
      },
    });
    const watch = watchThroughProxy();
    try {
      expect(await eventually(() => watch.about(node).length > 0)).toBe(true);
      // A change the replaced stream hides: only the new list can report it.
      const current = await direct().readNamespacedLease({ name: node, namespace: env.namespace });
      await direct().replaceNamespacedLease({
        name: node,
        namespace: env.namespace,
        body: { ...current, spec: { ...current.spec, holderIdentity: 'bob' } },
      });
      expect(await eventually(() => watch.about(node).length > 1)).toBe(true);
      expect(watch.about(node)).toEqual([
        expect.objectContaining({ type: 'added', inspection: expect.objectContaining({ state: 'free' }) }),
        expect.objectContaining({ type: 'modified', inspection: expect.objectContaining({ holder: 'bob' }) }),
      ]);
      expect(lists).toBeGreaterThanOrEqual(2);
      expect(await watch.ended(500)).toBe('still watching');
    } finally {
      await watch.stop();
    }
  });
});
