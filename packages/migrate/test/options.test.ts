import { createServer, type Server } from 'node:net';
import { KubeConfig } from '@kubernetes/client-node';
import * as E from 'fp-ts/lib/Either.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  applyClusterMigration,
  type MigrationOptions,
  planClusterMigration,
  pruneClusterMigration,
  verifyClusterMigration,
} from '../src/index.js';

// The library's options go into request paths: `scope.namespace` '..' addressed the
// cluster-wide collection (every namespace), 'a/b' another resource. They are refused
// before any request. The kubeconfig points at a socket that only counts connections: any
// request at all would be counted (and fail as an API error instead).

let server: Server;
let connections = 0;
let kubeConfig: KubeConfig;

beforeAll(async () => {
  server = createServer((socket) => {
    connections++;
    socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  kubeConfig = new KubeConfig();
  kubeConfig.loadFromOptions({
    clusters: [{ name: 'c', server: `http://127.0.0.1:${address.port}`, skipTLSVerify: true }],
    users: [{ name: 'u', token: 'x' }],
    contexts: [{ name: 'ctx', cluster: 'c', user: 'u' }],
    currentContext: 'ctx',
  });
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

const steps = {
  plan: planClusterMigration,
  apply: applyClusterMigration,
  verify: verifyClusterMigration,
  prune: pruneClusterMigration,
} as const;

const NAMESPACE_RULE =
  "is not a namespace name (lowercase letters, digits and '-', at most 63 characters, starting and ending with a letter or digit)";

const cases: [string, unknown, string, string][] = [
  ['..', { namespace: '..' }, 'scope.namespace', `scope.namespace ".." ${NAMESPACE_RULE}`],
  ['.', { namespace: '.' }, 'scope.namespace', `scope.namespace "." ${NAMESPACE_RULE}`],
  ['empty', { namespace: '' }, 'scope.namespace', `scope.namespace "" ${NAMESPACE_RULE}`],
  ['a/b', { namespace: 'a/b' }, 'scope.namespace', `scope.namespace "a/b" ${NAMESPACE_RULE}`],
  ['upper case', { namespace: 'Prod' }, 'scope.namespace', `scope.namespace "Prod" ${NAMESPACE_RULE}`],
  [
    'too long',
    { namespace: 'a'.repeat(64) },
    'scope.namespace',
    `scope.namespace "${'a'.repeat(64)}" ${NAMESPACE_RULE}`,
  ],
  ['not a string', { namespace: 7 }, 'scope.namespace', `scope.namespace 7 ${NAMESPACE_RULE}`],
  [
    'allNamespaces false',
    { allNamespaces: false },
    'scope.allNamespaces',
    'scope.allNamespaces must be true (got false); for one namespace give scope.namespace',
  ],
  [
    'both',
    { namespace: 'a', allNamespaces: true },
    'scope',
    'scope gives both namespace and allNamespaces: give one',
  ],
];

describe('migrate refuses unusable options before any request', () => {
  it.each(cases)('scope %s', async (_name, scope, path, message) => {
    const before = connections;
    for (const [name, run] of Object.entries(steps)) {
      const options = { kubeConfig, scope, plugins: [] } as unknown as MigrationOptions;
      const result = await run(options);
      expect(E.isLeft(result) && result.left, name).toEqual({ code: 'invalid-options', path, message });
    }
    expect(connections).toBe(before);
  });

  it('a pageSize that is not a positive whole number, or a target that is not a version', async () => {
    const before = connections;
    for (const [pageSize, shown] of [
      [0, '0'],
      [-1, '-1'],
      [1.5, '1.5'],
      [Number.NaN, 'NaN'],
    ] as const) {
      const result = await planClusterMigration({
        kubeConfig,
        scope: { namespace: 'a' },
        plugins: [],
        pageSize,
      });
      expect(E.isLeft(result) && result.left).toEqual({
        code: 'invalid-options',
        path: 'pageSize',
        message: `pageSize must be a positive whole number (got ${shown})`,
      });
    }
    const result = await planClusterMigration({
      kubeConfig,
      scope: { namespace: 'a' },
      plugins: [],
      to: 'cluster.k8s.io/v1alpha1' as never,
    });
    expect(E.isLeft(result) && result.left).toEqual({
      code: 'invalid-options',
      path: 'to',
      message: 'to "cluster.k8s.io/v1alpha1" is not a cluster.x-k8s.io version from v1alpha2 to v1beta2',
    });
    expect(connections).toBe(before);
  });

  it('a valid scope does reach the server (the counter counts)', async () => {
    const before = connections;
    const result = await planClusterMigration({ kubeConfig, scope: { namespace: 'a' }, plugins: [] });
    expect(E.isLeft(result) && result.left.code).toBe('api');
    expect(connections).toBeGreaterThan(before);
  });
});
