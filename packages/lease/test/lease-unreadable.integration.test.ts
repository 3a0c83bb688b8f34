import {
  type AnswerProxy,
  type AnswerRule,
  type ServedAnswer as LeaseAnswer,
  type AnswerReplacement as Replacement,
  startAnswerProxy,
} from '@capi-kit/envtest/answer-proxy';
import { noControlPlane, useControlPlane } from '@capi-kit/envtest/vitest';
import { CoordinationV1Api } from '@kubernetes/client-node';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { formatMicroTime, type NodeLeaseClient } from '../src/index.js';
import { leaseClient, nodeName } from './helpers/clients.js';

/**
 * Answers a real API server never gives, from a proxy in front of the real one: each must be
 * an `unreadable-lease` error naming the JSON path, never a free lease or an acquisition.
 */
const env = useControlPlane();
const direct = () => env.kubeConfig.makeApiClient(CoordinationV1Api);
const leasePath = /^\/apis\/coordination\.k8s\.io\/v1\/namespaces\/[^/]+\/leases(\/|$)/;
let proxy: AnswerProxy;
/** Replaces the answers to Lease calls (not watches) by `rewrite` from now on (none: passes them through). */
const reset = (rewrite?: AnswerRule['answer']) =>
  proxy.rewrite(rewrite && { path: leasePath, answer: rewrite });

/** A free (released) lease on the real server, so that every read answers 200. */
async function freeLease(node: string) {
  const now = formatMicroTime(new Date());
  await direct().createNamespacedLease({
    namespace: env.namespace,
    body: {
      metadata: { name: node },
      spec: { holderIdentity: '', leaseDurationSeconds: 1, acquireTime: now, renewTime: now } as never,
    },
  });
}

const stored = async (node: string) =>
  (await direct().readNamespacedLease({ name: node, namespace: env.namespace })).spec?.holderIdentity;

type Lease = { metadata: Record<string, unknown>; spec: Record<string, unknown> } & Record<string, unknown>;

/** The real answer, changed by `change` (a Lease answer only). */
const edit =
  (change: (lease: Lease) => unknown) =>
  (answer: LeaseAnswer): Replacement | undefined => {
    const lease = structuredClone(answer.json) as Lease;
    return { json: change(lease) };
  };
const html = (): Replacement => ({
  text: '<!doctype html><html><body>Sign in to continue</body></html>',
  contentType: 'text/html; charset=utf-8',
});

/** Hostile answers to the read (GET): each, the path its error names. */
const readCases: ReadonlyArray<readonly [string, (answer: LeaseAnswer) => Replacement | undefined, string]> =
  [
    ['an HTML page', html, ''],
    [
      'JSON text served as text/plain',
      (a) => ({ text: JSON.stringify(a.json), contentType: 'text/plain' }),
      '',
    ],
    ['not JSON', () => ({ text: '{"kind":"Lease",', contentType: 'application/json' }), ''],
    ['null', () => ({ json: null }), ''],
    ['an array', () => ({ json: [] }), ''],
    ['{}', () => ({ json: {} }), 'metadata'],
    [
      'another kind',
      edit((l) => ({ ...l, apiVersion: 'v1', kind: 'ConfigMap', spec: undefined, data: { a: 'b' } })),
      'kind',
    ],
    ['another apiVersion', edit((l) => ({ ...l, apiVersion: 'coordination.k8s.io/v1beta1' })), 'apiVersion'],
    ['another name', edit((l) => ({ ...l, metadata: { ...l.metadata, name: 'other' } })), 'metadata.name'],
    [
      'another namespace',
      edit((l) => ({ ...l, metadata: { ...l.metadata, namespace: 'default' } })),
      'metadata.namespace',
    ],
    [
      'no resourceVersion',
      edit((l) => ({ ...l, metadata: { ...l.metadata, resourceVersion: undefined } })),
      'metadata.resourceVersion',
    ],
    [
      'a numeric resourceVersion',
      edit((l) => ({ ...l, metadata: { ...l.metadata, resourceVersion: 42 } })),
      'metadata.resourceVersion',
    ],
    ['a spec that is a string', edit((l) => ({ ...l, spec: 'free' })), 'spec'],
    [
      'a numeric holder',
      edit((l) => ({ ...l, spec: { ...l.spec, holderIdentity: 7 } })),
      'spec.holderIdentity',
    ],
    [
      'a duration as text',
      edit((l) => ({ ...l, spec: { ...l.spec, leaseDurationSeconds: '15' } })),
      'spec.leaseDurationSeconds',
    ],
    [
      'a fractional duration',
      edit((l) => ({ ...l, spec: { ...l.spec, leaseDurationSeconds: 1.5 } })),
      'spec.leaseDurationSeconds',
    ],
    [
      'a time that is not MicroTime',
      edit((l) => ({ ...l, spec: { ...l.spec, acquireTime: 'yesterday' } })),
      'spec.acquireTime',
    ],
    [
      'a numeric time',
      edit((l) => ({ ...l, spec: { ...l.spec, renewTime: 1_700_000_000 } })),
      'spec.renewTime',
    ],
    [
      'transitions as text',
      edit((l) => ({ ...l, spec: { ...l.spec, leaseTransitions: '1' } })),
      'spec.leaseTransitions',
    ],
  ];

