import { type ControlPlane, startControlPlane } from '@capi-kit/envtest';
import { startAnswerProxy } from '@capi-kit/envtest/answer-proxy';
import { noControlPlane, useControlPlane } from '@capi-kit/envtest/vitest';
import { CoreV1Api, type KubeConfig } from '@kubernetes/client-node';
import * as E from 'fp-ts/lib/Either.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CapiClient, connect, describeCluster } from '../src/index.js';
import { capiCrdDirs, unwrap, v1alpha2Machine } from './helpers/fixtures.js';

// A list is followed page by page with `metadata.continue`. A real API server never hands a
// token back twice; a misbehaving server or proxy that does made `list` fetch the same page
// for ever. The real server answers here, through a small proxy that rewrites one field of
// its list answers: `metadata.continue`.
const cp = useControlPlane();

/** What the proxy puts in `metadata.continue` of each list page that has one. */
type Rewrite = 'none' | 'first-token' | 'a-number' | { readonly token: string };

/**
 * The answer proxy, rewriting `metadata.continue` of list answers by `mode`. After `maxRewrites`
 * it passes answers through unchanged, so a client that would page for ever ends (with every page
 * it fetched) instead of hanging the test. `reset(mode, only)` rewrites only the lists whose path
 * `only` matches; `state.lists` counts the lists answered since.
 */
async function continueProxy(upstream: KubeConfig, maxRewrites = 40) {
  const proxy = await startAnswerProxy(upstream);
  const state = { lists: 0, rewrites: 0 };
  return {
    kubeConfig: proxy.kubeConfig,
    state,
    reset(mode: Rewrite, only = /./) {
      Object.assign(state, { lists: 0, rewrites: 0 });
      let first: string | undefined;
      proxy.rewrite({
        method: 'GET',
        path: only,
        status: 200,
        query: (query) => query.has('limit'),
        answer: ({ json }) => {
          state.lists++;
          const list = json as { metadata?: { continue?: unknown } };
          const token = list.metadata?.continue;
          // (a fixed token goes on every page, the last one's too: a list that never ends)
          const rewrite =
            typeof mode === 'object' || (typeof token === 'string' && token !== '' && mode !== 'none');
          if (!rewrite || state.rewrites >= maxRewrites) return undefined;
          state.rewrites++;
          if (typeof token === 'string') first ??= token;
          const next = typeof mode === 'object' ? mode.token : mode === 'first-token' ? first : 12345;
          return { json: { ...list, metadata: { ...list.metadata, continue: next } } };
        },
      });
    },
    close: proxy.close,
  };
}

describe.skipIf(noControlPlane())(
  'list follows metadata.continue, and refuses a token handed back again',
  () => {
    let proxy: Awaited<ReturnType<typeof continueProxy>>;
    const names = ['m-0', 'm-1', 'm-2'];

    beforeAll(async () => {
      for (const dir of capiCrdDirs) await cp.installCRDs(dir);
      const direct = unwrap(await connect(cp.kubeConfig));
      const machines = unwrap(direct.resource('cluster.x-k8s.io/v1alpha2', 'Machine'));
      for (const name of names) unwrap(await machines.create(v1alpha2Machine(cp.namespace, name)));
      proxy = await continueProxy(cp.kubeConfig);
    });
    afterAll(async () => {
      await proxy?.close();
    });

    const machinesThroughProxy = async () =>
      unwrap(unwrap(await connect(proxy.kubeConfig)).resource('cluster.x-k8s.io/v1alpha2', 'Machine'));

    it('through the proxy, unchanged, three pages of one Machine are followed to the end', async () => {
      const machines = await machinesThroughProxy();
      proxy.reset('none');
      const listed = unwrap(await machines.list({ namespace: cp.namespace, pageSize: 1 }));
      expect(listed.items.map((m) => m.metadata?.name).sort()).toEqual(names);
      expect(proxy.state.lists).toBe(3);
    });

    it('a continue token handed back again is malformed-list at metadata.continue, after two pages', async () => {
      const machines = await machinesThroughProxy();
      for (const list of [
        () => machines.list({ namespace: cp.namespace, pageSize: 1 }),
        () => machines.listRaw({ namespace: cp.namespace, pageSize: 1 }, () => {}),
        () => machines.list({ pageSize: 1 }), // (every namespace)
      ]) {
        proxy.reset('first-token');
        const listed = await list();
        // (without the check the same second page was fetched until the proxy gave up rewriting)
        expect(proxy.state.lists).toBe(2);
        expect(E.isLeft(listed) && listed.left).toMatchObject({
          code: 'malformed-list',
          path: 'metadata.continue',
          message: expect.stringContaining(
            "the API server's list is malformed: metadata.continue of page 2 repeats a token already followed: the list would never end",
          ),
        });
      }
    });

    it('a continue that is no string is malformed-list at metadata.continue, not sent back', async () => {
      const machines = await machinesThroughProxy();
      proxy.reset('a-number');
      const listed = await machines.list({ namespace: cp.namespace, pageSize: 1 });
      expect(proxy.state.lists).toBe(1);
      expect(E.isLeft(listed) && listed.left).toMatchObject({
        code: 'malformed-list',
        path: 'metadata.continue',
        message: expect.stringContaining('metadata.continue of page 1 is a number, not a string'),
      });
    });
  },
);

