import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type AnswerProxy,
  type ServedAnswer as LeaseAnswer,
  type AnswerReplacement as Replacement,
  startAnswerProxy,
} from '@capi-kit/envtest/answer-proxy';
import { noControlPlane, useControlPlane } from '@capi-kit/envtest/vitest';
import { CoordinationV1Api, V1MicroTime } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliBin } from './helpers/run-cli.js';

// `capi-kit lease` against a real API server behind a proxy that replaces its Lease answers
// with what a real server never sends: each is an API error (exit 3) on stderr, nothing on
// stdout, never "free" or "acquired".

const env = useControlPlane();
const scratch = mkdtempSync(join(tmpdir(), 'capi-kit-lease-unreadable-'));
let proxy: AnswerProxy;
let kubeconfig: string;
let counter = 0;
const node = (label: string) => `${label}-${++counter}-${Math.random().toString(36).slice(2, 7)}`;

/** The CLI as a child process, without blocking this process (the proxy answers from here). */
function lease(args: readonly string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cliBin, 'lease', ...args, '--namespace', env.namespace], {
      env: { ...process.env, KUBECONFIG: kubeconfig },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
    });
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    const timer = setTimeout(() => child.kill(), 120_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

async function freeLease(name: string) {
  const now = new V1MicroTime(Date.now());
  await env.kubeConfig.makeApiClient(CoordinationV1Api).createNamespacedLease({
    namespace: env.namespace,
    body: {
      metadata: { name },
      spec: { holderIdentity: '', leaseDurationSeconds: 1, acquireTime: now, renewTime: now },
    },
  });
}

const html = (): Replacement => ({
  text: '<!doctype html><html><body>Sign in to continue</body></html>',
  contentType: 'text/html',
});
type Lease = { spec: Record<string, unknown> } & Record<string, unknown>;
const otherHolder = (answer: LeaseAnswer): Replacement => {
  const lease = answer.json as Lease;
  return { json: { ...lease, spec: { ...lease.spec, holderIdentity: 'someone-else' } } };
};
const wrongTypes = (answer: LeaseAnswer): Replacement => {
  const lease = answer.json as Lease;
  return { json: { ...lease, spec: { ...lease.spec, holderIdentity: 7, leaseDurationSeconds: '15' } } };
};

type Case = readonly [
  label: string,
  args: readonly string[],
  on: 'GET' | 'POST' | 'PUT',
  rewrite: (answer: LeaseAnswer) => Replacement | undefined,
  existing: boolean,
  message: string,
];

const cases: readonly Case[] = [
  ['status, an HTML page', ['status'], 'GET', html, false, 'the answer: expected a JSON Lease'],
  [
    'status --json, {}',
    ['status', '--json'],
    'GET',
    () => ({ json: {} }),
    true,
    'metadata: expected an object',
  ],
  ['acquire, an HTML page', ['acquire'], 'GET', html, true, 'the answer: expected a JSON Lease'],
  ['acquire, {}', ['acquire', '--json'], 'GET', () => ({ json: {} }), true, 'metadata: expected an object'],
  [
    'acquire, wrong-typed spec',
    ['acquire'],
    'GET',
    wrongTypes,
    true,
    'spec.holderIdentity: expected a string',
  ],
  [
    'acquire, create echoed with another holder',
    ['acquire', '--json'],
    'POST',
    otherHolder,
    false,
    'spec.holderIdentity',
  ],
  [
    'acquire, update echoed with another holder',
    ['acquire'],
    'PUT',
    otherHolder,
    true,
    'spec.holderIdentity',
  ],
  ['renew, an HTML page', ['renew'], 'GET', html, true, 'the answer: expected a JSON Lease'],
  ['release, {}', ['release'], 'GET', () => ({ json: {} }), true, 'metadata: expected an object'],
  ['hold, an HTML page', ['hold'], 'GET', html, true, 'the answer: expected a JSON Lease'],
];

describe.skipIf(noControlPlane())(
  'capi-kit lease on answers that are not a Lease',
  { timeout: 600_000 },
  () => {
    beforeAll(async () => {
      proxy = await startAnswerProxy(env.kubeConfig);
      kubeconfig = join(scratch, 'proxy.kubeconfig');
      writeFileSync(kubeconfig, proxy.kubeConfig.exportConfig());
    });
    afterAll(() => proxy?.close());

    it.each(cases)(
      '%s: exit 3, stderr says why, stdout empty',
      async (_, args, on, rewrite, existing, message) => {
        const n = node('cli');
        if (existing) await freeLease(n);
        // (the answers to Lease calls, not watches)
        proxy.rewrite({
          path: /^\/apis\/coordination\.k8s\.io\/v1\/namespaces\/[^/]+\/leases(\/|$)/,
          method: on,
          answer: rewrite,
        });
        const [action, ...rest] = args;
        const result = await lease([action!, n, '--holder', 'alice', ...rest]);
        expect(result).toMatchObject({
          code: 3,
          stdout: '',
          stderr: expect.stringContaining("the server's answer is not the Lease asked for"),
        });
        expect(result.stderr).toContain(message);
        expect(proxy.state.rewrites).toBeGreaterThan(0);
      },
    );
  },
);
