import { once } from 'node:events';
import { writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { request as httpsRequest, type RequestOptions } from 'node:https';
import { KubeConfig } from '@kubernetes/client-node';

// A real API server behind a small proxy that replaces its answer to one path (the `/apis`
// discovery document, say) with what a real server never sends: an HTML page, `{}`. Every
// other answer is the server's own. The proxy carries the admin's credentials; the
// kubeconfig it writes points at plain HTTP on loopback.

export interface Replacement {
  readonly path: string;
  readonly body: string;
  readonly contentType: string;
}

export async function answerProxy(upstream: KubeConfig, kubeconfigFile: string) {
  const cluster = upstream.getCurrentCluster();
  if (cluster === null) throw new Error('no current cluster');
  const target = new URL(cluster.server);
  const tls: RequestOptions = {};
  await upstream.applyToHTTPSOptions(tls);
  let replacement: Replacement | undefined;
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', target);
    if (replacement !== undefined && req.method === 'GET' && url.pathname === replacement.path) {
      res.writeHead(200, { 'content-type': replacement.contentType });
      res.end(replacement.body);
      req.resume();
      return;
    }
    const headers = {
      ...(tls.headers as Record<string, string> | undefined),
      ...req.headers,
      host: target.host,
    };
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
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
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
  writeFileSync(kubeconfigFile, kubeConfig.exportConfig());
  return {
    /** Replaces the answer to `replacement.path` from now on (undefined: nothing). */
    replace(next: Replacement | undefined) {
      replacement = next;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
