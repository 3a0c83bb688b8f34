import {
  type AnswerProxy,
  type AnswerRule,
  type ServedAnswer as LeaseAnswer,
  type AnswerReplacement as Replacement,
  startAnswerProxy,
} from '@capi-kit/envtest/answer-proxy';
import { noControlPlane, useControlPlane } from '@capi-kit/envtest/vitest';
import { CoordinationV1Api, CoreV1Api } from '@kubernetes/client-node';
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

const unreadable = (path: string, what = 'the Lease asked for') => ({
  name: 'LeaseApiError',
  code: 'unreadable-lease',
  status: 200,
  path,
  message: expect.stringContaining(`the server's answer is not ${what}`),
});

type LeaseList = { metadata: Record<string, unknown>; items: unknown[] } & Record<string, unknown>;

/** The real list answer, changed by `change`. */
const editList =
  (change: (list: LeaseList) => unknown) =>
  (answer: LeaseAnswer): Replacement => ({ json: change(structuredClone(answer.json) as LeaseList) });
/** The real list answer with every item changed by `change` (so that items[0] is a changed one). */
const editItems = (change: (lease: Lease) => unknown) =>
  editList((list) => ({ ...list, items: (list.items as Lease[]).map(change) }));

/** Hostile answers to the list (GET .../leases) that watch() starts from: each, the path its error names. */
const listCases: ReadonlyArray<readonly [string, (answer: LeaseAnswer) => Replacement, string]> = [
  ['an HTML page', html, ''],
  ['null', () => ({ json: null }), ''],
  ['{}', () => ({ json: {} }), 'metadata'],
  ['another kind', editList((l) => ({ ...l, kind: 'ConfigMapList' })), 'kind'],
  [
    'no resourceVersion',
    editList((l) => ({ ...l, metadata: { ...l.metadata, resourceVersion: undefined } })),
    'metadata.resourceVersion',
  ],
  ['no items', editList((l) => ({ ...l, items: undefined })), 'items'],
  ['items that are an object', editList((l) => ({ ...l, items: { free: true } })), 'items'],
  ['an item that is a string', editList((l) => ({ ...l, items: ['free', ...l.items] })), 'items[0]'],
  ['an item that is null', editList((l) => ({ ...l, items: [null, ...l.items] })), 'items[0]'],
  ['an item without metadata', editItems((l) => ({ ...l, metadata: undefined })), 'items[0].metadata'],
  [
    'an item with a numeric name',
    editItems((l) => ({ ...l, metadata: { ...l.metadata, name: 7 } })),
    'items[0].metadata.name',
  ],
  [
    'an item in another namespace',
    editItems((l) => ({ ...l, metadata: { ...l.metadata, namespace: 'default' } })),
    'items[0].metadata.namespace',
  ],
  [
    'an item with a numeric holder',
    editItems((l) => ({ ...l, spec: { ...l.spec, holderIdentity: 7 } })),
    'items[0].spec.holderIdentity',
  ],
  [
    'an item with a duration as text',
    editItems((l) => ({ ...l, spec: { ...l.spec, leaseDurationSeconds: '15' } })),
    'items[0].spec.leaseDurationSeconds',
  ],
  [
    'an item with a time that is not MicroTime',
    editItems((l) => ({ ...l, spec: { ...l.spec, renewTime: 'now' } })),
    'items[0].spec.renewTime',
  ],
];

type Node = { metadata: Record<string, unknown> } & Record<string, unknown>;
const editNode =
  (change: (node: Node) => unknown) =>
  (answer: LeaseAnswer): Replacement => ({ json: change(structuredClone(answer.json) as Node) });

/** Hostile answers to the read of the Node an ownerReference names: each, the path its error names. */
const nodeCases: ReadonlyArray<readonly [string, (answer: LeaseAnswer) => Replacement, string]> = [
  ['an HTML page', html, ''],
  ['an array', () => ({ json: [] }), ''],
  ['{}', () => ({ json: {} }), 'metadata'],
  ['another kind', editNode((n) => ({ ...n, kind: 'Namespace' })), 'kind'],
  ['another name', editNode((n) => ({ ...n, metadata: { ...n.metadata, name: 'other' } })), 'metadata.name'],
  ['no uid', editNode((n) => ({ ...n, metadata: { ...n.metadata, uid: undefined } })), 'metadata.uid'],
  ['a numeric uid', editNode((n) => ({ ...n, metadata: { ...n.metadata, uid: 42 } })), 'metadata.uid'],
];

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

  it.each(listCases)(
    'the list (GET .../leases) is answered with %s: watch() fails naming the path, reports no lease as free',
    async (_, rewrite, path) => {
      await freeLease(nodeName('list'));
      proxy.rewrite({ method: 'GET', path: /\/leases$/, answer: rewrite });
      const changes = client.watch({ timeoutSeconds: 1 });
      try {
        await expect(changes.next()).rejects.toMatchObject(unreadable(path, 'the LeaseList asked for'));
      } finally {
        await changes.return?.();
      }
      expect(proxy.state.rewrites).toBeGreaterThan(0);
    },
  );

  it('passes the Node read through unchanged: the ownerReference carries the real uid', async () => {
    const node = nodeName('owner-through');
    const core = env.kubeConfig.makeApiClient(CoreV1Api);
    const created = await core.createNode({ body: { metadata: { name: node } } });
    try {
      const owned = leaseClient(proxy.kubeConfig, env.namespace, 'ts-agent', { ownerReference: true });
      expect(await owned.tryAcquire(node)).toMatchObject({ acquired: true, how: 'created' });
      const lease = await direct().readNamespacedLease({ name: node, namespace: env.namespace });
      expect(lease.metadata?.ownerReferences).toEqual([
        expect.objectContaining({ kind: 'Node', name: node, uid: created.metadata?.uid }),
      ]);
    } finally {
      await core.deleteNode({ name: node });
    }
  });

  it.each(nodeCases)(
    'the Node read for an ownerReference is answered with %s: not acquired, no lease created',
    async (_, rewrite, path) => {
      const node = nodeName('owner');
      const core = env.kubeConfig.makeApiClient(CoreV1Api);
      await core.createNode({ body: { metadata: { name: node } } });
      try {
        proxy.rewrite({ method: 'GET', path: `/api/v1/nodes/${node}`, answer: rewrite });
        const owned = leaseClient(proxy.kubeConfig, env.namespace, 'ts-agent', { ownerReference: true });
        await expect(owned.tryAcquire(node)).rejects.toMatchObject(unreadable(path, 'the Node asked for'));
        expect(proxy.state.rewrites).toBeGreaterThan(0);
        await expect(
          direct().readNamespacedLease({ name: node, namespace: env.namespace }),
        ).rejects.toMatchObject({ code: 404 });
      } finally {
        await core.deleteNode({ name: node });
      }
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
