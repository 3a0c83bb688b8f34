import { request } from 'node:https';
import { createCertificateAuthority } from '@capi-kit/envtest/pki';
import * as E from 'fp-ts/lib/Either.js';
import { describe, expect, it } from 'vitest';
import { CONVERSION_DATA_ANNOTATION } from '../src/index.js';
import { handleConversionReview, serveConversionWebhook } from '../src/webhook.js';

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
  ])('a malformed review %j gets a Failure', (input, uid) => {
    const out = handleConversionReview(input);
    expect(out.response.uid).toBe(uid);
    expect(out.response.result.status).toBe('Failure');
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

describe('serveConversionWebhook', () => {
  it('serves ConversionReviews over HTTPS and refuses other requests', async () => {
    const ca = await createCertificateAuthority('chain-test-ca');
    const serving = await ca.issueServerCertificate(['127.0.0.1', 'localhost']);
    const server = await serveConversionWebhook({ cert: serving.certPem, key: serving.keyPem, port: 0 });
    try {
      const post = (path: string, body: string, method = 'POST') =>
        new Promise<{ status: number; body: string }>((resolve, reject) => {
          const req = request(
            {
              host: '127.0.0.1',
              port: server.port,
              path,
              method,
              ca: ca.certPem,
              headers: { 'Content-Type': 'application/json' },
            },
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
      const ok = await post(
        '/convert?timeout=30s',
        JSON.stringify(review([machine('a')], 'cluster.x-k8s.io/v1beta1')),
      );
      expect(ok.status).toBe(200);
      const reply = JSON.parse(ok.body);
      expect(reply.response.uid).toBe('abc-123');
      expect(reply.response.convertedObjects[0].apiVersion).toBe('cluster.x-k8s.io/v1beta1');
      expect((await post('/other', '{}')).status).toBe(404);
      expect((await post('/convert', '', 'GET')).status).toBe(405);
      expect((await post('/convert', '{nope')).status).toBe(400);
      expect(server.url).toBe(`https://127.0.0.1:${server.port}/convert`);
    } finally {
      await server.close();
    }
  });
});
