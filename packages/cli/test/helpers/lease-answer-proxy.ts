import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import { request as httpsRequest, type RequestOptions } from 'node:https';
import { KubeConfig } from '@kubernetes/client-node';

// A real API server behind a small proxy that rewrites its answers to Lease calls: what a
// real server never sends (an HTML page, `{}`, another object), for the client to meet.
// Every request still reaches the real server (a write lands); only the answer is replaced.
// (A copy of packages/lease/test/helpers/lease-answer-proxy.ts: tests do not import across packages.)

/** One answer of the real server to a Lease call, and the request it answers. */
export interface LeaseAnswer {
  readonly method: string;
  readonly status: number;
  /** The answer's JSON, when it is JSON. */
  readonly json: unknown;
}

/** What the proxy sends instead: a JSON value, or raw text with its content type. */
export type Replacement =
  | { readonly json: unknown }
  | { readonly text: string; readonly contentType: string };

/** How to rewrite an answer (undefined: pass it through). The proxy answers 200. */
export type Rewrite = (answer: LeaseAnswer) => Replacement | undefined;

const leasePath = /^\/apis\/coordination\.k8s\.io\/v1\/namespaces\/[^/]+\/leases(\/|$)/;

/** An HTTP proxy in front of `upstream` (with its credentials); `state.rewrite` rewrites Lease answers. */
export async function leaseAnswerProxy(upstream: KubeConfig) {
  const cluster = upstream.getCurrentCluster();
  if (cluster === null) throw new Error('no current cluster');
  const target = new URL(cluster.server);
  const tls: RequestOptions = {};
  await upstream.applyToHTTPSOptions(tls);
  const state = { rewrite: undefined as Rewrite | undefined, rewrites: 0 };
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
          let status = answer.statusCode ?? 502;
          const out: Record<string, string | string[] | undefined> = { ...answer.headers };
          delete out['content-length'];
          delete out['transfer-encoding'];
          const rewrite = state.rewrite;
          if (rewrite !== undefined && leasePath.test(url.pathname) && !url.searchParams.has('watch')) {
            let json: unknown;
            try {
              json = JSON.parse(body.toString('utf8'));
            } catch {
              json = undefined;
            }
            const replacement = rewrite({ method: req.method ?? 'GET', status, json });
            if (replacement !== undefined) {
              state.rewrites++;
              status = 200;
              if ('json' in replacement) {
                body = Buffer.from(JSON.stringify(replacement.json));
                out['content-type'] = 'application/json';
              } else {
                body = Buffer.from(replacement.text);
                out['content-type'] = replacement.contentType;
              }
            }
          }
          res.writeHead(status, { ...out, 'content-length': String(body.length) });
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
    /** Rewrites from now on with `rewrite` (undefined: pass everything through). */
    reset(rewrite?: Rewrite) {
      Object.assign(state, { rewrite, rewrites: 0 });
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        // (client-node keeps its connection alive)
        server.closeAllConnections();
      }),
  };
}
