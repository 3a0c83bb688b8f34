// stop() tears its watches down: a process that starts watches and stops them ends on its
// own, without process.exit. Before, a watch request still waiting for the server's answer
// when stop() came stayed open until client-node's 30 s inactivity timeout closed it, and
// the CLI's bin.ts had to exit explicitly to not wait for it.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { noControlPlane, useControlPlane } from '@capi-kit/envtest/vitest';
import { beforeAll, describe, expect, it } from 'vitest';

const crdRoot = fileURLToPath(new URL('../../../testdata/crds/', import.meta.url));
const script = fileURLToPath(new URL('./fixtures/start-stop.mjs', import.meta.url));
// Generous for a process that only has to return after "stopped" on a loaded machine, and
// still short of the 30 s a leftover watch kept it alive.
const EXIT_BOUND_MS = 20_000;

const env = useControlPlane();

/** Runs the script; resolves with how it ended, killing it if it outlives the bound after "stopped". */
async function startAndStop(mode: 'provider' | 'informer') {
  const child = spawn(process.execPath, [script, mode, env.kubeconfigPath, env.namespace], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const exited = once(child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
  let stderr = '';
  const stopped = new Promise<boolean>((resolve) => {
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
      if (stderr.includes('stopped\n')) resolve(true);
    });
    void exited.then(() => resolve(stderr.includes('stopped\n')));
  });
  if (!(await stopped)) return { stopped: false, endedOnItsOwn: false, stderr, code: (await exited)[0] };
  let bound: NodeJS.Timeout | undefined;
  const outcome = await Promise.race([
    exited.then(() => 'exited' as const),
    new Promise<'still running'>((resolve) => {
      bound = setTimeout(() => resolve('still running'), EXIT_BOUND_MS);
    }),
  ]);
  clearTimeout(bound);
  if (outcome === 'still running') child.kill('SIGKILL');
  const [code] = await exited;
  return { stopped: true, endedOnItsOwn: outcome === 'exited', stderr, code };
}

describe.skipIf(noControlPlane())('stop() leaves nothing running', { timeout: 180_000 }, () => {
  beforeAll(async () => {
    await env.installCRDs([join(crdRoot, 'v1alpha2')]);
  });

  it('a Machine informer stopped before its watch was answered: the process ends on its own', async () => {
    expect(await startAndStop('informer')).toMatchObject({ stopped: true, endedOnItsOwn: true, code: 0 });
  });

  it('a node group provider (informers and the Node cache) started and stopped: the process ends on its own', async () => {
    // Several runs: what is in flight when stop() comes differs from run to run.
    for (let run = 0; run < 3; run++) {
      expect(await startAndStop('provider'), `run ${run}`).toMatchObject({
        stopped: true,
        endedOnItsOwn: true,
        code: 0,
      });
    }
  });
});
