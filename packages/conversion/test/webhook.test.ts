import { Agent, request } from 'node:https';
import { createCertificateAuthority } from '@capi-kit/envtest/pki';
import * as E from 'fp-ts/lib/Either.js';
import { describe, expect, it } from 'vitest';
import { CONVERSION_DATA_ANNOTATION } from '../src/index.js';
import {
  handleConversionReview,
  type ServeConversionWebhookOptions,
  serveConversionWebhook,
} from '../src/webhook.js';

const machine = (name: string, extra: Record<string, unknown> = {}) => ({
  apiVersion: 'cluster.x-k8s.io/v1alpha3',
  kind: 'Machine',
  metadata: { name, namespace: 'default', uid: `uid-${name}` },
  spec: {
    clusterName: 'c1',
    bootstrap: { data: 'IyEvYmluL3No' },
    infrastructureRef: {
      apiVersion: 'infrastructure.cluster.x-k8s.io/v1alpha3',
      kind: 'DockerMachine',
      name,
    },
    ...extra,
  },
});

const review = (objects: readonly unknown[], desiredAPIVersion: string, uid = 'abc-123') => ({
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'ConversionReview',
  request: { uid, desiredAPIVersion, objects },
});

/** `{a: {a: … {}}}`, `depth` levels (built without recursion). */
function nested(depth: number): Record<string, unknown> {
  let value: Record<string, unknown> = {};
  for (let i = 0; i < depth; i++) value = { a: value };
  return value;
}

