import { KubeConfig } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { isNodeWithoutLease, LeaseConfigError } from '../src/errors.js';
import { checkHolderIdentity, isReservedHolder } from '../src/holder-identity.js';
import { defaultLeaseNamespace, medik8sLeases, nodeNamedLeases } from '../src/location.js';
import { NodeLeaseClient } from '../src/node-lease-client.js';
import { NodeLeaseObserver } from '../src/node-lease-observer.js';

describe('holder identity', () => {
  it('accepts ordinary identities', () => {
    expect(checkHolderIdentity('reboot-agent/node-7')).toBe('reboot-agent/node-7');
  });

  it('refuses empty identities and the administrators’ kubeadm prefix', () => {
    expect(() => checkHolderIdentity('')).toThrow(LeaseConfigError);
    expect(() => checkHolderIdentity('  ')).toThrow(/required/);
    expect(() => checkHolderIdentity('kubeadm')).toThrow(/reserved prefix 'kubeadm'/);
    expect(() => checkHolderIdentity('kubeadm-alice')).toThrow(LeaseConfigError);
    expect(() => checkHolderIdentity('kubeadm-alice')).toThrow(
      expect.objectContaining({ code: 'invalid-config', path: 'holderIdentity' }),
    );
  });

  it('recognises reserved holders by prefix only', () => {
    expect(isReservedHolder('kubeadm:alice')).toBe(true);
    expect(isReservedHolder('alice-kubeadm')).toBe(false);
    expect(isReservedHolder('')).toBe(false);
    expect(isReservedHolder(undefined)).toBe(false);
  });
});

describe('lease location', () => {
  it('defaults to the KEP layout', () => {
    const location = nodeNamedLeases();
    expect(location.namespace).toBe(defaultLeaseNamespace);
    expect(location.namespace).toBe('kube-node-maintenance');
    expect(location.leaseName('worker-1')).toBe('worker-1');
    expect(location.nodeOf('worker-1')).toBe('worker-1');
  });

  it('has a medik8s preset: medik8s-leases, node-<node>', () => {
    const location = medik8sLeases();
    expect(location.namespace).toBe('medik8s-leases');
    expect(location.leaseName('worker-1')).toBe('node-worker-1');
    expect(location.nodeOf('node-worker-1')).toBe('worker-1');
    expect(location.nodeOf('machine-x')).toBeUndefined();
    expect(medik8sLeases('other').namespace).toBe('other');
  });
});

