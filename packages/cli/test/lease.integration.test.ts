import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { noControlPlane, useControlPlane } from '@capi-kit/envtest/vitest';
import { NodeLeaseClient } from '@capi-kit/lease';
import { CoordinationV1Api, type KubeConfig } from '@kubernetes/client-node';
import { afterEach, describe, expect, it } from 'vitest';
import { cliBin, runCli } from './helpers/run-cli.js';

const env = useControlPlane();
const scratch = mkdtempSync(join(tmpdir(), 'capi-kit-lease-cli-'));
let counter = 0;
const node = (label: string) => `${label}-${++counter}-${Math.random().toString(36).slice(2, 7)}`;

/** `capi-kit lease ...` against the test server, in this file's namespace. */
function lease(args: readonly string[], kubeconfig = env.kubeconfigPath) {
  return runCli(['lease', ...args, '--namespace', env.namespace], { env: { KUBECONFIG: kubeconfig } });
}

function writeKubeconfig(name: string, kubeConfig: KubeConfig): string {
  const path = join(scratch, `${name}.kubeconfig`);
  writeFileSync(path, kubeConfig.exportConfig());
  return path;
}

function libraryClient(holderIdentity: string) {
  return new NodeLeaseClient({
    kubeConfig: env.kubeConfig,
    namespace: env.namespace,
    holderIdentity,
    timing: { leaseDurationSeconds: 2 },
  });
}

describe.skipIf(noControlPlane())('capi-kit lease status|acquire|renew|release', () => {
  it('walks a lease through its life, with exit 1 for the other holder', () => {
    const n = node('cli');
    expect(lease(['status', n])).toMatchObject({
      code: 0,
      stdout: expect.stringContaining('no maintenance lease'),
    });

    const acquired = lease(['acquire', n, '--holder', 'alice', '--duration', '30']);
    expect(acquired).toMatchObject({ code: 0, stdout: expect.stringContaining("for 'alice' (created, 30s") });

    const refused = lease(['acquire', n, '--holder', 'bob']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`node ${n} is under maintenance by 'alice'`);

    const status = lease(['status', n, '--json']);
    expect(status.code).toBe(0);
    expect(JSON.parse(status.stdout)).toMatchObject({
      node: n,
      state: 'held',
      holder: 'alice',
      leaseDurationSeconds: 30,
      leaseTransitions: 0,
    });
    expect(lease(['status', n]).stdout).toMatch(/holder: +alice/);

    expect(lease(['renew', n, '--holder', 'alice'])).toMatchObject({ code: 0 });
    expect(lease(['renew', n, '--holder', 'bob'])).toMatchObject({
      code: 1,
      stderr: expect.stringContaining("it is held by 'alice'"),
    });
    expect(lease(['release', n, '--holder', 'bob'])).toMatchObject({
      code: 1,
      stderr: expect.stringContaining("held by 'alice', not released"),
    });
    expect(lease(['release', n, '--holder', 'alice'])).toMatchObject({
      code: 0,
      stdout: expect.stringContaining('released'),
    });
    expect(JSON.parse(lease(['status', n, '--json']).stdout)).toMatchObject({
      state: 'free',
      leaseDurationSeconds: 1,
    });
    expect(lease(['release', n, '--holder', 'alice'])).toMatchObject({
      code: 0,
      stdout: expect.stringContaining('nothing to release'),
    });

    // Free after the release: bob takes it at once.
    expect(lease(['acquire', n, '--holder', 'bob', '--json'])).toMatchObject({ code: 0 });
  });

  it('reports an administrator’s reservation and uses the medik8s layout', async () => {
    const n = node('reserved');
    await env.kubeConfig.makeApiClient(CoordinationV1Api).createNamespacedLease({
      namespace: env.namespace,
      body: { metadata: { name: n }, spec: { holderIdentity: 'kubeadm' } },
    });
    expect(lease(['acquire', n, '--holder', 'bot'])).toMatchObject({
      code: 1,
      stderr: expect.stringContaining("reserved by an administrator ('kubeadm')"),
    });

    const m = node('medik8s');
    expect(lease(['acquire', m, '--holder', 'NodeMaintenance', '--layout', 'medik8s'])).toMatchObject({
      code: 0,
    });
    expect(JSON.parse(lease(['status', m, '--layout', 'medik8s', '--json']).stdout)).toMatchObject({
      leaseName: `node-${m}`,
      holder: 'NodeMaintenance',
    });
  });

  it('rejects bad command lines with exit 2', () => {
    expect(lease(['acquire', 'n', '--holder', 'kubeadm-me'])).toMatchObject({
      code: 2,
      stderr: expect.stringContaining("reserved prefix 'kubeadm'"),
    });
    expect(lease(['acquire', 'n'])).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('needs --holder'),
    });
    expect(lease(['acquire', 'n', '--holder', 'a', '--duration', '3601'])).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('must not exceed 3600'),
    });
    expect(lease(['acquire', 'n', '--holder', 'a', '--duration', '2s'])).toMatchObject({ code: 2 });
    expect(lease(['grab', 'n', '--holder', 'a'])).toMatchObject({ code: 2 });
    expect(lease(['status'])).toMatchObject({ code: 2, stderr: expect.stringContaining('missing NODE') });
  });

  it.skipIf(noControlPlane('client-certificates'))(
    'exits 3 with the server’s message when RBAC forbids leases',
    async () => {
      const kubeconfig = writeKubeconfig('mallory', await env.kubeConfigFor('mallory', []));
      const result = lease(['acquire', node('rbac'), '--holder', 'mallory'], kubeconfig);
      expect(result.code).toBe(3);
      expect(result.stderr).toContain('User "mallory" cannot get resource "leases"');
      expect(result.stderr).toContain('(HTTP 403)');
      expect(lease(['status', 'x'], kubeconfig)).toMatchObject({ code: 3 });
    },
  );

  it('exits 3 when the API server cannot be reached', async () => {
    // A port that was just free: nothing listens there.
    const server = createServer();
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const { port } = server.address() as { port: number };
    server.close();
    await once(server, 'close');
    const kubeConfig = env.kubeConfig;
    const text = kubeConfig
      .exportConfig()
      .replace(/https:\/\/127\.0\.0\.1:\d+/g, `https://127.0.0.1:${port}`);
    const path = join(scratch, 'refused.kubeconfig');
    writeFileSync(path, text);
    const result = lease(['acquire', 'n', '--holder', 'a'], path);
    expect(result.code).toBe(3);
    expect(result.stderr).toMatch(/cannot reach the API server \(ECONNREFUSED\)/);
  });
});

