import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { jsonTypeName } from '@capi-kit/core/objects';
import * as E from 'fp-ts/lib/Either.js';
import { type ChainOptions, convertTo } from './chain/convert.js';
import { isChainVersion } from './chain/versions.js';
import { formatConversionError } from './errors.js';
import { isObject, type Json, type JsonObject } from './path.js';
import { isStackOverflow, tooDeepError } from './too-deep.js';

/**
 * `@capi-kit/conversion/webhook`: the conversion engine behind a Kubernetes CRD conversion
 * webhook. `handleConversionReview` is the whole protocol as a pure function (an
 * `apiextensions.k8s.io/v1` ConversionReview request in, its response out);
 * `serveConversionWebhook` puts it on HTTPS for a CRD's `spec.conversion.webhook`.
 */

export const CONVERSION_REVIEW_API_VERSION = 'apiextensions.k8s.io/v1';

/**
 * Converts one object to `desiredAPIVersion`. Left: why it cannot be (the message the API
 * server passes on to its client). Operators with CRDs of their own plug their tables in here.
 */
export type ObjectConverter = (object: JsonObject, desiredAPIVersion: string) => E.Either<string, JsonObject>;

export interface ConversionReviewOptions extends ChainOptions {
  /** Default: the Cluster API chain (any of v1alpha1 … v1beta2 to any other). */
  readonly convert?: ObjectConverter;
}

export interface ConversionReviewResponse {
  readonly apiVersion: typeof CONVERSION_REVIEW_API_VERSION;
  readonly kind: 'ConversionReview';
  readonly response: {
    readonly uid: string;
    readonly convertedObjects: readonly JsonObject[];
    readonly result:
      | { readonly status: 'Success' }
      | { readonly status: 'Failure'; readonly message: string };
  };
}

/**
 * The Cluster API chain as an `ObjectConverter`. The objects plug-ins generate are not kept
 * (a webhook returns one object per object), so by default private keys and credentials stay
 * in the stash (`keysInStash`): the stored v1alpha1 Cluster shows them to the same readers
 * anyway, and a way back that needed the Secrets could not find them. A stash that names
 * Secrets instead (written by `convert` or `migrate`) converts down only with `secretData`.
 */
export function chainConverter(options: ChainOptions = {}): ObjectConverter {
  const chain: ChainOptions = { keysInStash: true, ...options };
  return (object, desired) => {
    if (!isChainVersion(desired))
      return E.left(`${desired} is not a Cluster API version this webhook converts to`);
    const result = convertTo(object, desired, chain);
    if (E.isLeft(result)) {
      const { path, message } = result.left;
      return E.left(formatConversionError(path === undefined ? { message } : { path, message }));
    }
    return E.right(result.right.object);
  };
}

function failure(uid: string, message: string): ConversionReviewResponse {
  return {
    apiVersion: CONVERSION_REVIEW_API_VERSION,
    kind: 'ConversionReview',
    response: { uid, convertedObjects: [], result: { status: 'Failure', message } },
  };
}

/**
 * Answers one ConversionReview. Every object is converted, in order; if any cannot be, the
 * whole review fails (the API server then fails the request) with a message naming the
 * object. The request is untrusted input: a malformed one gets a Failure, never an exception.
 */
