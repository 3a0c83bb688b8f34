import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CoreV1Api, KubeConfig } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { restRequest, startControlPlane } from '../src/index.js';
import { noControlPlane } from '../src/vitest/index.js';
import { eventually, processesMentioning } from './helpers/processes.js';

// Private control planes (not the shared one of the global setup): these tests stop,
// restart and kill them. They need the local backend.
describe.skipIf(noControlPlane('private-local'))('a private local control plane', () => {
  it('starts ready, serves the API, and stop() leaves no process or directory behind', async () => {
    const lines: string[] = [];
    const plane = await startControlPlane({ backend: 'local', log: (l) => lines.push(l) });
    const dir = dirname(plane.kubeconfigPath);
    try {
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(/^\[envtest\] local kube-apiserver \+ etcd from .*, ready in \d+ ms/);
      expect(plane.backend).toBe('local');
      expect(processesMentioning(dir).length).toBeGreaterThanOrEqual(2);

      const readyz = await restRequest(plane.kubeConfig, 'GET', '/readyz');
      expect(readyz.status).toBe(200);
      const version = await restRequest(plane.kubeConfig, 'GET', '/version');
      expect((version.body as { gitVersion: string }).gitVersion).toMatch(/^v1\.\d+\.\d+/);

      // The kubeconfig file stands alone: another client can load it.
      const fromFile = new KubeConfig();
      fromFile.loadFromFile(plane.kubeconfigPath);
      expect(fromFile.getCurrentCluster()?.server).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
      const names = (await fromFile.makeApiClient(CoreV1Api).listNamespace()).items.map(
        (n) => n.metadata?.name,
      );
      expect(names).toContain('default');
    } finally {
      await plane.stop();
    }
    expect(processesMentioning(dir)).toEqual([]);
    expect(existsSync(dir)).toBe(false);
    await plane.stop(); // a second stop is harmless
  });

  it('restartApiServer() keeps the data in etcd and the same credentials', async () => {
    const plane = await startControlPlane({ backend: 'local', log: () => {} });
    try {
      const ns = await plane.createNamespace('restart');
      const core = plane.kubeConfig.makeApiClient(CoreV1Api);
      await core.createNamespacedConfigMap({
        namespace: ns,
        body: { metadata: { name: 'kept' }, data: { a: '1' } },
      });
      await plane.restartApiServer();
      const read = await core.readNamespacedConfigMap({ namespace: ns, name: 'kept' });
      expect(read.data).toEqual({ a: '1' });
    } finally {
      await plane.stop();
    }
  });

  it('a start failure reports the last lines of the kube-apiserver and etcd logs', async () => {
    const error = await startControlPlane({
      backend: 'local',
      log: () => {},
      apiServerFlags: ['--no-such-flag=1'],
    }).then(
      () => undefined,
      (e: Error) => e,
    );
    expect(error?.message).toContain('control plane failed to start');
    expect(error?.message).toContain('--- last lines of kube-apiserver log ---');
    expect(error?.message).toMatch(/unknown flag: --no-such-flag/);
    expect(error?.message).toContain('--- last lines of etcd log ---');
  });

  it('serves as an "existing cluster" for another startControlPlane() via CAPI_KIT_ENVTEST_KUBECONFIG', async () => {
    const plane = await startControlPlane({ backend: 'local', log: () => {} });
    try {
      const lines: string[] = [];
      const existing = await startControlPlane({
        env: { ...process.env, CAPI_KIT_ENVTEST_KUBECONFIG: plane.kubeconfigPath },
        log: (l) => lines.push(l),
      });
      expect(existing.backend).toBe('existing');
      expect(lines[0]).toContain(`existing cluster from CAPI_KIT_ENVTEST_KUBECONFIG=${plane.kubeconfigPath}`);
      expect(lines[0]).toContain('local: available, not used');
      const ns = await existing.createNamespace('existing');
      const core = plane.kubeConfig.makeApiClient(CoreV1Api);
      expect((await core.readNamespace({ name: ns })).status?.phase).toBe('Active');
      await expect(existing.restartApiServer()).rejects.toThrow(/needs the local backend/);
      await expect(existing.kubeConfigFor('u')).rejects.toThrow(/client CA/);
      // stop() leaves the cluster running and deletes what this run created.
      await existing.stop();
      expect((await core.readNamespace({ name: ns })).metadata?.deletionTimestamp).toBeDefined();
    } finally {
      await plane.stop();
    }
  });

  it('nothing survives when the test process is killed with SIGKILL', async () => {
    const here = dirname(fileURLToPath(import.meta.url));
    const child = spawn(
      process.execPath,
      ['--conditions=@capi-kit/source', '--import', 'tsx', join(here, 'fixtures/start-and-hang.ts')],
      { cwd: join(here, '..'), stdio: ['ignore', 'pipe', 'inherit'] },
    );
    const line = await new Promise<string>((resolve, reject) => {
      let out = '';
      child.stdout.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        if (out.includes('\n')) resolve(out.split('\n')[0] ?? '');
      });
      child.once('exit', (code) => reject(new Error(`fixture exited early with ${code}`)));
    });
    const dir = dirname((JSON.parse(line) as { kubeconfigPath: string }).kubeconfigPath);
    expect(processesMentioning(dir).length).toBeGreaterThanOrEqual(2);

    child.kill('SIGKILL');
    // The guards see their stdin pipe close, stop etcd and kube-apiserver, then remove the
    // directory. kube-apiserver's graceful shutdown takes a few seconds.
    expect(await eventually(() => processesMentioning(dir).length === 0, 30_000)).toBe(true);
    expect(await eventually(() => !existsSync(dir), 5_000)).toBe(true);
  });
});
