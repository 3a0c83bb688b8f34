import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import { request as httpsRequest, type RequestOptions } from 'node:https';
import { noControlPlane, useControlPlane } from '@capi-kit/envtest/vitest';
import { KubeConfig } from '@kubernetes/client-node';
import * as E from 'fp-ts/lib/Either.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect } from '../src/index.js';
import { capiCrdDirs, unwrap, v1alpha2Machine } from './helpers/fixtures.js';

// A list is followed page by page with `metadata.continue`. A real API server never hands a
// token back twice; a misbehaving server or proxy that does made `list` fetch the same page
// for ever. The real server answers here, through a small proxy that rewrites one field of
// its list answers: `metadata.continue`.
const cp = useControlPlane();

/** What the proxy puts in `metadata.continue` of each list page that has one. */
type Rewrite = 'none' | 'first-token' | 'a-number';

/**
 * An HTTP proxy in front of the real API server (with the admin's credentials) that rewrites
 * `metadata.continue` of list answers by `mode`. After `maxRewrites` it passes answers through
 * unchanged, so a client that would page for ever ends (with every page it fetched) instead
 * of hanging the test.
 */
async function continueProxy(upstream: KubeConfig, maxRewrites = 40) {
  const cluster = upstream.getCurrentCluster();
  if (cluster === null) throw new Error('no current cluster');
  const target = new URL(cluster.server);
  const tls: RequestOptions = {};
  await upstream.applyToHTTPSOptions(tls);
  const state = { mode: 'none' as Rewrite, lists: 0, rewrites: 0, first: undefined as string | undefined };
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', target);
    const headers: Record<string, string | string[] | undefined> = {
      ...(tls.headers as Record<string, string> | undefined),
      ...req.headers,
      host: target.host,
    };
    delete headers['accept-encoding'];
    const up = httpsRequest(
      {
        ...tls,
        hostname: target.hostname,
        port: target.port,
        path: url.pathname + url.search,
        method: req.method,
        headers,
      },
      (answer) => {
        const chunks: Buffer[] = [];
        answer.on('data', (chunk: Buffer) => chunks.push(chunk));
        answer.on('end', () => {
          let body = Buffer.concat(chunks);
          if (req.method === 'GET' && url.searchParams.has('limit') && answer.statusCode === 200) {
            state.lists++;
            const list = JSON.parse(body.toString('utf8')) as { metadata?: { continue?: unknown } };
            const token = list.metadata?.continue;
            if (
              typeof token === 'string' &&
              token !== '' &&
              state.mode !== 'none' &&
              state.rewrites < maxRewrites
            ) {
              state.rewrites++;
              state.first ??= token;
              list.metadata = {
                ...list.metadata,
                continue: state.mode === 'first-token' ? state.first : 12345,
              };
              body = Buffer.from(JSON.stringify(list));
            }
          }
          const out = { ...answer.headers };
          delete out['content-length'];
          delete out['transfer-encoding'];
          res.writeHead(answer.statusCode ?? 502, { ...out, 'content-length': String(body.length) });
          res.end(body);
        });
      },
    );
    up.on('error', (error) => {
      res.writeHead(502);
      res.end(String(error));
    });
    req.pipe(up);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  const kubeConfig = new KubeConfig();
  kubeConfig.loadFromOptions({
    // (client-node sends plain HTTP only with skipTLSVerify: there is no TLS to verify)
    clusters: [{ name: 'proxy', server: `http://127.0.0.1:${port}`, skipTLSVerify: true }],
    users: [{ name: 'proxy' }],
    contexts: [{ name: 'proxy', cluster: 'proxy', user: 'proxy' }],
    currentContext: 'proxy',
  });
  return {
    kubeConfig,
    state,
    reset(mode: Rewrite) {
      Object.assign(state, { mode, lists: 0, rewrites: 0, first: undefined });
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
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
        message: expect.stringContaining('metadata.continue of page 1 is (a number), not a string'),
      });
    });
  },
);
