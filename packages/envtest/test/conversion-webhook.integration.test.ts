import { CustomObjectsApi } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  conversionReviewHandler,
  restRequest,
  startWebhookServer,
  type WebhookServer,
} from '../src/index.js';
import { noControlPlane, useControlPlane } from '../src/vitest/index.js';

// A CRD with two versions of one kind; the apiserver converts between them by calling a
// webhook that this test process serves over HTTPS on loopback. v1 says `color` (a
// string), v2 says `paint: {name}`; v1 is the storage version.
const cp = useControlPlane();

// Names the step that did not finish, should the apiserver or the webhook ever stall.
function step<T>(label: string, promise: Promise<T>, ms = 30_000): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${label}: no result within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
const group = 'paint.envtest.capi-kit.dev';
const plural = 'widgets';

type Widget = Record<string, unknown> & { spec?: Record<string, unknown> };

function convert(object: Widget, desired: string): Widget {
  const from = String(object.apiVersion);
  if (from === desired) return object;
  const spec = { ...(object.spec ?? {}) };
  if (desired === `${group}/v2`) {
    spec.paint = { name: spec.color };
    delete spec.color;
  } else {
    spec.color = (spec.paint as { name?: string } | undefined)?.name;
    delete spec.paint;
  }
  return { ...object, spec };
}

const schema = (specProperties: Record<string, unknown>) => ({
  openAPIV3Schema: {
    type: 'object',
    properties: { spec: { type: 'object', properties: specProperties } },
  },
});

describe.skipIf(noControlPlane())('CRD conversion webhook served by the test process', () => {
  let webhook: WebhookServer;
  beforeAll(async () => {
    webhook = await startWebhookServer(
      conversionReviewHandler((o, desired) => convert(o as Widget, desired)),
    );
    await cp.installCRDs({
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      metadata: { name: `${plural}.${group}` },
      spec: {
        group,
        scope: 'Namespaced',
        names: { kind: 'Widget', plural, singular: 'widget', listKind: 'WidgetList' },
        versions: [
          { name: 'v1', served: true, storage: true, schema: schema({ color: { type: 'string' } }) },
          {
            name: 'v2',
            served: true,
            storage: false,
            schema: schema({ paint: { type: 'object', properties: { name: { type: 'string' } } } }),
          },
        ],
        conversion: {
          strategy: 'Webhook',
          webhook: {
            conversionReviewVersions: ['v1'],
            clientConfig: { url: `${webhook.url}/convert`, caBundle: webhook.caBundle },
          },
        },
      },
    });
  });
  afterAll(async () => {
    await webhook?.close();
  });

  /** Creates the Widget `name` written at `version`. */
  async function createWidget(version: string, name: string, spec: object): Promise<void> {
    const api = cp.kubeConfig.makeApiClient(CustomObjectsApi);
    await api.createNamespacedCustomObject({
      group,
      version,
      namespace: cp.namespace,
      plural,
      body: { apiVersion: `${group}/${version}`, kind: 'Widget', metadata: { name }, spec },
    });
  }

  /** The Widget `name` read at `version` (the API server converts through the webhook when needed). */
  async function readWidget(version: string, name: string): Promise<Widget> {
    const api = cp.kubeConfig.makeApiClient(CustomObjectsApi);
    return (await api.getNamespacedCustomObject({
      group,
      version,
      namespace: cp.namespace,
      plural,
      name,
    })) as Widget;
  }

  it('reads an object stored at v1 as v2 through the webhook', async () => {
    await createWidget('v1', 'w1', { color: 'teal' });
    const before = webhook.requests.length;
    const asV2 = await readWidget('v2', 'w1');
    expect(asV2.apiVersion).toBe(`${group}/v2`);
    expect(asV2.spec).toEqual({ paint: { name: 'teal' } });

    const calls = webhook.requests.slice(before);
    expect(calls.length).toBeGreaterThan(0);
    const review = calls[0]?.body as {
      apiVersion: string;
      kind: string;
      request: { desiredAPIVersion: string };
    };
    expect(calls[0]?.path).toBe('/convert');
    expect(review.kind).toBe('ConversionReview');
    expect(review.apiVersion).toBe('apiextensions.k8s.io/v1');
    expect(review.request.desiredAPIVersion).toBe(`${group}/v2`);

    // Reading at the stored version needs no conversion.
    const again = webhook.requests.length;
    const asV1 = await readWidget('v1', 'w1');
    expect(asV1.spec).toEqual({ color: 'teal' });
    expect(webhook.requests.length).toBe(again);
  });

  it('stores an object written at v2 in v1 form', async () => {
    await createWidget('v2', 'w2', { paint: { name: 'ochre' } });
    const asV1 = await restRequest(
      cp.kubeConfig,
      'GET',
      `/apis/${group}/v1/namespaces/${cp.namespace}/${plural}/w2`,
    );
    expect(asV1.status).toBe(200);
    expect((asV1.body as Widget).spec).toEqual({ color: 'ochre' });
  });

  it('surfaces a conversion failure as an API error', async () => {
    const api = cp.kubeConfig.makeApiClient(CustomObjectsApi);
    const namespace = cp.namespace;
    // A failing webhook: point a second CRD at a path that answers Failed.
    const failing = await startWebhookServer(
      conversionReviewHandler(() => {
        throw new Error('cannot convert this widget');
      }),
    );
    try {
      const g = 'broken.envtest.capi-kit.dev';
      await step(
        'install the broken CRD',
        cp.installCRDs({
          apiVersion: 'apiextensions.k8s.io/v1',
          kind: 'CustomResourceDefinition',
          metadata: { name: `${plural}.${g}` },
          spec: {
            group: g,
            scope: 'Namespaced',
            names: { kind: 'Widget', plural },
            versions: [
              { name: 'v1', served: true, storage: true, schema: schema({ color: { type: 'string' } }) },
              { name: 'v2', served: true, storage: false, schema: schema({ color: { type: 'string' } }) },
            ],
            conversion: {
              strategy: 'Webhook',
              webhook: {
                conversionReviewVersions: ['v1'],
                clientConfig: { url: `${failing.url}/convert`, caBundle: failing.caBundle },
              },
            },
          },
        }),
      );
      await step(
        'create a v1 object',
        api.createNamespacedCustomObject({
          group: g,
          version: 'v1',
          namespace,
          plural,
          body: { apiVersion: `${g}/v1`, kind: 'Widget', metadata: { name: 'w' }, spec: { color: 'red' } },
        }),
      );
      const res = await step(
        'read it at v2',
        restRequest(cp.kubeConfig, 'GET', `/apis/${g}/v2/namespaces/${namespace}/${plural}/w`),
      );
      expect(res.status).toBeGreaterThanOrEqual(500);
      expect(JSON.stringify(res.body)).toContain('cannot convert this widget');
    } finally {
      await step('close the webhook server', failing.close());
    }
  });
});
