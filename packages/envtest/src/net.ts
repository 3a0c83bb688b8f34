import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { createServer } from 'node:net';
import { EnvtestError } from './errors.js';

/** Asks the kernel for a free TCP port on 127.0.0.1. Another process may take it before
 * we bind it, so callers retry a failed start with new ports. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** TLS material for a request to a server signed by our own CA. */
export interface ClientTls {
  caPem: string;
  certPem?: string;
  keyPem?: string;
}

/** A plain GET that never throws on HTTP status; network errors reject. */
export function get(
  url: string,
  tls?: ClientTls,
  timeoutMs = 5_000,
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const u = new URL(url);
    const options = {
      method: 'GET',
      timeout: timeoutMs,
      agent: false as const,
      ...(tls ? { ca: tls.caPem, cert: tls.certPem, key: tls.keyPem } : {}),
    };
    const req = (u.protocol === 'https:' ? httpsRequest : httpRequest)(u, options, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        body += chunk;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new EnvtestError('timeout', `timed out after ${timeoutMs} ms`)));
    req.on('error', reject);
    req.end();
  });
}

/**
 * Polls `probe` every `intervalMs` until it returns true. Rejects with the last reason
 * after `timeoutMs`, or at once when `abort` returns a reason (a process that died).
 */
export async function waitFor(
  what: string,
  probe: () => Promise<boolean | string>,
  options: { timeoutMs: number; intervalMs?: number; abort?: () => string | undefined },
): Promise<void> {
  const deadline = Date.now() + options.timeoutMs;
  let last = 'not tried';
  for (;;) {
    const aborted = options.abort?.();
    if (aborted) throw new EnvtestError('not-ready', `${what}: ${aborted}`);
    try {
      const result = await probe();
      if (result === true) return;
      last = result === false ? 'not ready' : result;
    } catch (error) {
      last = (error as Error).message;
    }
    if (Date.now() > deadline) {
      throw new EnvtestError('not-ready', `${what}: not ready after ${options.timeoutMs} ms (${last})`);
    }
    await new Promise((r) => setTimeout(r, options.intervalMs ?? 100));
  }
}
