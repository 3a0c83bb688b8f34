import { noControlPlane, useControlPlane } from '@capi-kit/envtest/vitest';
import type { V1Lease } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { NodeLeaseClient, type NodeLeaseClientOptions } from '../src/index.js';
import { leaseClient, leaseClientOptions, nodeName } from './helpers/clients.js';

const env = useControlPlane();
// Long enough that a lease left behind is still held when the test looks.
const timing = { leaseDurationSeconds: 30, renewDeadlineMs: 10_000, retryPeriodMs: 2_000 };

/**
 * A client whose caller aborts just as each acquiring write lands on the server: the write
 * is made, then the signal aborts before the answer is read, as when a caller gives up
 * while the request is in flight.
 */
class AbortAsWriteLands extends NodeLeaseClient {
  constructor(options: NodeLeaseClientOptions, abort: AbortController) {
    super(options);
    const api = this.api;
    for (const method of ['create', 'replace'] as const) {
      const write = api[method].bind(api);
      api[method] = async (namespace: string, body: V1Lease, signal?: AbortSignal) => {
        await write(namespace, body);
        abort.abort(new Error('caller gave up'));
        signal?.throwIfAborted();
        throw new Error('unreachable: the signal was aborted');
      };
    }
  }
}

describe.skipIf(noControlPlane())('an acquisition aborted while its write lands', () => {
  for (const [how, setUp] of [
    ['created', async () => {}],
    [
      'taken over from a released lease',
      async (node: string) => {
        const carol = leaseClient(env.kubeConfig, env.namespace, 'carol', { timing });
        await carol.tryAcquire(node);
        await carol.release(node);
      },
    ],
  ] as const) {
    it(`gives the lease back (${how}), so the node is not held by a caller that believes it holds nothing`, async () => {
      const node = nodeName('abort');
      await setUp(node);
      const abort = new AbortController();
      const alice = new AbortAsWriteLands(
        leaseClientOptions(env.kubeConfig, env.namespace, 'alice', { timing }),
        abort,
      );
      await expect(alice.tryAcquire(node, { signal: abort.signal })).rejects.toThrow('caller gave up');
      const bob = leaseClient(env.kubeConfig, env.namespace, 'bob', { timing });
      expect(await bob.tryAcquire(node)).toMatchObject({ acquired: true });
    });
  }

  it('keeps a lease the client already held before the aborted call', async () => {
    const node = nodeName('abort-held');
    const options = leaseClientOptions(env.kubeConfig, env.namespace, 'alice', { timing });
    await new NodeLeaseClient(options).tryAcquire(node);
    const abort = new AbortController();
    const alice = new AbortAsWriteLands(options, abort);
    await expect(alice.tryAcquire(node, { signal: abort.signal })).rejects.toThrow('caller gave up');
    const bob = leaseClient(env.kubeConfig, env.namespace, 'bob', { timing });
    expect(await bob.tryAcquire(node)).toMatchObject({ acquired: false, holder: 'alice' });
  });
});