describe.skipIf(noControlPlane())('capi-kit lease hold', () => {
  const children: ChildProcess[] = [];
  afterEach(() => {
    for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
  });

  /** hold runs until signalled, so it is spawned rather than run with runCli. */
  function startHold(n: string, holder: string) {
    const child = spawn(
      process.execPath,
      [cliBin, 'lease', 'hold', n, '--holder', holder, '--duration', '2', '--namespace', env.namespace],
      { env: { ...process.env, KUBECONFIG: env.kubeconfigPath }, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    children.push(child);
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (chunk) => {
      stdout += chunk;
    });
    child.stderr!.on('data', (chunk) => {
      stderr += chunk;
    });
    const lines = createInterface({ input: child.stdout! });
    const holding = (async () => {
      for await (const line of lines) if (line.startsWith('holding')) return true;
      return false;
    })();
    const exited = once(child, 'exit').then(([code]) => ({ code: code as number | null, stdout, stderr }));
    return { child, holding, exited, stderr: () => stderr };
  }

  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    it(`holds and keeps renewing until ${signal}, then releases`, async () => {
      const n = node('hold');
      const hold = startHold(n, 'cli-holder');
      expect(await hold.holding).toBe(true);
      const observer = libraryClient('observer');
      const first = await observer.inspect(n);
      expect(first).toMatchObject({ state: 'held', holder: 'cli-holder', leaseDurationSeconds: 2 });
      // Longer than the lease duration: only renewals keep it held.
      await new Promise((resolve) => setTimeout(resolve, 2500));
      const later = await observer.inspect(n);
      expect(later.holder).toBe('cli-holder');
      expect(later.renewTime!.getTime()).toBeGreaterThan(first.renewTime!.getTime());
      expect(await observer.tryAcquire(n)).toMatchObject({ acquired: false, because: 'held' });

      hold.child.kill(signal);
      const result = await hold.exited;
      expect(result.code).toBe(0);
      expect(result.stdout).toContain(`released the maintenance lease of node ${n} (${signal})`);
      expect(await observer.inspect(n)).toMatchObject({ state: 'free', holder: undefined });
    });
  }

  it('waits while someone else holds the lease, then holds it', async () => {
    const n = node('queued');
    const other = libraryClient('other');
    await other.tryAcquire(n);
    const hold = startHold(n, 'cli-holder');
    // It announces the wait, and gets the lease once the other holder releases.
    for (let i = 0; i < 100 && !hold.stderr().includes('waiting'); i++)
      await new Promise((r) => setTimeout(r, 50));
    expect(hold.stderr()).toContain('waiting: node ' + n + " is under maintenance by 'other'");
    await other.release(n);
    expect(await hold.holding).toBe(true);
    hold.child.kill('SIGTERM');
    expect((await hold.exited).code).toBe(0);
  });

  it('exits 1 when another holder takes the lease from it', async () => {
    const n = node('stolen');
    const hold = startHold(n, 'cli-holder');
    expect(await hold.holding).toBe(true);
    const api = env.kubeConfig.makeApiClient(CoordinationV1Api);
    const current = await api.readNamespacedLease({ name: n, namespace: env.namespace });
    current.spec!.holderIdentity = 'usurper';
    await api.replaceNamespacedLease({ name: n, namespace: env.namespace, body: current });
    const result = await hold.exited;
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("the lease is now held by 'usurper'");
  });
});