describe('handleConversionReview', () => {
  it('echoes the uid and converts every object, in order', () => {
    const out = handleConversionReview(
      review([machine('a'), machine('b'), machine('c')], 'cluster.x-k8s.io/v1alpha4'),
    );
    expect(out.apiVersion).toBe('apiextensions.k8s.io/v1');
    expect(out.kind).toBe('ConversionReview');
    expect(out.response.uid).toBe('abc-123');
    expect(out.response.result).toEqual({ status: 'Success' });
    expect(out.response.convertedObjects.map((o) => (o.metadata as { name: string }).name)).toEqual([
      'a',
      'b',
      'c',
    ]);
    for (const o of out.response.convertedObjects) {
      expect(o.apiVersion).toBe('cluster.x-k8s.io/v1alpha4');
      // v1alpha4 has no bootstrap.data: gone from spec, kept in the stash
      expect((o.spec as { bootstrap?: Record<string, unknown> }).bootstrap?.data).toBeUndefined();
      expect(
        (o.metadata as { annotations: Record<string, string> }).annotations[CONVERSION_DATA_ANNOTATION],
      ).toContain('IyEvYmluL3No');
    }
  });

  it('round-trips through the stored version unchanged', () => {
    const original = machine('a', { failureDomain: 'fd-1' });
    const stored = handleConversionReview(review([original], 'cluster.x-k8s.io/v1beta2')).response
      .convertedObjects;
    const served = handleConversionReview(review(stored, 'cluster.x-k8s.io/v1alpha3')).response
      .convertedObjects;
    expect(served).toStrictEqual([original]);
  });

  it('fails the whole review, naming the object, when one object cannot be converted', () => {
    const mhc = {
      apiVersion: 'cluster.x-k8s.io/v1alpha3',
      kind: 'MachineHealthCheck',
      metadata: { name: 'h' },
      spec: {},
    };
    const out = handleConversionReview(review([machine('a'), mhc], 'cluster.x-k8s.io/v1alpha2'));
    expect(out.response.uid).toBe('abc-123');
    expect(out.response.result.status).toBe('Failure');
    expect(out.response.convertedObjects).toEqual([]);
    expect((out.response.result as { message: string }).message).toMatch(
      /objects\[1\] \(MachineHealthCheck h\).*v1alpha2/,
    );
  });

  it('refuses a hostile stash with a Failure, not an exception', () => {
    const stored = handleConversionReview(review([machine('a')], 'cluster.x-k8s.io/v1alpha4')).response
      .convertedObjects[0]!;
    const annotations = (stored.metadata as { annotations: Record<string, string> }).annotations;
    annotations[CONVERSION_DATA_ANNOTATION] = JSON.stringify({
      restores: 'cluster.x-k8s.io/v1alpha3',
      patch: [{ p: ['metadata', 'name'], v: 'evil' }],
    });
    const out = handleConversionReview(review([stored], 'cluster.x-k8s.io/v1alpha3'));
    expect(out.response.result.status).toBe('Failure');
    expect((out.response.result as { message: string }).message).toMatch(/metadata\.name/);
  });

  it.each([
    [undefined, ''],
    [{}, ''],
    [{ request: { desiredAPIVersion: 'cluster.x-k8s.io/v1beta2', objects: [] } }, ''],
    [{ request: { uid: 'u', objects: [] } }, 'u'],
    [{ request: { uid: 'u', desiredAPIVersion: 'cluster.x-k8s.io/v1beta2', objects: {} } }, 'u'],
    [{ request: { uid: 'u', desiredAPIVersion: 'cluster.x-k8s.io/v1beta2', objects: [7] } }, 'u'],
    [{ request: { uid: 'u', desiredAPIVersion: 'example.com/v9', objects: [machine('a')] } }, 'u'],
    [
      {
        request: {
          uid: 'u',
          desiredAPIVersion: 'cluster.x-k8s.io/v1beta2',
          objects: [{ apiVersion: 'v1', kind: 'Pod' }],
        },
      },
      'u',
    ],
    [{ kind: 'ConversionReview', request: { uid: 'u', desiredAPIVersion: 'cluster.x-k8s.io/v1beta2' } }, 'u'],
    [
      {
        apiVersion: 'apiextensions.k8s.io/v1',
        kind: 'Pod',
        request: { uid: 'u', desiredAPIVersion: 'cluster.x-k8s.io/v1beta2', objects: [machine('a')] },
      },
      'u',
    ],
    [
      {
        apiVersion: 'apiextensions.k8s.io/v1beta1',
        kind: 'ConversionReview',
        request: { uid: 'u', desiredAPIVersion: 'cluster.x-k8s.io/v1beta2', objects: [] },
      },
      'u',
    ],
    [review([], 'cluster.x-k8s.io/v9', 'u'), 'u'],
    [
      {
        ...review([], 'cluster.x-k8s.io/v9', 'u'),
        request: { uid: 'u', desiredAPIVersion: 'x/v9', objects: null },
      },
      'u',
    ],
  ])('a malformed review %j gets a Failure', (input, uid) => {
    const out = handleConversionReview(input);
    expect(out.response.uid).toBe(uid);
    expect(out.response.result.status).toBe('Failure');
  });

  it('fails an object too deep to convert, naming it, instead of throwing', () => {
    const out = handleConversionReview(
      review([machine('a'), machine('b', { x: nested(50_000) })], 'cluster.x-k8s.io/v1beta2'),
    );
    expect(out.response.result).toEqual({
      status: 'Failure',
      message:
        'objects[1] (Machine default/b): spec.x.a.a.a.a.a.a…: nests 50002 levels deep, too deep to convert',
    });
  });

  it('names a review field of the wrong type by its type: a list 10,000 deep overflowed the stack', () => {
    const deep = JSON.parse(`${'['.repeat(10_000)}${']'.repeat(10_000)}`) as unknown;
    const failure = (r: unknown) => handleConversionReview(r).response.result;
    expect(failure({ ...review([], 'cluster.x-k8s.io/v1beta2'), apiVersion: deep })).toEqual({
      status: 'Failure',
      message: 'ConversionReview a list is not supported (only apiextensions.k8s.io/v1)',
    });
    expect(failure({ ...review([], 'cluster.x-k8s.io/v1beta2'), kind: deep })).toEqual({
      status: 'Failure',
      message: 'kind is a list, not ConversionReview',
    });
    expect(failure(review([{ ...machine('k'), kind: deep }], 'cluster.x-k8s.io/v1beta2'))).toMatchObject({
      status: 'Failure',
      message: expect.stringMatching(/^objects\[0\] \(\(kind a list\) default\/k\): /),
    });
    expect(failure({ ...review([], 'cluster.x-k8s.io/v1beta2'), apiVersion: 'x'.repeat(500) })).toEqual({
      status: 'Failure',
      message: `ConversionReview "${'x'.repeat(100)}…" is not supported (only apiextensions.k8s.io/v1)`,
    });
  });

  it('takes an operator’s own converter', () => {
    const out = handleConversionReview(
      review([{ apiVersion: 'example.com/v1', kind: 'W', spec: { color: 'red' } }], 'example.com/v2'),
      {
        convert: (o, desired) =>
          E.right({ ...o, apiVersion: desired, spec: { paint: (o.spec as { color: string }).color } }),
      },
    );
    expect(out.response.convertedObjects).toEqual([
      { apiVersion: 'example.com/v2', kind: 'W', spec: { paint: 'red' } },
    ]);
  });
});

