import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

// Runs vitest, as a user would, on a fixture project of integration tests (three files:
// one on the shared control plane with a beforeAll that talks to the server, one with a
// private local control plane, one plain test) where no backend can exist.
const fixture = fileURLToPath(new URL('./fixtures/no-control-plane/', import.meta.url));
const vitestBin = join(createRequire(import.meta.url).resolve('vitest/package.json'), '..', 'vitest.mjs');
const empty = mkdtempSync(join(tmpdir(), 'envtest-no-cp-'));
afterAll(() => rmSync(empty, { recursive: true, force: true }));

interface JsonReport {
  success: boolean;
  numPassedTests: number;
  numFailedTests: number;
  numPendingTests: number;
  testResults: { name: string; status: string; message?: string }[];
}

function runFixture(ci: boolean) {
  const report = join(empty, `report-${ci}.json`);
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: empty,
    XDG_DATA_HOME: empty,
    CAPI_KIT_ENVTEST_LEGACY_DIR: join(empty, 'kubebuilder/bin'),
    DOCKER_HOST: `unix://${join(empty, 'docker.sock')}`,
    NO_COLOR: '1',
    ...(ci ? { CI: 'true' } : {}),
  };
  const run = spawnSync(
    process.execPath,
    [
      vitestBin,
      'run',
      '--config',
      join(fixture, 'vitest.config.ts'),
      '--reporter=default',
      '--reporter=json',
      `--outputFile.json=${report}`,
    ],
    { cwd: fixture, env, encoding: 'utf8' },
  );
  const output = `${run.stdout}\n${run.stderr}`;
  let parsed: JsonReport | undefined;
  try {
    parsed = JSON.parse(readFileSync(report, 'utf8')) as JsonReport;
  } catch {
    parsed = undefined;
  }
  return { status: run.status, output, report: parsed };
}

describe('integration tests on a machine with no control plane', () => {
  it('are all skipped at collection time, none fails: "1 passed, 4 skipped, 0 failed"', () => {
    const { status, output, report } = runFixture(false);
    expect(output).toContain('[envtest] no control plane available');
    expect(output).toContain('integration tests will be SKIPPED');
    expect(report).toMatchObject({ success: true, numPassedTests: 1, numFailedTests: 0, numPendingTests: 4 });
    expect(report?.testResults.filter((f) => f.status === 'failed')).toEqual([]);
    expect(output).toMatch(/Tests\s+1 passed \| 4 skipped \(5\)/);
    expect(status).toBe(0);
  }, 120_000);

  it('fail the run under CI=true, naming each backend', () => {
    const { status, output } = runFixture(true);
    expect(status).not.toBe(0);
    expect(output).toContain('CI=true: integration tests need a control plane');
    expect(output).toContain('existing cluster: CAPI_KIT_ENVTEST_KUBECONFIG is not set');
    expect(output).toContain('local binaries: none found');
    expect(output).toContain('k3s: no Docker engine');
  }, 120_000);
});
