import { type AnswerProxy, startAnswerProxy } from '@capi-kit/envtest/answer-proxy';
import { noControlPlane, useControlPlane } from '@capi-kit/envtest/vitest';
import * as E from 'fp-ts/lib/Either.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ClientError, connect } from '../src/index.js';
import { capiCrdDirs, unwrap, v1alpha2Machine } from './helpers/fixtures.js';

// A list page's `metadata.resourceVersion` is where a watch starts. A real API server always
// sends a string; a proxy or an impostor that sends a number or an object had it passed on as
// the list's resourceVersion, and an informer started its watch from it ("[object Object]").
// The real server answers here, through a proxy that rewrites that one field of its Machine lists.
const cp = useControlPlane();

const MACHINES = /\/apis\/cluster\.x-k8s\.io\/v1alpha2\/(namespaces\/[^/]+\/)?machines$/;

describe.skipIf(noControlPlane())('a list page whose metadata.resourceVersion is no string', () => {
  let proxy: AnswerProxy;
  /** The resourceVersion of each Machine watch sent through the proxy (null: none). */
  const watchesFrom: (string | null)[] = [];

  beforeAll(async () => {
    for (const dir of capiCrdDirs) await cp.installCRDs(dir);
    const direct = unwrap(await connect(cp.kubeConfig));
    const machines = unwrap(direct.resource('cluster.x-k8s.io/v1alpha2', 'Machine'));
    unwrap(await machines.create(v1alpha2Machine(cp.namespace, 'm-0')));
    proxy = await startAnswerProxy(cp.kubeConfig);
  });
  afterAll(async () => {
    await proxy?.close();
  });

  /** Rewrites `metadata.resourceVersion` of every Machine list page to `value` (undefined: none). */
  function rewriteResourceVersion(value: unknown) {
    proxy.rewrite({
      method: 'GET',
      path: MACHINES,
      status: 200,
      // (watches are matched so that each is seen here, at its start; they pass through untouched)
      watch: true,
      query: (query) => {
        if (query.get('watch') !== 'true') return query.has('limit');
        watchesFrom.push(query.get('resourceVersion'));
        return false;
      },
      answer: ({ json }) => {
        if (value === undefined) return undefined;
        const list = json as { metadata?: Record<string, unknown> };
        return { json: { ...list, metadata: { ...list.metadata, resourceVersion: value } } };
      },
    });
  }

  const machinesThroughProxy = async () =>
    unwrap(unwrap(await connect(proxy.kubeConfig)).resource('cluster.x-k8s.io/v1alpha2', 'Machine'));

  it('list and listRaw refuse it as malformed-list at metadata.resourceVersion', async () => {
    const machines = await machinesThroughProxy();
    for (const [value, found] of [
      [12345, 'a number'],
      [{ at: '12345' }, 'an object'],
      [['12345'], 'an array'],
    ] as const) {
      rewriteResourceVersion(value);
      for (const list of [
        () => machines.list({ namespace: cp.namespace }),
        () => machines.listRaw({ namespace: cp.namespace }, () => {}),
        () => machines.list({}), // (every namespace)
      ]) {
        const listed = await list();
        expect(E.isLeft(listed) && listed.left, found).toMatchObject({
          code: 'malformed-list',
          path: 'metadata.resourceVersion',
          message: expect.stringContaining(
            `the API server's list is malformed: metadata.resourceVersion is ${found}, not a string`,
          ),
        });
      }
    }
    // (the same list, its resourceVersion a string as the server sent it, is read)
    rewriteResourceVersion(undefined);
    const listed = unwrap(await machines.list({ namespace: cp.namespace }));
    expect(listed.items.map((m) => m.metadata?.name)).toEqual(['m-0']);
    expect(listed.resourceVersion).toMatch(/^\d+$/);
  });

  it('an informer reports it as an error and starts no watch from it; once lists are whole again it syncs', async () => {
    rewriteResourceVersion({ at: '12345' });
    watchesFrom.length = 0;
    const client = unwrap(await connect(proxy.kubeConfig));
    const informer = unwrap(
      client.informer('cluster.x-k8s.io/v1alpha2', 'Machine', {
        namespace: cp.namespace,
        backoff: { initialMs: 50, maxMs: 200 },
      }),
    );
    const errors: ClientError[] = [];
    informer.on('error', (error) => errors.push(error));
    let synced = false;
    void informer.start().then(() => {
      synced = true;
    });
    try {
      await expect.poll(() => errors.length, { timeout: 10_000 }).toBeGreaterThanOrEqual(2);
      expect(errors[0]).toMatchObject({ code: 'malformed-list', path: 'metadata.resourceVersion' });
      expect(synced).toBe(false);
      expect(watchesFrom).toEqual([]);
      rewriteResourceVersion(undefined);
      await informer.synced;
      expect(informer.list().map((m) => m.metadata?.name)).toEqual(['m-0']);
      await expect.poll(() => watchesFrom.length, { timeout: 10_000 }).toBeGreaterThan(0);
      expect(watchesFrom.every((rv) => rv !== null && /^\d+$/.test(rv))).toBe(true);
    } finally {
      informer.stop();
    }
  });
});
