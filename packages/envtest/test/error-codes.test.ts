import { KubeConfig } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { withinDeadline } from '../src/deadline.js';
import {
  chooseBackend,
  conversionReviewHandler,
  convertV1beta1Crd,
  DeadlineError,
  EnvtestError,
  type EnvtestErrorCode,
  loadCrds,
  NoControlPlaneError,
  startControlPlane,
} from '../src/index.js';
import { currentCluster } from '../src/kubeconfig.js';
import { waitFor } from '../src/net.js';
import { expectOk } from '../src/rest.js';
import { noBackendEnv } from './helpers/no-backend-env.js';

// Every error envtest throws is an EnvtestError tagged `code` (docs/architecture.md,
// "Errors and results"). These tests pin the tags: renaming one, or throwing a bare Error
// again, fails here.

const nothing = noBackendEnv();

/** What `work` throws or rejects with, checked to be an EnvtestError with `code` (and `path`). */
async function expectCode(work: () => unknown, code: EnvtestErrorCode, path?: string): Promise<unknown> {
  const error = await Promise.resolve()
    .then(work)
    .then(
      () => {
        throw new Error(`expected an EnvtestError ${code}`);
      },
      (e: unknown) => e,
    );
  expect(error).toBeInstanceOf(EnvtestError);
  expect(error).toMatchObject({ code, message: expect.any(String) });
  if (path === undefined) expect(error).not.toHaveProperty('path');
  else expect((error as EnvtestError).path).toBe(path);
  return error;
}

describe('envtest errors are tagged code', () => {
  it('no-control-plane (NoControlPlaneError)', async () => {
    const error = await expectCode(
      () => startControlPlane({ env: nothing, log: () => {} }),
      'no-control-plane',
    );
    expect(error).toBeInstanceOf(NoControlPlaneError);
  });

  it('deadline-exceeded (DeadlineError)', async () => {
    const error = await expectCode(
      () => withinDeadline(new Promise(() => {}), 1, 'too slow'),
      'deadline-exceeded',
    );
    expect(error).toBeInstanceOf(DeadlineError);
  });

  it('invalid-setting: an unknown backend, a duration that does not parse', async () => {
    await expectCode(
      () => chooseBackend({ env: { ...nothing, CAPI_KIT_ENVTEST_BACKEND: 'vm' } }),
      'invalid-setting',
    );
    await expectCode(
      () => chooseBackend({ env: { ...nothing, CAPI_KIT_ENVTEST_START_TIMEOUT: 'soon' } }),
      'invalid-setting',
    );
  });

  it('invalid-crd, with the path to blame', async () => {
    await expectCode(() => loadCrds({ apiVersion: 'v1', kind: 'ConfigMap' }), 'invalid-crd', 'kind');
    await expectCode(() => loadCrds('a: [1\nb: 2\n'), 'invalid-crd');
    await expectCode(
      () =>
        convertV1beta1Crd({
          apiVersion: 'apiextensions.k8s.io/v1beta1',
          kind: 'CustomResourceDefinition',
          metadata: { name: 'things.example.com' },
          spec: { group: 'example.com', names: { kind: 'Thing', plural: 'things' }, scope: 'Namespaced' },
        }),
      'invalid-crd',
      'spec.versions',
    );
  });

  it('invalid-kubeconfig, api-error, not-ready, invalid-request', async () => {
    await expectCode(() => currentCluster(new KubeConfig()), 'invalid-kubeconfig');
    await expectCode(
      () => expectOk('create thing', { status: 409, body: { message: 'exists' } }),
      'api-error',
    );
    await expectCode(
      () => waitFor('etcd', async () => false, { timeoutMs: 60_000, abort: () => 'exited with 1' }),
      'not-ready',
    );
    await expectCode(() => conversionReviewHandler((o) => o)('/convert', {}), 'invalid-request');
  });
});
