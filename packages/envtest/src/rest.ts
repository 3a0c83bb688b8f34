import { Agent, request } from 'node:https';
import type { KubeConfig } from '@kubernetes/client-node';
import { EnvtestError } from './errors.js';

// A minimal JSON client on top of a KubeConfig's TLS settings. client-node's typed APIs
// rename fields through their model classes (CRD schemas carry keys such as
// `x-kubernetes-preserve-unknown-fields` that would be lost), so envtest sends CRDs and
// reads raw objects as plain JSON.

/** The status and decoded JSON body of an API response. */
export interface RestResponse {
  status: number;
  body: unknown;
}

/** Sends one request to the current cluster of `kc`; never throws on HTTP status. */
export async function restRequest(
  kc: KubeConfig,
  method: 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH',
  path: string,
  body?: unknown,
  options: {
    contentType?: string;
    timeoutMs?: number;
    /**
     * The agent to send with, e.g. one with `keepAlive` shared by many requests (see
     * keepAliveAgent). By default each request gets an agent of its own from the KubeConfig,
     * so each one opens a TLS connection.
     */
    agent?: Agent;
  } = {},
): Promise<RestResponse> {
  const timeoutMs = options.timeoutMs ?? 60_000;
  const cluster = kc.getCurrentCluster();
  if (!cluster) throw new EnvtestError('invalid-kubeconfig', 'kubeconfig has no current cluster');
  const url = new URL(path, cluster.server);
  const requestOptions: import('node:https').RequestOptions & { headers: Record<string, string> } = {
    method,
    headers: { Accept: 'application/json' },
  };
  await kc.applyToHTTPSOptions(requestOptions);
  if (options.agent !== undefined) requestOptions.agent = options.agent;
  const payload = body === undefined ? undefined : JSON.stringify(body);
  if (payload !== undefined)
    requestOptions.headers['Content-Type'] = options.contentType ?? 'application/json';
  return new Promise((resolve, reject) => {
    const req = request(url, requestOptions, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        text += chunk;
      });
      res.on('end', () => {
        let parsed: unknown = text;
        try {
          parsed = text ? JSON.parse(text) : undefined;
        } catch {
          // not JSON (e.g. /healthz): keep the text
        }
        resolve({ status: res.statusCode ?? 0, body: parsed });
      });
      res.on('error', reject);
    });
    // A request the server never answers becomes an error that names it, not a hang.
    req.setTimeout(timeoutMs, () =>
      req.destroy(new EnvtestError('timeout', `${method} ${path}: no answer within ${timeoutMs} ms`)),
    );
    req.on('error', reject);
    if (payload !== undefined) req.write(payload);
    req.end();
  });
}

/**
 * An agent with the TLS settings of `kc`'s current cluster and user that keeps its
 * connections open, for tests that send many requests (pass it to restRequest). Its sockets
 * stay open until `agent.destroy()`.
 */
export async function keepAliveAgent(kc: KubeConfig, maxSockets = 16): Promise<Agent> {
  const tls: import('node:https').RequestOptions = {};
  await kc.applyToHTTPSOptions(tls);
  const { ca, cert, key, rejectUnauthorized, servername } = tls;
  return new Agent({ ca, cert, key, rejectUnauthorized, servername, keepAlive: true, maxSockets });
}

/** Throws an error that names the request and the API's message unless status is 2xx. */
export function expectOk(what: string, res: RestResponse): unknown {
  if (res.status >= 200 && res.status < 300) return res.body;
  const message =
    typeof res.body === 'object' && res.body !== null && 'message' in res.body
      ? String((res.body as { message: unknown }).message)
      : JSON.stringify(res.body);
  throw new EnvtestError('api-error', `${what}: HTTP ${res.status}: ${message}`);
}
