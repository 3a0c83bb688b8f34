import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import { request as httpsRequest, type RequestOptions } from 'node:https';
import { KubeConfig } from '@kubernetes/client-node';

// A real API server behind a small proxy that replaces some of its answers with what a real
// server never sends (an HTML page, `{}`, a list whose continue token comes back, another
// object), for the code under test to meet. Every request still reaches the real server (a
// write lands); only the answer is replaced. Everything else is the server's own answer.

/** One answer of the real server, and the request it answers. */
export interface ServedAnswer {
  readonly method: string;
  /** The request's path, without its query. */
  readonly path: string;
  readonly query: URLSearchParams;
  /** The real server's status. */
  readonly status: number;
  /** The answer's JSON, when it is JSON (undefined otherwise). */
  readonly json: unknown;
  /** The answer's body as text. */
  readonly text: string;
  /** How many answers the rule matched before this one (since it was set). */
  readonly count: number;
}

/**
 * What the proxy sends instead: a JSON value or raw text, as `contentType` (default
 * `application/json`) with `status` (default 200: an answer that looks like a success).
 */
export type AnswerReplacement = (
  | { readonly json: unknown; readonly text?: never }
  | { readonly text: string; readonly json?: never }
) & {
  readonly contentType?: string;
  readonly status?: number;
};

/**
 * Which answers to replace, and with what. Every filter given must hold for an answer to
 * match (none given: every answer but watches matches); `answer` gets each matching answer
 * and returns its replacement, or undefined to pass it through.
 */
export interface AnswerRule {
  /** Only requests with this method (`GET`, …), or one of these. */
  readonly method?: string | readonly string[];
  /** Only requests whose path (without query) is this string, or matches this pattern. */
  readonly path?: string | RegExp;
  /** Only answers with this status from the real server. */
  readonly status?: number;
  /** Only requests whose query this accepts. */
  readonly query?: (query: URLSearchParams) => boolean;
  /** Watches too (default false: a watch is streamed through untouched). */
  readonly watch?: boolean;
  readonly answer: (served: ServedAnswer) => AnswerReplacement | undefined;
}

/** A running answer proxy. */
export interface AnswerProxy {
  /** A kubeConfig for the proxy (plain HTTP on loopback, no credentials: the proxy has them). */
  readonly kubeConfig: KubeConfig;
  /** The proxy's URL, `http://127.0.0.1:PORT`. */
  readonly url: string;
  /** How many answers the rule matched, and how many it rewrote, since the last `rewrite`. */
  readonly state: { readonly matched: number; readonly rewrites: number };
  /** Replaces answers by `rule` from now on (undefined: passes everything through); resets `state`. */
  rewrite(rule: AnswerRule | undefined): void;
  close(): Promise<void>;
}

const matches = (rule: AnswerRule, method: string, url: URL, status: number): boolean => {
  if (rule.method !== undefined) {
    const methods: readonly string[] = typeof rule.method === 'string' ? [rule.method] : rule.method;
    if (!methods.includes(method)) return false;
  }
  if (typeof rule.path === 'string' && url.pathname !== rule.path) return false;
  if (rule.path instanceof RegExp && !rule.path.test(url.pathname)) return false;
  if (rule.status !== undefined && status !== rule.status) return false;
  if (rule.watch !== true && url.searchParams.has('watch')) return false;
  if (rule.query !== undefined && !rule.query(url.searchParams)) return false;
  return true;
};

/**
 * Starts an HTTP proxy on loopback in front of `upstream`'s current cluster (with its
 * credentials) whose answers `rewrite` replaces.
 */
export async function startAnswerProxy(upstream: KubeConfig): Promise<AnswerProxy> {
  const cluster = upstream.getCurrentCluster();
  if (cluster === null) throw new Error('no current cluster');
  const target = new URL(cluster.server);
  const tls: RequestOptions = {};
  await upstream.applyToHTTPSOptions(tls);
  let rule: AnswerRule | undefined;
  const state = { matched: 0, rewrites: 0 };
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', target);
    const method = req.method ?? 'GET';
    const headers: Record<string, string | string[] | undefined> = {
      ...(tls.headers as Record<string, string> | undefined),
      ...req.headers,
      host: target.host,
    };
    // (the answer is read as text: not compressed)
    delete headers['accept-encoding'];
    const up = httpsRequest(
      {
        ...tls,
        hostname: target.hostname,
        port: target.port,
        path: url.pathname + url.search,
        method,
        headers,
      },
      (answer) => {
        const status = answer.statusCode ?? 502;
        const current = rule;
        if (current === undefined || !matches(current, method, url, status)) {
          res.writeHead(status, answer.headers);
          answer.pipe(res);
          return;
        }
        const chunks: Buffer[] = [];
        answer.on('data', (chunk: Buffer) => chunks.push(chunk));
        answer.on('end', () => {
          let body = Buffer.concat(chunks);
          let outStatus = status;
          const out: Record<string, string | string[] | undefined> = { ...answer.headers };
          delete out['content-length'];
          delete out['transfer-encoding'];
          // (a rule set since the request came in sees its own answers only)
          if (current === rule) {
            const text = body.toString('utf8');
            let json: unknown;
            try {
              json = JSON.parse(text);
            } catch {
              json = undefined;
            }
            const replacement = current.answer({
              method,
              path: url.pathname,
              query: url.searchParams,
              status,
              json,
              text,
              count: state.matched++,
            });
            if (replacement !== undefined) {
              state.rewrites++;
              outStatus = replacement.status ?? 200;
              body = Buffer.from(
                replacement.text !== undefined ? replacement.text : JSON.stringify(replacement.json),
              );
              out['content-type'] = replacement.contentType ?? 'application/json';
            }
          }
          res.writeHead(outStatus, { ...out, 'content-length': String(body.length) });
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
  const url = `http://127.0.0.1:${port}`;
  const kubeConfig = new KubeConfig();
  kubeConfig.loadFromOptions({
    // (client-node sends plain HTTP only with skipTLSVerify: there is no TLS to verify)
    clusters: [{ name: 'proxy', server: url, skipTLSVerify: true }],
    users: [{ name: 'proxy' }],
    contexts: [{ name: 'proxy', cluster: 'proxy', user: 'proxy' }],
    currentContext: 'proxy',
  });
  return {
    kubeConfig,
    url,
    state,
    rewrite(next) {
      rule = next;
      state.matched = 0;
      state.rewrites = 0;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        // (client-node keeps its connection alive)
        server.closeAllConnections();
      }),
  };
}
