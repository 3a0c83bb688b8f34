import { startWebhookServer, type WebhookServer } from '@capi-kit/envtest';
import { noControlPlane, useControlPlane } from '@capi-kit/envtest/vitest';
import { AdmissionregistrationV1Api } from '@kubernetes/client-node';
import * as E from 'fp-ts/lib/Either.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, type ResourceClient } from '../src/index.js';
import { capiCrdDirs, unwrap, v1alpha2Machine } from './helpers/fixtures.js';

// What the API server answers with an error is relayed as a ClientError's one-line
// `message`. A validating admission webhook's denial reaches the client as the real API
// server's Status, its message as the webhook wrote it: here a megabyte long, with terminal
// escapes, a newline and a right-to-left override in it.
const cp = useControlPlane();

const HOSTILE = `\u001b[31mdenied\u001b[0m\nsecond line\u202e${'x'.repeat(1_000_000)}`;

describe.skipIf(noControlPlane())('a Status from the API server is shown on one line, cut short', () => {
  let webhook: WebhookServer;
  let machines: ResourceClient<unknown>;
  const configName = `capi-kit-hostile-status-${Math.random().toString(36).slice(2, 8)}`;
  let admission: AdmissionregistrationV1Api;

  beforeAll(async () => {
    for (const dir of capiCrdDirs) await cp.installCRDs(dir);
    const client = unwrap(await connect(cp.kubeConfig));
    machines = unwrap(client.resource('cluster.x-k8s.io/v1alpha2', 'Machine')) as ResourceClient<unknown>;
    webhook = await startWebhookServer((_path, body) => {
      const uid = (body as { request?: { uid?: string } }).request?.uid;
      return {
        apiVersion: 'admission.k8s.io/v1',
        kind: 'AdmissionReview',
        response: { uid, allowed: false, status: { code: 422, reason: 'Invalid', message: HOSTILE } },
      };
    });
    admission = cp.kubeConfig.makeApiClient(AdmissionregistrationV1Api);
    // (the shared control plane: only this file's namespace, only labelled Machines; Ignore
    // when the webhook is gone)
    await admission.createValidatingWebhookConfiguration({
      body: {
        metadata: { name: configName },
        webhooks: [
          {
            name: 'hostile-status.capi-kit.test',
            admissionReviewVersions: ['v1'],
            sideEffects: 'None',
            failurePolicy: 'Ignore',
            clientConfig: { url: `${webhook.url}/validate`, caBundle: webhook.caBundle },
            rules: [
              {
                apiGroups: ['cluster.x-k8s.io'],
                apiVersions: ['*'],
                resources: ['machines'],
                operations: ['CREATE'],
              },
            ],
            namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': cp.namespace } },
            objectSelector: { matchLabels: { 'capi-kit.test/hostile-status': 'true' } },
          },
        ],
      },
    });
  });

  afterAll(async () => {
    await admission?.deleteValidatingWebhookConfiguration({ name: configName }).catch(() => undefined);
    await webhook?.close();
  });

  it('a megabyte denial with control characters: escaped, cut to a few thousand characters', async () => {
    const machine = v1alpha2Machine(cp.namespace, 'hostile');
    const labelled = {
      ...machine,
      metadata: {
        ...machine.metadata,
        labels: { ...machine.metadata.labels, 'capi-kit.test/hostile-status': 'true' },
      },
    };
    // (the webhook configuration takes a moment to be seen: until then the create succeeds)
    let created: Awaited<ReturnType<typeof machines.create>> | undefined;
    for (let attempt = 0; attempt < 50; attempt++) {
      created = await machines.create(labelled);
      if (E.isLeft(created)) break;
      unwrap(await machines.delete(cp.namespace, 'hostile'));
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(webhook.requests.length).toBeGreaterThan(0);
    const error = created !== undefined && E.isLeft(created) ? created.left : undefined;
    expect(error).toMatchObject({ code: 'rejected', status: 422, reason: 'Invalid' });
    const message = error?.message ?? '';
    // one line, no terminal escape, no bidi override
    // biome-ignore lint/suspicious/noControlCharactersInRegex: these are what must not appear
    expect(message).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/);
    expect(message).toContain('\\u001b[31mdenied\\u001b[0m\\nsecond line\\u202exxx');
    expect(message.length).toBeLessThan(3000);
    expect(message).toMatch(/… \(\d{7} characters\)$/);
  });
});
