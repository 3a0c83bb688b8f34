import { noControlPlane, useControlPlane } from '@capi-kit/envtest/vitest';
import * as E from 'fp-ts/lib/Either.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { type CapiClient, connect, Informer, type InformerOptions } from '../src/index.js';
import { capiCrdDirs, unwrap } from './helpers/fixtures.js';

// Options an informer cannot run on are refused when it is made, not by each list it then
// retries for ever (a namespace of `..`), nor by running in a tight loop against the API
// server (a back-off or silence timeout of 0).
const cp = useControlPlane();

describe.skipIf(noControlPlane())('informer options', () => {
  let client: CapiClient;

  beforeAll(async () => {
    for (const dir of capiCrdDirs) await cp.installCRDs(dir);
    client = unwrap(await connect(cp.kubeConfig));
  });

  it.each<[string, unknown, string]>([
    ['a namespace of ..', { namespace: '..' }, 'namespace'],
    ['an empty namespace', { namespace: '' }, 'namespace'],
    ['a label selector that is no string', { labelSelector: 5 }, 'labelSelector'],
    ['a silence timeout of 0', { silenceTimeoutMs: 0 }, 'silenceTimeoutMs'],
    ['a silence timeout past the timer range', { silenceTimeoutMs: 2 ** 31 }, 'silenceTimeoutMs'],
    ['a back-off of 0', { backoff: { initialMs: 0 } }, 'backoff.initialMs'],
    ['a back-off of NaN', { backoff: { maxMs: Number.NaN } }, 'backoff.maxMs'],
    ['a back-off that is null', { backoff: null }, 'backoff'],
    ['a page size of 0 (no limit to the server)', { pageSize: 0 }, 'pageSize'],
    ['a page size of 1.5', { pageSize: 1.5 }, 'pageSize'],
    ['options that are null', null, 'options'],
  ])('refuses %s up front, naming it', (_what, options, path) => {
    const made = client.informer('cluster.x-k8s.io/v1alpha2', 'Machine', options as InformerOptions);
    expect(E.isLeft(made) && made.left).toMatchObject({ code: 'invalid-option', path });
  });

  it('an informer made with new and such options rejects synced on start, making no request', async () => {
    const source = unwrap(client.resource('cluster.x-k8s.io/v1alpha2', 'Machine'));
    const informer = new Informer(source, cp.kubeConfig, { backoff: { initialMs: 0 } });
    await expect(informer.start()).rejects.toMatchObject({
      code: 'invalid-option',
      path: 'backoff.initialMs',
    });
    expect(informer.stats).toMatchObject({ lists: 0, reconnects: 0 });
    informer.stop();
  });

  it('a label selector the server cannot parse rejects synced, instead of retrying for ever', async () => {
    const informer = unwrap(
      client.informer('cluster.x-k8s.io/v1alpha2', 'Machine', {
        namespace: cp.namespace,
        labelSelector: 'tier in (web',
        backoff: { initialMs: 50, maxMs: 100 },
      }),
    );
    try {
      // (without the fix synced never settles: the race's timer answers instead)
      const settled = await Promise.race([
        informer.start().then(
          () => 'synced',
          (error: unknown) => error,
        ),
        new Promise((resolve) => setTimeout(() => resolve('still retrying'), 15_000)),
      ]);
      expect(settled).toMatchObject({ code: 'api', status: 400 });
    } finally {
      informer.stop();
    }
  });

  it('accepts what it can run on', () => {
    const made = client.informer('cluster.x-k8s.io/v1alpha2', 'Machine', {
      namespace: cp.namespace,
      labelSelector: 'tier in (web)',
      silenceTimeoutMs: 500,
      backoff: { initialMs: 1, maxMs: 2 ** 31 - 1 },
      pageSize: 1,
    });
    expect(E.isRight(made)).toBe(true);
  });
});
