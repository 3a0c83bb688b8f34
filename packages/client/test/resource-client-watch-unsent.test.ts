import { getEventListeners } from 'node:events';
import { CustomObjectsApi, KubeConfig, Watch } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { ResourceClient } from '../src/index.js';
import { resourceInfo } from '../src/resources.js';

// `ResourceClient.watch()` when client-node fails before it sends the request: the Watch throws
// (no current cluster in the kubeconfig, a server URL it cannot parse). `watch()` rejected with
// that error, against the class's "nothing throws", and left its abort listener on the caller's
// signal. It must resolve to a handle whose `done` is `unreachable` (as `get` or `list` answer
// for the same kubeconfig), and take its listener off. Real KubeConfig and Watch objects: what
// fails here is client-node's own doing, before any server is asked.

/** A kubeconfig whose one cluster, current, has a server URL `new URL` refuses. */
function unparseableServer() {
  const kubeConfig = new KubeConfig();
  kubeConfig.loadFromOptions({
    clusters: [{ name: 'c', server: 'https://[not-a-host', skipTLSVerify: true }],
    users: [{ name: 'u', token: 't' }],
    contexts: [{ name: 'x', cluster: 'c', user: 'u' }],
    currentContext: 'x',
  });
  return kubeConfig;
}

/**
 * A client whose Watch (client-node's own) is built on `kubeConfig`. (Its CustomObjectsApi, which
 * `watch` does not use, is built on a kubeconfig with a cluster: client-node refuses to make one
 * on a kubeconfig without.)
 */
function clientOn(kubeConfig: KubeConfig) {
  const info = resourceInfo('cluster.x-k8s.io/v1beta1', 'MachineDeployment');
  if (info === undefined) throw new Error('no MachineDeployment at v1beta1');
  return new ResourceClient<unknown>(
    unparseableServer().makeApiClient(CustomObjectsApi),
    new Watch(kubeConfig),
    info,
  );
}

const cases = [
  ['no current cluster', () => new KubeConfig(), /No currently active cluster/],
  ['a server URL client-node cannot parse', unparseableServer, /Invalid URL/],
] as const;

describe('ResourceClient.watch when client-node fails before sending', () => {
  for (const [what, kubeConfig, cause] of cases) {
    it(`${what}: resolves to a handle whose done is unreachable, and the callback gets nothing`, async () => {
      const client = clientOn(kubeConfig());
      const seen: unknown[] = [];
      const handle = await client.watch({ namespace: 'ns' }, (event) => seen.push(event));
      const done = await handle.done;
      expect(done?.code).toBe('unreachable');
      expect(done?.message).toMatch(cause);
      expect(done?.message).toMatch(/^watch MachineDeployment/);
      expect(seen).toEqual([]);
      handle.stop(); // (after the end: nothing to do, nothing thrown)
      expect(await handle.done).toEqual(done);
    });

    it(`${what}: leaves no abort listener on the signal, after 20 watches`, async () => {
      const client = clientOn(kubeConfig());
      const signal = new AbortController().signal;
      for (let i = 0; i < 20; i++) {
        const handle = await client.watch({ signal }, () => {});
        expect((await handle.done)?.code).toBe('unreachable');
      }
      expect(getEventListeners(signal, 'abort')).toHaveLength(0);
    });
  }

  it('a signal already aborted: done resolves to undefined (stopped), no listener left', async () => {
    const client = clientOn(new KubeConfig());
    const controller = new AbortController();
    controller.abort();
    const handle = await client.watch({ signal: controller.signal }, () => {});
    expect(await handle.done).toBeUndefined();
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
  });
});
