import { getEventListeners } from 'node:events';
import { noControlPlane, useControlPlane } from '@capi-kit/envtest/vitest';
import { CustomObjectsApi, KubeConfig, Watch } from '@kubernetes/client-node';
import { beforeAll, describe, expect, it } from 'vitest';
import { type CapiClient, connect, ResourceClient } from '../src/index.js';
import { capiCrdDirs, unwrap } from './helpers/fixtures.js';

// `ResourceClient.watch()` adds an abort listener to the caller's `signal`. It stayed there after
// the watch ended, however it ended (stopped, refused by the server, failed before sending), so a
// caller that retries with one long-lived signal piled up a listener (and a closure holding the
// watch) per attempt. Each ended watch must take its listener off; a running one keeps it.
const cp = useControlPlane();

const N = 5;

describe.skipIf(noControlPlane())('ResourceClient.watch leaves no abort listener on the signal', () => {
  let client: CapiClient;

  beforeAll(async () => {
    for (const dir of capiCrdDirs) await cp.installCRDs(dir);
    client = unwrap(await connect(cp.kubeConfig));
  });

  const machines = () => unwrap(client.resource('cluster.x-k8s.io/v1alpha2', 'Machine'));
  const listeners = (signal: AbortSignal) => getEventListeners(signal, 'abort').length;

  it(`after ${N} watches that failed before sending and ${N} that ran and were stopped`, async () => {
    const signal = new AbortController().signal;
    // (client-node's own Watch on a kubeconfig without a current cluster: it throws before sending)
    const unsent = new ResourceClient<unknown>(
      cp.kubeConfig.makeApiClient(CustomObjectsApi),
      new Watch(new KubeConfig()),
      machines().info,
    );
    for (let i = 0; i < N; i++) {
      const failed = await unsent.watch({ namespace: cp.namespace, signal }, () => {});
      expect((await failed.done)?.code).toBe('unreachable');

      const from = unwrap(await machines().list({ namespace: cp.namespace })).resourceVersion;
      const running = await machines().watch(
        { namespace: cp.namespace, resourceVersion: from, signal },
        () => {},
      );
      expect(listeners(signal)).toBe(1); // (running: an abort must still stop it)
      running.stop();
      expect(await running.done).toBeUndefined();
    }
    expect(listeners(signal)).toBe(0);
  });

  it(`after ${N} watches that ran and were stopped (none failing)`, async () => {
    const signal = new AbortController().signal;
    for (let i = 0; i < N; i++) {
      const from = unwrap(await machines().list({ namespace: cp.namespace })).resourceVersion;
      const running = await machines().watch(
        { namespace: cp.namespace, resourceVersion: from, signal },
        () => {},
      );
      running.stop();
      expect(await running.done).toBeUndefined();
    }
    expect(listeners(signal)).toBe(0);
  });

  it(`after ${N} watches the server ended at once (a resourceVersion it refuses), and one aborted`, async () => {
    const signal = new AbortController().signal;
    const aborting = new AbortController();
    const from = unwrap(await machines().list({ namespace: cp.namespace })).resourceVersion;
    const aborted = await machines().watch(
      { namespace: cp.namespace, resourceVersion: from, signal: aborting.signal },
      () => {},
    );
    expect(listeners(aborting.signal)).toBe(1);
    aborting.abort();
    expect(await aborted.done).toBeUndefined();
    expect(listeners(aborting.signal)).toBe(0);
    for (let i = 0; i < N; i++) {
      const refused = await machines().watch(
        { namespace: cp.namespace, resourceVersion: 'x', signal },
        () => {},
      );
      expect(await refused.done).toBeDefined();
    }
    expect(listeners(signal)).toBe(0);
  });
});
