import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { KubeConfig } from '@kubernetes/client-node';
import { afterAll, describe, expect, it } from 'vitest';
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

// Every error envtest throws is an EnvtestError tagged `code` (docs/architecture.md,
// "Errors and results"). These tests pin the tags: renaming one, or throwing a bare Error
// again, fails here.

const empty = mkdtempSync(join(tmpdir(), 'envtest-codes-'));
afterAll(() => rmSync(empty, { recursive: true, force: true }));
const nothing: NodeJS.ProcessEnv = {
  XDG_DATA_HOME: empty,
  HOME: empty,
  CAPI_KIT_ENVTEST_LEGACY_DIR: join(empty, 'kubebuilder/bin'),
  DOCKER_HOST: `unix://${join(empty, 'docker.sock')}`,
};

async function thrown(work: () => unknown): Promise<unknown> {
  try {
    await work();
  } catch (error) {
    return error;
  }
  throw new Error('expected an error');
}

function expectCode(error: unknown, code: EnvtestErrorCode, path?: string): void {
  expect(error).toBeInstanceOf(EnvtestError);
  expect(error).toMatchObject({ code, message: expect.any(String) });
  if (path === undefined) expect(error).not.toHaveProperty('path');
  else expect((error as EnvtestError).path).toBe(path);
}

describe('envtest errors are tagged code', () => {
  it('no-control-plane (NoControlPlaneError)', async () => {
    const error = await thrown(() => startControlPlane({ env: nothing, log: () => {} }));
    expect(error).toBeInstanceOf(NoControlPlaneError);
    expectCode(error, 'no-control-plane');
  });

  it('deadline-exceeded (DeadlineError)', async () => {
    const error = await thrown(() => withinDeadline(new Promise(() => {}), 1, 'too slow'));
    expect(error).toBeInstanceOf(DeadlineError);
    expectCode(error, 'deadline-exceeded');
  });

  it('invalid-setting: an unknown backend, a duration that does not parse', async () => {
    expectCode(
      await thrown(() => chooseBackend({ env: { ...nothing, CAPI_KIT_ENVTEST_BACKEND: 'vm' } })),
      'invalid-setting',
    );
    expectCode(
      await thrown(() => chooseBackend({ env: { ...nothing, CAPI_KIT_ENVTEST_START_TIMEOUT: 'soon' } })),
      'invalid-setting',
    );
  });

  it('invalid-crd, with the path to blame', async () => {
    expectCode(await thrown(() => loadCrds({ apiVersion: 'v1', kind: 'ConfigMap' })), 'invalid-crd', 'kind');
    expectCode(await thrown(() => loadCrds('a: [1\nb: 2\n')), 'invalid-crd');
    expectCode(
      await thrown(() =>
        convertV1beta1Crd({
          apiVersion: 'apiextensions.k8s.io/v1beta1',
          kind: 'CustomResourceDefinition',
          metadata: { name: 'things.example.com' },
          spec: { group: 'example.com', names: { kind: 'Thing', plural: 'things' }, scope: 'Namespaced' },
        }),
      ),
      'invalid-crd',
      'spec.versions',
    );
  });

  it('invalid-kubeconfig, api-error, not-ready, invalid-request', async () => {
    expectCode(await thrown(() => currentCluster(new KubeConfig())), 'invalid-kubeconfig');
    expectCode(
      await thrown(() => expectOk('create thing', { status: 409, body: { message: 'exists' } })),
      'api-error',
    );
    expectCode(
      await thrown(() =>
        waitFor('etcd', async () => false, { timeoutMs: 60_000, abort: () => 'exited with 1' }),
      ),
      'not-ready',
    );
    expectCode(await thrown(() => conversionReviewHandler((o) => o)('/convert', {})), 'invalid-request');
  });
});
