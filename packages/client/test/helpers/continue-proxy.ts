import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import { request as httpsRequest, type RequestOptions } from 'node:https';
import { KubeConfig } from '@kubernetes/client-node';

// A real API server behind a small proxy that rewrites one field of its list answers,
// `metadata.continue`: what a real server never does (hand a token back), for the client's
// paging to meet. Everything else is the server's own answer.

/** What the proxy puts in `metadata.continue` of each list page that has one. */
export type Rewrite = 'none' | 'first-token' | 'a-number' | { readonly token: string };

/**
 * An HTTP proxy in front of the real API server (with the admin's credentials) that rewrites
 * `metadata.continue` of list answers by `mode`. After `maxRewrites` it passes answers through
 * unchanged, so a client that would page for ever ends (with every page it fetched) instead
 * of hanging the test. `reset(mode, only)` rewrites only the lists whose path `only` matches.
 */
export async function continueProxy(upstream: KubeConfig, maxRewrites = 40) {
  const cluster = upstream.getCurrentCluster();
  if (cluster === null) throw new Error('no current cluster');
  const target = new URL(cluster.server);
  const tls: RequestOptions = {};
  await upstream.applyToHTTPSOptions(tls);
  const state = {
    mode: 'none' as Rewrite,
    only: /./ as RegExp,
    lists: 0,
    rewrites: 0,
    first: undefined as string | undefined,
  };
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
          if (
            req.method === 'GET' &&
            url.searchParams.has('limit') &&
            state.only.test(url.pathname) &&
            answer.statusCode === 200
          ) {
            state.lists++;
            const list = JSON.parse(body.toString('utf8')) as { metadata?: { continue?: unknown } };
            const token = list.metadata?.continue;
            // (a fixed token goes on every page, the last one's too: a list that never ends)
            const rewrite =
              typeof state.mode === 'object' ||
              (typeof token === 'string' && token !== '' && state.mode !== 'none');
            if (rewrite && state.rewrites < maxRewrites) {
              state.rewrites++;
              if (typeof token === 'string') state.first ??= token;
              list.metadata = {
                ...list.metadata,
                continue:
                  typeof state.mode === 'object'
                    ? state.mode.token
                    : state.mode === 'first-token'
                      ? state.first
                      : 12345,
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
    reset(mode: Rewrite, only = /./) {
      Object.assign(state, { mode, only, lists: 0, rewrites: 0, first: undefined });
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