describe('node names and namespaces go into request paths', () => {
  // No request is made: the checks come first. (`inspect('.')` read the whole Lease list
  // and judged it one free lease; `inspect('..')` read the Namespace.)
  const kubeConfig = new KubeConfig();
  kubeConfig.loadFromOptions({
    clusters: [{ name: 'c', server: 'https://127.0.0.1:9', skipTLSVerify: false }],
    users: [{ name: 'u', token: 't' }],
    contexts: [{ name: 'x', cluster: 'c', user: 'u' }],
    currentContext: 'x',
  });

  it.each(['', '.', '..', 'a/b', 'Node_1', 'x'.repeat(254)])(
    'refuses node %j before any request',
    async (node) => {
      const observer = new NodeLeaseObserver({ kubeConfig });
      await expect(observer.inspect(node)).rejects.toMatchObject({ code: 'invalid-config', path: 'node' });
      const client = new NodeLeaseClient({ kubeConfig, holderIdentity: 'agent-1' });
      await expect(client.tryAcquire(node)).rejects.toBeInstanceOf(LeaseConfigError);
    },
  );

  it('refuses a node whose lease name in the layout is too long, before any request', async () => {
    // (a valid 250-character node name is a 255-character medik8s lease name: the server's 422)
    const observer = new NodeLeaseObserver({ kubeConfig, location: medik8sLeases() });
    await expect(observer.inspect('n'.repeat(250))).rejects.toMatchObject({
      code: 'invalid-config',
      path: 'node',
      message: expect.stringContaining('has no valid lease name in this layout'),
    });
  });

  it('isNodeWithoutLease: a node with no lease in the layout, not a misconfigured client', async () => {
    const observer = new NodeLeaseObserver({ kubeConfig, location: medik8sLeases() });
    const unnamed = await observer.inspect('n'.repeat(250)).catch((e: unknown) => e);
    const invalid = await observer.inspect('a/b').catch((e: unknown) => e);
    const namespace = await new NodeLeaseObserver({ kubeConfig, location: nodeNamedLeases('../x') })
      .inspect('n1')
      .catch((e: unknown) => e);
    expect([unnamed, invalid, namespace].map(isNodeWithoutLease)).toEqual([true, true, false]);
    expect(isNodeWithoutLease(new Error('node'))).toBe(false);
  });

  it('refuses a lease namespace that is not a namespace name', async () => {
    const observer = new NodeLeaseObserver({ kubeConfig, location: nodeNamedLeases('../x') });
    await expect(observer.inspect('n1')).rejects.toMatchObject({ code: 'invalid-config', path: 'namespace' });
  });

  // (a client there took an expired kubelet heartbeat, named after its node, and renewed it:
  // the node lifecycle controller then saw a dead node alive)
  it('refuses kube-node-lease, the kubelets’ heartbeat namespace, in every layout', async () => {
    for (const location of [nodeNamedLeases('kube-node-lease'), medik8sLeases('kube-node-lease')]) {
      const client = new NodeLeaseClient({ kubeConfig, location, holderIdentity: 'agent' });
      const refused = expect.objectContaining({
        code: 'invalid-config',
        path: 'namespace',
        message: expect.stringContaining('heartbeat'),
      });
      await expect(client.tryAcquire('n1')).rejects.toEqual(refused);
      await expect(client.inspect('n1')).rejects.toEqual(refused);
      expect(() => client.watch({ signal: AbortSignal.abort() })).toThrow(refused);
    }
  });

  // (`namespace: '..'` or `''` listed and watched the leases of every namespace, and reported
  // kube-node-lease's kubelet heartbeats as nodes under maintenance; `'A B'` watched nothing)
  it.each(['..', '', '.', 'A B', 'x/y'])(
    'watch() refuses the lease namespace %j before any request',
    (namespace) => {
      const observer = new NodeLeaseObserver({ kubeConfig, namespace });
      expect(() => observer.watch({ signal: AbortSignal.abort() })).toThrow(
        expect.objectContaining({ code: 'invalid-config', path: 'namespace' }),
      );
    },
  );
});

describe('options are checked when the client is built', () => {
  const kubeConfig = new KubeConfig();
  kubeConfig.loadFromOptions({
    clusters: [{ name: 'c', server: 'https://127.0.0.1:9', skipTLSVerify: false }],
    users: [{ name: 'u', token: 't' }],
    contexts: [{ name: 'x', cluster: 'c', user: 'u' }],
    currentContext: 'x',
  });

  // (each went to the request's timer: NaN, -1, 1.5, Infinity and 5e12 failed every request as
  // "cannot reach the API server (ERR_OUT_OF_RANGE)", 3e9 timed every request out after 1 ms)
  it.each([Number.NaN, -1, 0, 1.5, Number.POSITIVE_INFINITY, 3e9, 5e12])(
    'refuses requestTimeoutMs %s',
    (requestTimeoutMs) => {
      const build = () => new NodeLeaseObserver({ kubeConfig, requestTimeoutMs });
      expect(build).toThrow(LeaseConfigError);
      expect(build).toThrow(
        expect.objectContaining({
          path: 'requestTimeoutMs',
          message: expect.stringContaining(`(got ${requestTimeoutMs})`),
        }),
      );
      expect(() => new NodeLeaseClient({ kubeConfig, holderIdentity: 'a', requestTimeoutMs })).toThrow(
        LeaseConfigError,
      );
    },
  );

  it('accepts a whole number of milliseconds up to 2^31 - 1', () => {
    expect(() => new NodeLeaseObserver({ kubeConfig, requestTimeoutMs: 1 })).not.toThrow();
    expect(() => new NodeLeaseObserver({ kubeConfig, requestTimeoutMs: 2 ** 31 - 1 })).not.toThrow();
  });
});
