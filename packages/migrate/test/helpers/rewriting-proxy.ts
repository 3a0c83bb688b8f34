import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import { request as httpsRequest, type RequestOptions } from 'node:https';
import { KubeConfig } from '@kubernetes/client-node';

// A real API server behind a small proxy that replaces the answers to some GET requests:
// what a real server never sends (an HTML page, `{}`, a discovery document with wrong
// types, a list whose continue token comes back), for the migration to meet. Everything
// else is the server's own answer.

/** A replacement answer: the body, sent as `contentType` with status 200. */
export interface Answer {
  readonly body: string;
  readonly contentType?: string;
}

/**
 * What to replace: GET requests whose path matches `path`, answered 200 by the server. `answer`
 * gets the server's body (parsed JSON) and how many such answers came before this one; it
 * returns the replacement, or undefined to pass the server's answer through.
 */
export interface Rewrite {
  readonly path: RegExp;
  readonly answer: (served: unknown, count: number) => Answer | undefined;
}

/** An HTTP proxy in front of the real API server (with the admin's credentials). */
export async function rewritingProxy(upstream: KubeConfig) {
  const cluster = upstream.getCurrentCluster();
  if (cluster === null) throw new Error('no current cluster');
  const target = new URL(cluster.server);
  const tls: RequestOptions = {};
  await upstream.applyToHTTPSOptions(tls);
  const state = { rewrite: undefined as Rewrite | undefined, count: 0 };
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
          const out = { ...answer.headers };
          delete out['content-length'];
          delete out['transfer-encoding'];
          const rewrite = state.rewrite;
          if (
            rewrite !== undefined &&
            req.method === 'GET' &&
            answer.statusCode === 200 &&
            rewrite.path.test(url.pathname)
          ) {
            const text = body.toString('utf8');
            let served: unknown = text;
            try {
              served = JSON.parse(text);
            } catch {
              // (not JSON: the text as it is)
            }
            const replaced = rewrite.answer(served, state.count++);
            if (replaced !== undefined) {
              body = Buffer.from(replaced.body);
              out['content-type'] = replaced.contentType ?? 'application/json';
            }
          }
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
    /** Replaces what `rewrite` says from now on (undefined: nothing). */
    rewrite(rewrite: Rewrite | undefined) {
      Object.assign(state, { rewrite, count: 0 });
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
