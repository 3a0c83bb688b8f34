import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';

/**
 * An environment in which no backend can exist: no kubeconfig variable, an empty
 * setup-envtest store and legacy directory, no Docker socket. Its directory is removed
 * after the calling test file.
 */
export function noBackendEnv(): NodeJS.ProcessEnv {
  const empty = mkdtempSync(join(tmpdir(), 'envtest-nobackend-'));
  afterAll(() => rmSync(empty, { recursive: true, force: true }));
  return {
    XDG_DATA_HOME: empty,
    HOME: empty,
    CAPI_KIT_ENVTEST_LEGACY_DIR: join(empty, 'kubebuilder/bin'),
    DOCKER_HOST: `unix://${join(empty, 'docker.sock')}`,
  };
}
