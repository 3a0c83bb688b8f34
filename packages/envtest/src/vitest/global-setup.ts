// Vitest global setup: starts ONE control plane for the whole run and hands its connection
// data to every test worker (see useControlPlane()). Use it in a vitest config as
//   test: { globalSetup: ['@capi-kit/envtest/vitest/global-setup'] }
// or, inside this repository, by path (the root vitest.config.ts does).

import type { TestProject } from 'vitest/node';
import { type ControlPlane, NoControlPlaneError, startControlPlane } from '../control-plane.js';
import { EnvtestError } from '../errors.js';
import type { ProvidedControlPlane } from './context.js';

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  let plane: ControlPlane | undefined;
  let provided: ProvidedControlPlane;
  try {
    plane = await startControlPlane();
    provided = { available: true, connection: plane.connection };
    // While the run lasts, `KUBECONFIG=<this> kubectl …` shows what the tests see.
    process.stderr.write(`[envtest] shared control plane kubeconfig: ${plane.kubeconfigPath}\n`);
  } catch (error) {
    if (!(error instanceof NoControlPlaneError)) throw error;
    // Under CI a missing control plane is a failure, never a quiet skip.
    if (process.env.CI === 'true') {
      throw new EnvtestError(
        'no-control-plane',
        `${error.message}\nCI=true: integration tests need a control plane.`,
        {
          cause: error,
        },
      );
    }
    process.stderr.write(`[envtest] ${error.message}\n[envtest] integration tests will be SKIPPED.\n`);
    provided = { available: false, reason: error.message };
  }
  project.provide('capiKitEnvtest', provided);
  return async () => {
    await plane?.stop();
  };
}
