import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startAnswerProxy } from '@capi-kit/envtest/answer-proxy';
import { noControlPlane, useControlPlane } from '@capi-kit/envtest/vitest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliBin } from './helpers/run-cli.js';

/**
 * Runs the built CLI without blocking this process: the proxy answering it runs here
 * (runCli's spawnSync would stop it from answering).
 */
function runCliAsync(args: readonly string[], env: NodeJS.ProcessEnv) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    execFile(
      process.execPath,
      [cliBin, ...args],
      { env: { ...process.env, ...env }, encoding: 'utf8', timeout: 120_000 },
      (error, stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === 'number' ? error.code : null;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

// A server (or a proxy in front of it) that answers 200 with something that is not a
// Kubernetes API answer: `capi-kit migrate plan` exits 3 (a cluster/API error) saying what
// it expected and found, prints nothing on stdout, and shows no stack trace.

const env = useControlPlane();

describe.skipIf(noControlPlane())(
  'capi-kit migrate plan against an answer that is not a Kubernetes API answer',
  () => {
    const kubeconfig = join(mkdtempSync(join(tmpdir(), 'capi-kit-migrate-malformed-')), 'kubeconfig');
    let proxy: Awaited<ReturnType<typeof startAnswerProxy>>;
    beforeAll(async () => {
      proxy = await startAnswerProxy(env.kubeConfig);
      writeFileSync(kubeconfig, proxy.kubeConfig.exportConfig());
    });
    afterAll(async () => {
      await proxy?.close();
    });

    it.each([
      [
        'an HTML page',
        '<!doctype html><html><body>Please sign in</body></html>',
        'text/html',
        'the answer is a string ("<!doctype html>',
      ],
      ['{}', '{}', 'application/json', 'groups is missing, expected an array'],
    ])(
      '/apis answered with %s: exit 3, the reason on stderr, nothing on stdout',
      async (_name, body, contentType, found) => {
        proxy.rewrite({
          method: 'GET',
          path: '/apis',
          answer: () => ({ text: body, contentType }),
        });
        const result = await runCliAsync(['migrate', 'plan', '-n', 'default'], { KUBECONFIG: kubeconfig });
        expect(result).toMatchObject({ code: 3, stdout: '' });
        expect(result.stderr).toContain(
          "capi-kit migrate: list apigroups: the API server's answer is not an APIGroupList",
        );
        expect(result.stderr).toContain(found);
        expect(result.stderr).not.toMatch(/TypeError|\n\s+at /);
      },
    );
  },
);