export function handleConversionReview(
  review: unknown,
  options: ConversionReviewOptions = {},
): ConversionReviewResponse {
  const request = isObject(review) ? review.request : undefined;
  if (!isObject(request)) return failure('', 'not a ConversionReview: request is missing');
  const uid = typeof request.uid === 'string' ? request.uid : '';
  if (uid === '') return failure('', 'request.uid is missing');
  // (`review` is an object: it has a request)
  const { apiVersion, kind } = review as JsonObject;
  if (apiVersion !== CONVERSION_REVIEW_API_VERSION) {
    return failure(
      uid,
      apiVersion === undefined
        ? `apiVersion is missing (a ConversionReview is ${CONVERSION_REVIEW_API_VERSION})`
        : `ConversionReview ${shown(apiVersion)} is not supported (only ${CONVERSION_REVIEW_API_VERSION})`,
    );
  }
  if (kind !== 'ConversionReview')
    return failure(uid, `kind is ${shown(kind ?? null)}, not ConversionReview`);
  const desired = request.desiredAPIVersion;
  if (typeof desired !== 'string' || desired === '')
    return failure(uid, 'request.desiredAPIVersion is missing');
  // The chain knows its versions: a review asking for another fails even with no objects.
  if (options.convert === undefined && !isChainVersion(desired))
    return failure(uid, `${desired} is not a Cluster API version this webhook converts to`);
  const objects = request.objects ?? [];
  if (!Array.isArray(objects)) return failure(uid, 'request.objects must be a list');
  const convert = options.convert ?? chainConverter(options);
  const converted: JsonObject[] = [];
  for (const [i, object] of objects.entries()) {
    const where = `objects[${i}]`;
    if (!isObject(object)) return failure(uid, `${where}: is not an object`);
    const label = describe(object);
    let result: E.Either<string, JsonObject>;
    try {
      result = convert(object, desired);
    } catch (error) {
      // (an operator's converter too: an object too deep for its walks fails the review)
      if (!isStackOverflow(error)) throw error;
      const { path, message } = tooDeepError(object);
      return failure(
        uid,
        `${where} (${label}): ${formatConversionError(path === undefined ? { message } : { path, message })}`,
      );
    }
    if (E.isLeft(result)) return failure(uid, `${where} (${label}): ${result.left}`);
    if (result.right.apiVersion !== desired) {
      return failure(uid, `${where} (${label}): cannot convert ${shown(object.apiVersion)} to ${desired}`);
    }
    converted.push(result.right);
  }
  return {
    apiVersion: CONVERSION_REVIEW_API_VERSION,
    kind: 'ConversionReview',
    response: { uid, convertedObjects: converted, result: { status: 'Success' } },
  };
}

function describe(object: JsonObject): string {
  const metadata = isObject(object.metadata) ? object.metadata : {};
  const name = typeof metadata.name === 'string' ? metadata.name : '(unnamed)';
  const ns = typeof metadata.namespace === 'string' ? `${metadata.namespace}/` : '';
  const kind = typeof object.kind === 'string' ? object.kind : `(kind ${shown(object.kind)})`;
  return `${kind} ${ns}${name}`;
}

/**
 * A value from the review, for a message: text quoted and cut to 100 characters, a number,
 * boolean or null as written, anything else by its type (`a list`). Never the value itself: a list
 * nested 10,000 deep overflowed the stack of `JSON.stringify` and `String`.
 */
function shown(value: unknown): string {
  if (typeof value === 'string')
    return JSON.stringify(value.length > 100 ? `${value.slice(0, 100)}…` : value);
  if (value === null || typeof value === 'number' || typeof value === 'boolean') return String(value);
  return jsonTypeName(value);
}

export interface ServeConversionWebhookOptions extends ConversionReviewOptions {
  /** PEM serving certificate (its CA goes into the CRD's `clientConfig.caBundle`). */
  readonly cert: string | Buffer;
  readonly key: string | Buffer;
  /** 0 picks a free port (see the returned `port`). */
  readonly port: number;
  /** Default `127.0.0.1`; `0.0.0.0` (or `::`) to serve a cluster from a pod. */
  readonly host?: string;
  /** URL path the CRD's clientConfig calls; default `/convert`. */
  readonly path?: string;
  /** Largest request body accepted, in bytes; default 32 MiB. */
  readonly maxBodyBytes?: number;
}

export interface ConversionWebhookServer {
  readonly server: Server;
  readonly port: number;
  /** `https://host:port/path`. */
  readonly url: string;
  close(): Promise<void>;
}