/** A webhook server on a free port of 127.0.0.1, with a certificate from a fresh CA. */
async function served(options: Partial<ServeConversionWebhookOptions> = {}) {
  const ca = await createCertificateAuthority('chain-test-ca');
  const serving = await ca.issueServerCertificate(['127.0.0.1', 'localhost']);
  const server = await serveConversionWebhook({
    cert: serving.certPem,
    key: serving.keyPem,
    port: 0,
    ...options,
  });
  return { ca, server };
}

/** One HTTPS request to a webhook server trusting `caPem`: its status and body. */
function post(
  server: { port: number },
  caPem: string,
  path: string,
  body: string,
  method = 'POST',
  type = 'application/json',
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port: server.port, path, method, ca: caPem, headers: { 'Content-Type': type } },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => {
          text += c;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

describe('serveConversionWebhook', () => {
  it('serves ConversionReviews over HTTPS and refuses other requests', async () => {
    const { ca, server } = await served();
    try {
      const send = (path: string, body: string, method?: string, type?: string) =>
        post(server, ca.certPem, path, body, method, type);
      const ok = await send(
        '/convert?timeout=30s',
        JSON.stringify(review([machine('a')], 'cluster.x-k8s.io/v1beta1')),
      );
      expect(ok.status).toBe(200);
      const reply = JSON.parse(ok.body);
      expect(reply.response.uid).toBe('abc-123');
      expect(reply.response.convertedObjects[0].apiVersion).toBe('cluster.x-k8s.io/v1beta1');
      expect((await send('/other', '{}')).status).toBe(404);
      // (a target that is no URL: parsing it threw in the handler and ended the process)
      for (const target of ['//', '////', '//x?y'])
        expect(await send(target, '{}'), target).toEqual({
          status: 404,
          body: JSON.stringify({ error: `no webhook at ${JSON.stringify(target.split('?')[0])}` }),
        });
      expect((await send('/convert', '', 'GET')).status).toBe(405);
      expect((await send('/convert', '{nope')).status).toBe(400);
      // A review too deep to convert is that review's Failure; the server goes on serving.
      // (its text is built as text: JSON.stringify itself cannot write 50,000 levels)
      const x = `${'{"a":'.repeat(50_000)}{}${'}'.repeat(50_000)}`;
      const text = JSON.stringify(review([machine('d', { x: 'X' })], 'cluster.x-k8s.io/v1beta2'));
      const deep = await send('/convert', text.replace('"X"', x));
      expect(deep.status).toBe(200);
      expect(JSON.parse(deep.body).response.result.message).toMatch(/too deep to convert/);
      const plain = await send(
        '/convert',
        JSON.stringify(review([], 'cluster.x-k8s.io/v1beta1')),
        'POST',
        'text/plain',
      );
      expect(plain).toEqual({
        status: 415,
        body: JSON.stringify({ error: 'Content-Type must be application/json, not "text/plain"' }),
      });
      expect((await send('/convert', '{}', 'POST', 'application/json; charset=utf-8')).status).toBe(200);
      expect(server.url).toBe(`https://127.0.0.1:${server.port}/convert`);
    } finally {
      await server.close();
    }
  });

  it('answers a body over the limit with 413 and Connection: close; the next review gets through', async () => {
    // (the 413 said keep-alive and then reset the connection: a keep-alive client, as the API
    // server's is, sent its next review into the reset)
    const { ca, server } = await served({ maxBodyBytes: 1024 * 1024 });
    const agent = new Agent({ keepAlive: true, maxSockets: 1, ca: ca.certPem });
    const send = (body: string) =>
      new Promise<{ status: number; connection: string | undefined }>((resolve, reject) => {
        const req = request(
          server.url,
          { method: 'POST', agent, headers: { 'Content-Type': 'application/json' } },
          (res) => {
            res.resume();
            res.on('end', () => resolve({ status: res.statusCode ?? 0, connection: res.headers.connection }));
          },
        );
        req.on('error', reject);
        req.end(body);
      });
    try {
      expect(await send('x'.repeat(2 * 1024 * 1024))).toEqual({ status: 413, connection: 'close' });
      const next = JSON.stringify(review([], 'cluster.x-k8s.io/v1beta1'));
      expect(await send(next)).toMatchObject({ status: 200 });
      expect(await send(next)).toMatchObject({ status: 200 });
    } finally {
      agent.destroy();
      await server.close();
    }
  });

  it('reads the rest of a body over the limit before its 413, so no reset overtakes the answer', async () => {
    // (it answered at the first chunk over the limit and closed with the rest unread: the
    // close reset the connection, and a loaded client saw ECONNRESET instead of the 413)
    const { ca, server } = await served({ maxBodyBytes: 1024 });
    let ended = false;
    try {
      const answer = new Promise<{ status: number; afterEnd: boolean }>((resolve, reject) => {
        const req = request(
          server.url,
          { method: 'POST', ca: ca.certPem, headers: { 'Content-Type': 'application/json' } },
          (res) => {
            res.resume();
            res.on('end', () => resolve({ status: res.statusCode ?? 0, afterEnd: ended }));
          },
        );
        req.on('error', reject);
        req.write('x'.repeat(4096));
        setTimeout(() => {
          ended = true;
          req.end('x'.repeat(4096));
        }, 300);
      });
      expect(await answer).toEqual({ status: 413, afterEnd: true });
    } finally {
      await server.close();
    }
  });

  it('answers 500 when a conversion throws, and goes on serving', async () => {
    const { ca, server } = await served({
      convert: (o) => {
        if (o.kind === 'Bad') throw new Error('the operator’s converter broke');
        return E.right({ ...o, apiVersion: 'example.com/v2' });
      },
    });
    try {
      const bad = review([{ apiVersion: 'example.com/v1', kind: 'Bad' }], 'example.com/v2');
      expect(await post(server, ca.certPem, '/convert', JSON.stringify(bad))).toEqual({
        status: 500,
        body: JSON.stringify({ error: 'conversion failed: the operator’s converter broke' }),
      });
      const good = review([{ apiVersion: 'example.com/v1', kind: 'Good' }], 'example.com/v2');
      const ok = await post(server, ca.certPem, '/convert', JSON.stringify(good));
      expect(ok.status).toBe(200);
      expect(JSON.parse(ok.body).response.convertedObjects).toEqual([
        { apiVersion: 'example.com/v2', kind: 'Good' },
      ]);
    } finally {
      await server.close();
    }
  });
});
