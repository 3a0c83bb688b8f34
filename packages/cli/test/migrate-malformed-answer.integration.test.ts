import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startAnswerProxy } from '@capi-kit/envtest/answer-proxy';
import { noControlPlane, useControlPlane } from '@capi-kit/envtest/vitest';
import { KubernetesObjectApi } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { crdDirs, seedSourceCluster } from '../../migrate/test/support/source-cluster.js';
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

// The same during apply's preflight: a dry-run create (or a SelfSubjectAccessReview) answered
// with an HTML page is the cluster failing, not a refusal: exit 3, not 1, and nothing written.
describe.skipIf(noControlPlane())(
  "capi-kit migrate apply when preflight's dry run is answered with an HTML page",
  () => {
    const kubeconfig = join(mkdtempSync(join(tmpdir(), 'capi-kit-migrate-malformed-')), 'kubeconfig');
    let proxy: Awaited<ReturnType<typeof startAnswerProxy>>;
    let namespace: string;
    beforeAll(async () => {
      for (const dir of crdDirs) await env.installCRDs(dir);
      namespace = await env.createNamespace('cli-migrate-malformed');
      await seedSourceCluster(env.kubeConfig, namespace, { provider: 'aws', name: 'odd', workers: 1 });
      proxy = await startAnswerProxy(env.kubeConfig);
      writeFileSync(kubeconfig, proxy.kubeConfig.exportConfig());
    });
    afterAll(async () => {
      await proxy?.close();
    });

    it('exit 3, the reason on stderr, nothing on stdout, nothing written', async () => {
      proxy.rewrite({
        method: 'POST',
        query: (query) => query.get('dryRun') === 'All',
        answer: () => ({
          text: '<!doctype html><html><body>Please sign in</body></html>',
          contentType: 'text/html',
        }),
      });
      const result = await runCliAsync(['migrate', 'apply', '-n', namespace], { KUBECONFIG: kubeconfig });
      expect(proxy.state.rewrites).toBeGreaterThan(0);
      expect(result).toMatchObject({ code: 3, stdout: '' });
      expect(result.stderr).toContain('capi-kit migrate: create ');
      expect(result.stderr).toContain("the API server's answer is not");
      expect(result.stderr).not.toContain('preflight found');
      expect(result.stderr).not.toMatch(/TypeError|\n\s+at /);
      const written = await KubernetesObjectApi.makeApiClient(env.kubeConfig).list(
        'cluster.x-k8s.io/v1alpha2',
        'Cluster',
        namespace,
      );
      expect(written.items).toEqual([]);
    });

    // A plan that cannot read what is already there under the planned names must not print a
    // plan as if nothing were in the way (it printed one, with the failure as a warning, exit 0).
    it('plan, when the list of the v1alpha2 targets is answered 500: exit 3, nothing on stdout', async () => {
      proxy.rewrite({
        method: 'GET',
        path: `/apis/cluster.x-k8s.io/v1alpha2/namespaces/${namespace}/machines`,
        answer: () => ({
          json: {
            kind: 'Status',
            apiVersion: 'v1',
            status: 'Failure',
            reason: 'InternalError',
            code: 500,
            message: 'etcdserver: leader changed',
          },
          status: 500,
        }),
      });
      const result = await runCliAsync(['migrate', 'plan', '-n', namespace], { KUBECONFIG: kubeconfig });
      expect(proxy.state.rewrites).toBeGreaterThan(0);
      expect(result).toMatchObject({ code: 3, stdout: '' });
      expect(result.stderr).toContain('capi-kit migrate: list machines.cluster.x-k8s.io');
      expect(result.stderr).toContain('etcdserver: leader changed');
      expect(result.stderr).not.toMatch(/TypeError|\n\s+at /);
    });
  },
);