// describeCluster pages a workload cluster's Nodes itself: a cluster reached through a
// Secret's kubeconfig, or a proxy in front of it, that hands the same token back on every
// page (the last one's too) made it page for ever. A private control plane is the workload
// cluster, with three Nodes; the token is a real one of its own, for the page after the first.
describe.skipIf(noControlPlane('private-local'))(
  'describeCluster refuses a workload Node list that hands a continue token back',
  () => {
    let workload: ControlPlane;
    let proxy: Awaited<ReturnType<typeof continueProxy>>;
    let client: CapiClient;
    let token: string;

    beforeAll(async () => {
      workload = await startControlPlane({ log: () => {} });
      for (const dir of capiCrdDirs) await cp.installCRDs(dir);
      client = unwrap(await connect(cp.kubeConfig));
      const clusters = unwrap(client.resource('cluster.x-k8s.io/v1alpha2', 'Cluster'));
      unwrap(
        await clusters.create({
          apiVersion: 'cluster.x-k8s.io/v1alpha2',
          kind: 'Cluster',
          metadata: { name: 'paged', namespace: cp.namespace },
          spec: {},
        }),
      );
      const core = workload.kubeConfig.makeApiClient(CoreV1Api);
      for (const name of ['n-0', 'n-1', 'n-2']) await core.createNode({ body: { metadata: { name } } });
      token = (await core.listNode({ limit: 1 })).metadata?._continue ?? '';
      expect(token).not.toBe('');
      proxy = await continueProxy(workload.kubeConfig);
    });
    afterAll(async () => {
      await proxy?.close();
      await workload?.stop();
    });

    it('through the proxy, unchanged, the Nodes are known', async () => {
      proxy.reset('none', /^\/api\/v1\/nodes$/);
      const described = unwrap(
        await describeCluster(client, 'paged', { namespace: cp.namespace, workload: proxy.kubeConfig }),
      );
      expect(described.nodesKnown).toBe(true);
      expect([...described.nodesWithoutMachine].sort()).toEqual(['n-0', 'n-1', 'n-2']);
    });

    it('nodes unknown, naming metadata.continue, after two pages', async () => {
      proxy.reset({ token }, /^\/api\/v1\/nodes$/);
      const described = unwrap(
        await describeCluster(client, 'paged', { namespace: cp.namespace, workload: proxy.kubeConfig }),
      );
      // (without the check the second page was fetched until the proxy gave up rewriting)
      expect(proxy.state.lists).toBe(2);
      expect(described.nodesKnown).toBe(false);
      expect(described.problems.map((p) => p.message)).toContainEqual(
        expect.stringContaining(
          "the API server's list is malformed: metadata.continue of page 2 repeats a token already followed: the list would never end",
        ),
      );
    });
  },
);