const unreadable = (path: string) => ({
  name: 'LeaseApiError',
  code: 'unreadable-lease',
  status: 200,
  path,
  message: expect.stringContaining("the server's answer is not the Lease asked for"),
});

describe.skipIf(noControlPlane())('answers that are not the Lease asked for', () => {
  let client: NodeLeaseClient;
  beforeAll(async () => {
    proxy = await startAnswerProxy(env.kubeConfig);
  });
  afterAll(() => proxy.close());
  beforeEach(() => {
    reset();
    client = leaseClient(proxy.kubeConfig, env.namespace, 'ts-agent');
  });

  it('passes the real server through unchanged (the proxy alone changes nothing)', async () => {
    const node = nodeName('through');
    expect(await client.inspect(node)).toMatchObject({ state: 'absent' });
    expect(await client.tryAcquire(node)).toMatchObject({ acquired: true, how: 'created' });
    expect(await client.renew(node)).toMatchObject({ renewed: true });
    expect(await client.release(node)).toMatchObject({ released: true });
  });

  it.each(readCases)(
    'the read (GET) is answered with %s: inspect, tryAcquire, renew, release fail naming the path; nothing is written',
    async (_, rewrite, path) => {
      const node = nodeName('read');
      await freeLease(node);
      reset((answer) => (answer.method === 'GET' ? rewrite(answer) : undefined));
      await expect(client.inspect(node)).rejects.toMatchObject(unreadable(path));
      await expect(client.tryAcquire(node)).rejects.toMatchObject(unreadable(path));
      await expect(client.renew(node)).rejects.toMatchObject(unreadable(path));
      await expect(client.release(node)).rejects.toMatchObject(unreadable(path));
      expect(proxy.state.rewrites).toBeGreaterThan(0);
      // Nothing was written on the real server: the lease is as free as it was.
      expect(await stored(node)).toBe('');
    },
  );

  const writeCases: ReadonlyArray<
    readonly [string, (answer: LeaseAnswer) => Replacement | undefined, string]
  > = [
    ['an HTML page', html, ''],
    ['{}', () => ({ json: {} }), 'metadata'],
    [
      'another holder',
      edit((l) => ({ ...l, spec: { ...l.spec, holderIdentity: 'someone-else' } })),
      'spec.holderIdentity',
    ],
    [
      'no holder',
      edit((l) => ({ ...l, spec: { ...l.spec, holderIdentity: undefined } })),
      'spec.holderIdentity',
    ],
    ['another name', edit((l) => ({ ...l, metadata: { ...l.metadata, name: 'other' } })), 'metadata.name'],
  ];

  it.each(writeCases)('the create (POST) is answered with %s: not acquired', async (_, rewrite, path) => {
    const node = nodeName('create');
    reset((answer) => (answer.method === 'POST' ? rewrite(answer) : undefined));
    await expect(client.tryAcquire(node)).rejects.toMatchObject(unreadable(path));
    expect(proxy.state.rewrites).toBe(1);
  });

  it.each(writeCases)(
    'the update (PUT) is answered with %s: not acquired, not renewed',
    async (_, rewrite, path) => {
      const node = nodeName('update');
      await freeLease(node);
      reset((answer) => (answer.method === 'PUT' ? rewrite(answer) : undefined));
      await expect(client.tryAcquire(node)).rejects.toMatchObject(unreadable(path));
      // (the write itself reached the real server: this client holds it there, and may renew)
      reset();
      expect(await stored(node)).toBe('ts-agent');
      reset((answer) => (answer.method === 'PUT' ? rewrite(answer) : undefined));
      await expect(client.renew(node)).rejects.toMatchObject(unreadable(path));
    },
  );

  it('a release answered with a holder other than the empty one written is not released', async () => {
    const node = nodeName('release');
    expect(await client.tryAcquire(node)).toMatchObject({ acquired: true });
    reset((answer) =>
      answer.method === 'PUT'
        ? edit((l) => ({ ...l, spec: { ...l.spec, holderIdentity: 'ts-agent' } }))(answer)
        : undefined,
    );
    await expect(client.release(node)).rejects.toMatchObject(unreadable('spec.holderIdentity'));
  });
});
