import { afterAll, describe, expect, it } from 'vitest';
import { chooseBackend, NoControlPlaneError, probeDocker, startControlPlane } from '../src/index.js';
import setup from '../src/vitest/global-setup.js';
import { noBackendEnv } from './helpers/no-backend-env.js';

const nothing = noBackendEnv();

describe('backend selection without any backend', () => {
  it('probeDocker reports a missing engine with the socket it tried', async () => {
    const probe = await probeDocker(nothing);
    expect(probe).toEqual({
      available: false,
      reason: `no Docker engine at ${nothing.DOCKER_HOST} (ENOENT)`,
    });
  });

  it('startControlPlane throws NoControlPlaneError naming each backend', async () => {
    const error = await startControlPlane({ env: nothing, log: () => {} }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NoControlPlaneError);
    const reasons = (error as NoControlPlaneError).reasons;
    expect(reasons).toHaveLength(3);
    expect(reasons[0]).toBe('existing cluster: CAPI_KIT_ENVTEST_KUBECONFIG is not set');
    expect(reasons[1]).toMatch(/^local binaries: none found \(.*setup-envtest store/);
    expect(reasons[2]).toMatch(/^k3s: no Docker engine at unix:\/\/.*docker\.sock \(ENOENT\)$/);
  });

  it('an explicit backend is the only one tried', async () => {
    expect(await chooseBackend({ env: nothing, backend: 'k3s' })).toEqual({
      skipped: [`k3s: no Docker engine at ${nothing.DOCKER_HOST} (ENOENT)`],
    });
    expect(
      await chooseBackend({
        env: { ...nothing, CAPI_KIT_ENVTEST_KUBECONFIG: '/x/kubeconfig' },
        backend: 'auto',
      }),
    ).toMatchObject({
      chosen: {
        kind: 'existing',
        summary: 'existing cluster from CAPI_KIT_ENVTEST_KUBECONFIG=/x/kubeconfig',
      },
    });
    await expect(chooseBackend({ env: nothing, backend: 'nope' as 'auto' })).rejects.toThrow(
      /unknown envtest backend nope/,
    );
  });

  it('the start timeout variable is validated', async () => {
    await expect(
      startControlPlane({ env: { ...nothing, CAPI_KIT_ENVTEST_START_TIMEOUT: 'soon' }, log: () => {} }),
    ).rejects.toThrow(/CAPI_KIT_ENVTEST_START_TIMEOUT=soon/);
  });
});

describe('the vitest global setup without any backend', () => {
  const saved = { ...process.env };
  afterAll(() => {
    process.env = saved;
  });

  async function runSetup(ci: string | undefined) {
    process.env = {
      ...saved,
      ...nothing,
      KUBEBUILDER_ASSETS: '',
      TEST_ASSET_KUBE_APISERVER: '',
      TEST_ASSET_ETCD: '',
    };
    delete process.env.CAPI_KIT_ENVTEST_KUBECONFIG;
    delete process.env.CAPI_KIT_ENVTEST_BACKEND;
    if (ci === undefined) delete process.env.CI;
    else process.env.CI = ci;
    const provided: Record<string, unknown> = {};
    const project = { provide: (key: string, value: unknown) => (provided[key] = value) };
    const teardown = await setup(project as unknown as Parameters<typeof setup>[0]);
    return { provided, teardown };
  }

  it('provides the reasons so that tests are skipped, outside CI', async () => {
    const { provided, teardown } = await runSetup(undefined);
    expect(provided.capiKitEnvtest).toMatchObject({ available: false });
    expect((provided.capiKitEnvtest as { reason: string }).reason).toContain('no Docker engine');
    await teardown();
  });

  it('fails the run under CI=true', async () => {
    await expect(runSetup('true')).rejects.toThrow(/CI=true: integration tests need a control plane/);
  });
});