/** How long the rest of a body over the limit is read (and dropped) before the 413 goes out. */
const DRAIN_MS = 10_000;

/**
 * Serves `handleConversionReview` over HTTPS (node:https). POSTs to `path` with a JSON
 * ConversionReview get its response; anything else gets 404, 405, 415 (not JSON by its
 * Content-Type), 400 (not JSON by its body) or 413 (after the rest of the body, then the
 * connection closed); a request whose conversion throws gets 500, and the server goes on
 * serving.
 */
export async function serveConversionWebhook(
  options: ServeConversionWebhookOptions,
): Promise<ConversionWebhookServer> {
  const path = options.path ?? '/convert';
  const host = options.host ?? '127.0.0.1';
  const limit = options.maxBodyBytes ?? 32 * 1024 * 1024;
  const handle = (req: IncomingMessage, res: ServerResponse) => {
    const send = (
      status: number,
      body: Json | ConversionReviewResponse,
      headers: OutgoingHttpHeaders = {},
    ) => {
      res.writeHead(status, { 'Content-Type': 'application/json', ...headers }).end(JSON.stringify(body));
    };
    // The request target as sent, up to its query (the API server adds `?timeout=30s`). Not
    // `new URL(target, base)`: a target such as `//` is no URL, and its TypeError, thrown
    // in this handler, ended the process.
    const target = req.url ?? '/';
    const query = target.indexOf('?');
    const pathname = query === -1 ? target : target.slice(0, query);
    if (pathname !== path) return send(404, { error: `no webhook at ${shown(pathname)}` });
    if (req.method !== 'POST') return send(405, { error: 'POST a ConversionReview' });
    // The API server sends JSON; a body of any other type is not a review it sent.
    const type = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
    if (type !== 'application/json') {
      return send(415, { error: `Content-Type must be application/json, not ${JSON.stringify(type)}` });
    }
    const chunks: Buffer[] = [];
    let size = 0;
    let drain: NodeJS.Timeout | undefined;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (drain !== undefined) return;
      if (size <= limit) {
        chunks.push(chunk);
        return;
      }
      // The 413 waits for the end of the body, which is read and dropped. Answering at once
      // and closing then reset the connection with the rest unread, and the reset could
      // overtake the answer: the client saw ECONNRESET, not 413. A client still sending
      // after DRAIN_MS is cut off.
      chunks.length = 0;
      drain = setTimeout(() => req.destroy(), DRAIN_MS);
    });
    req.on('close', () => clearTimeout(drain));
    req.on('end', () => {
      if (drain !== undefined) {
        // (the connection cannot carry another request: a client told to keep it would
        // send its next review into the close)
        return send(413, { error: `request body over ${limit} bytes` }, { Connection: 'close' });
      }
      let review: unknown;
      try {
        review = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        return send(400, { error: 'request body is not JSON' });
      }
      // One request must never take the server down: whatever escapes (a defect, an
      // operator's converter throwing) is that request's 500, and the server keeps serving.
      let body: string;
      try {
        body = JSON.stringify(handleConversionReview(review, options));
      } catch (error) {
        return send(500, {
          error: `conversion failed: ${error instanceof Error ? error.message : String(error)}`,
        });
      }
      res.writeHead(200, { 'Content-Type': 'application/json' }).end(body);
    });
  };
  const server = createServer({ cert: options.cert, key: options.key }, (req, res) => {
    // One request must never take the server down, whatever it holds.
    try {
      handle(req, res);
    } catch (error) {
      if (!res.headersSent) {
        const message = error instanceof Error ? error.message : String(error);
        res.writeHead(500, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify({ error: `request failed: ${message}` }));
      } else res.destroy();
    }
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  const shownHost = host.includes(':') ? `[${host}]` : host;
  return {
    server,
    port,
    url: `https://${shownHost}:${port}${path}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
