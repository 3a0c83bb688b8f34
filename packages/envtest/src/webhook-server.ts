import { createServer, type Server } from 'node:https';
import type { Socket } from 'node:net';
import { EnvtestError } from './errors.js';
import { createCertificateAuthority, loopbackHosts } from './pki.js';

// An HTTPS server on 127.0.0.1 for admission or conversion webhooks served by the test
// process itself. kube-apiserver only calls webhooks over TLS it can verify, so the server
// gets a certificate from a fresh throwaway CA whose certificate is the `caBundle` to put
// into the CRD's (or webhook configuration's) clientConfig.

/** A running webhook server. */
export interface WebhookServer {
  /** `https://127.0.0.1:<port>`; append the path your clientConfig should call. */
  readonly url: string;
  /** Base64 PEM of the CA that signed the serving certificate, for `clientConfig.caBundle`. */
  readonly caBundle: string;
  /** Every request received, in order: path (without query) and parsed JSON body. */
  readonly requests: ReadonlyArray<{ path: string; body: unknown }>;
  close(): Promise<void>;
}

/** Answers one webhook request: the JSON to send back. */
export type WebhookHandler = (path: string, body: unknown) => unknown | Promise<unknown>;

/** Starts an HTTPS JSON server on a free loopback port. */
export async function startWebhookServer(handler: WebhookHandler): Promise<WebhookServer> {
  const ca = await createCertificateAuthority('capi-kit-envtest-webhook-ca');
  const serving = await ca.issueServerCertificate(loopbackHosts);
  const requests: { path: string; body: unknown }[] = [];
  const server: Server = createServer({ cert: serving.certPem, key: serving.keyPem }, (req, res) => {
    let text = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => {
      text += chunk;
    });
    req.on('end', async () => {
      try {
        const body: unknown = text ? JSON.parse(text) : undefined;
        // kube-apiserver appends ?timeout=…; handlers care about the path.
        const path = new URL(req.url ?? '/', 'https://127.0.0.1').pathname;
        requests.push({ path, body });
        const reply = JSON.stringify(await handler(path, body));
        res.writeHead(200, { 'Content-Type': 'application/json' }).end(reply);
      } catch (error) {
        res.writeHead(500, { 'Content-Type': 'text/plain' }).end((error as Error).message);
      }
    });
  });
  // Track raw TCP sockets ourselves: `closeAllConnections()` only knows connections that
  // reached HTTP, not ones still in the TLS handshake, and kube-apiserver keeps dialling a
  // webhook, so close() could otherwise wait on a socket it never destroys.
  const sockets = new Set<Socket>();
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `https://127.0.0.1:${port}`,
    caBundle: Buffer.from(ca.certPem).toString('base64'),
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const socket of sockets) socket.destroy();
      }),
  };
}

/** A CRD conversion: one object to the desired apiVersion (kind, name, uid unchanged). */
export type ConvertObject = (
  object: Record<string, unknown>,
  desiredAPIVersion: string,
) => Record<string, unknown>;

/**
 * A handler for `apiextensions.k8s.io/v1` ConversionReview requests: converts each object
 * with `convert`, sets its apiVersion, and answers Success (or Failed with the error).
 */
export function conversionReviewHandler(convert: ConvertObject): WebhookHandler {
  return (_path, body) => {
    const review = body as {
      apiVersion?: string;
      request?: { uid: string; desiredAPIVersion: string; objects: Record<string, unknown>[] };
    };
    if (!review.request) throw new EnvtestError('invalid-request', 'not a ConversionReview request');
    const { uid, desiredAPIVersion, objects } = review.request;
    let response: Record<string, unknown>;
    try {
      const convertedObjects = objects.map((o) => ({
        ...convert(o, desiredAPIVersion),
        apiVersion: desiredAPIVersion,
      }));
      response = { uid, convertedObjects, result: { status: 'Success' } };
    } catch (error) {
      response = {
        uid,
        convertedObjects: [],
        result: { status: 'Failed', message: (error as Error).message },
      };
    }
    return { apiVersion: review.apiVersion ?? 'apiextensions.k8s.io/v1', kind: 'ConversionReview', response };
  };
}
