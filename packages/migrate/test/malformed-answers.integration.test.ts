import { type AnswerRule, startAnswerProxy } from '@capi-kit/envtest/answer-proxy';
import { noControlPlane, useControlPlane } from '@capi-kit/envtest/vitest';
import { awsConversionPlugin } from '@capi-kit/providers-aws';
import { CustomObjectsApi, type KubeConfig } from '@kubernetes/client-node';
import * as E from 'fp-ts/lib/Either.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  applyClusterMigration,
  type MigrationOptions,
  planClusterMigration,
  pruneClusterMigration,
  verifyClusterMigration,
} from '../src/index.js';
import { awsMigrationOptions, crdDirs, seedSourceCluster } from './support/source-cluster.js';

// A server that answers 200 with something that is not a Kubernetes API answer (an HTML
// login page from a proxy, `{}`, a discovery document or a list with wrong types, a list
// whose continue token comes back): every step returns an API error naming what was
// expected and what was found, never throws a TypeError, and never pages for ever. The
// answers come from a real API server, rewritten by a proxy in front of it.

const env = useControlPlane();

/** A replacement answer: the body, sent as `contentType` (default JSON) with status 200. */
interface Answer {
  readonly body: string;
  readonly contentType?: string;
}

/**
 * What to replace: GET requests whose path matches `path`, answered 200 by the server. `answer`
 * gets the server's body (parsed JSON, else the text) and how many such answers came before
 * this one; it returns the replacement, or undefined to pass the server's answer through.
 */
interface Rewrite {
  readonly path: RegExp;
  readonly answer: (served: unknown, count: number) => Answer | undefined;
}

/** The answer proxy, replacing what `rewrite(…)` says from now on (undefined: nothing). */
async function rewritingProxy(upstream: KubeConfig) {
  const proxy = await startAnswerProxy(upstream);
  const rewrite = (next: Rewrite | undefined) =>
    proxy.rewrite(
      next && {
        method: 'GET',
        status: 200,
        path: next.path,
        answer: ({ json, text, count }) => {
          const replaced = next.answer(json !== undefined ? json : text, count);
          return replaced && { text: replaced.body, contentType: replaced.contentType };
        },
      },
    );
  /** Replaces answers by an answer-proxy rule as it stands (any method, query). */
  const rule = (next: AnswerRule | undefined) => proxy.rewrite(next);
  return { kubeConfig: proxy.kubeConfig, rewrite, rule, state: () => proxy.state, close: proxy.close };
}

const APIS = /^\/apis$/;
const V1ALPHA1_DISCOVERY = /^\/apis\/cluster\.k8s\.io\/v1alpha1$/;
const MACHINES = /^\/apis\/cluster\.k8s\.io\/v1alpha1\/namespaces\/[^/]+\/machines$/;
const SECRETS = /^\/api\/v1\/namespaces\/[^/]+\/secrets$/;
/** The targets: apply (and plan) list them to find what is already there. */
const V1ALPHA2_MACHINES = /^\/apis\/cluster\.x-k8s\.io\/v1alpha2\/namespaces\/[^/]+\/machines$/;
const HTML: Answer = {
  body: '<!doctype html><html><body>Please sign in</body></html>',
  contentType: 'text/html; charset=utf-8',
};
const json = (value: unknown): Answer => ({ body: JSON.stringify(value) });
type Served = Record<string, unknown> & {
  groups: { versions: Record<string, unknown>[] }[];
  items: unknown[];
  metadata?: Record<string, unknown>;
};
/** Replaces every answer to the paths with `answer(served)`. */
const always =
  (path: RegExp, answer: (served: Served) => Answer): (() => Rewrite) =>
  () => ({ path, answer: (served) => answer(served as Served) });

/** Every page after the first hands back the first page's continue token. */
const repeatedToken = (): Rewrite => {
  let first: unknown;
  return {
    path: MACHINES,
    answer: (served, count) => {
      const list = served as Served;
      if (count === 0) {
        first = list.metadata?.continue;
        return undefined;
      }
      return json({ ...list, metadata: { ...list.metadata, continue: first } });
    },
  };
};

const cases: [string, () => Rewrite, string][] = [
  [
    '/apis is an HTML page',
    always(APIS, () => HTML),
    `list apigroups: the API server's answer is not an APIGroupList: the answer is a string ("<!doctype html><html><body>Please sign in</body></html>"), expected an object`,
  ],
  [
    '/apis is {}',
    always(APIS, () => json({})),
    `list apigroups: the API server's answer is not an APIGroupList: groups is missing, expected an array`,
  ],
  [
    '/apis groups is a string',
    always(APIS, () => json({ kind: 'APIGroupList', groups: 'cluster.k8s.io' })),
    'groups is a string ("cluster.k8s.io"), expected an array',
  ],
  [
    "/apis a group's versions is a string",
    always(APIS, (served) => json({ ...served, groups: [{ name: 'apps', versions: 'v1' }] })),
    'groups[0].versions is a string ("v1"), expected an array',
  ],
  [
    "/apis a version's groupVersion is a number",
    always(APIS, (served) =>
      json({
        ...served,
        groups: served.groups.map((g) => ({
          ...g,
          versions: g.versions.map((v) => ({ ...v, groupVersion: 7 })),
        })),
      }),
    ),
    'groups[0].versions[0].groupVersion is the number 7, expected a string',
  ],
  [
    '/apis is an HTML page labelled JSON',
    always(APIS, () => ({ body: HTML.body })),
    "list apigroups: the API server's answer is not JSON:",
  ],
  [
    'the v1alpha1 discovery document has resources: 5',
    always(V1ALPHA1_DISCOVERY, (served) => json({ ...served, resources: 5 })),
    "get /apis/cluster.k8s.io/v1alpha1: the API server's answer is not an APIResourceList: resources is the number 5, expected an array",
  ],
  [
    'a list of Machines is an HTML page',
    always(MACHINES, () => HTML),
    `list machines.cluster.k8s.io: the API server's answer is not a Kubernetes List: the answer is a string ("<!doctype html>`,
  ],
  [
    'a list of Machines is {}',
    always(MACHINES, () => json({})),
    `list machines.cluster.k8s.io: the API server's answer is not a Kubernetes List: items is missing, expected an array`,
  ],
  [
    'a list of Machines has items: "machines"',
    always(MACHINES, (served) => json({ ...served, items: 'machines' })),
    'items is a string ("machines"), expected an array',
  ],
  [
    'a list of Machines has an item that is a number',
    always(MACHINES, (served) => json({ ...served, items: [...served.items, 42] })),
    'is the number 42, expected an object',
  ],
  [
    'a list of Machines has metadata.continue: 12345',
    always(MACHINES, (served) => json({ ...served, metadata: { continue: 12345 } })),
    'metadata.continue is the number 12345, expected a string',
  ],
  [
    'a list of Machines has metadata: "page"',
    always(MACHINES, (served) => json({ ...served, metadata: 'page' })),
    'metadata is a string ("page"), expected an object',
  ],
  [
    "a list of Machines hands back the first page's continue token",
    repeatedToken,
    "list machines.cluster.k8s.io: the API server's answer is not a Kubernetes List: metadata.continue of page 2 is a token an earlier page gave",
  ],
  [
    'a list of Secrets has an item that is null',
    always(SECRETS, (served) => json({ ...served, items: [null] })),
    "list secrets: the API server's answer is not a Kubernetes List: items[0] is null, expected an object",
  ],
];

/** Preflight's server-side dry-run creates: a POST with `dryRun=All`. */
const dryRunCreate = (answer: Answer): AnswerRule => ({
  method: 'POST',
  query: (query) => query.get('dryRun') === 'All',
  answer: () => ({ text: answer.body, contentType: answer.contentType }),
});
const SSAR = '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews';
/** Preflight's SelfSubjectAccessReviews. */
const accessReview = (answer: Answer): AnswerRule => ({
  method: 'POST',
  path: SSAR,
  answer: () => ({ text: answer.body, contentType: answer.contentType }),
});

/** What a failing API server answers: a 500 Status. */
const internalError =
  (message: string): AnswerRule['answer'] =>
  () => ({
    json: {
      kind: 'Status',
      apiVersion: 'v1',
      status: 'Failure',
      reason: 'InternalError',
      code: 500,
      message,
    },
    status: 500,
  });

const preflightCases: [string, AnswerRule, string][] = [
  [
    "the dry-run create's answer is a 500",
    {
      method: 'POST',
      query: (query) => query.get('dryRun') === 'All',
      answer: internalError('etcdserver: request timed out'),
    },
    'etcdserver: request timed out',
  ],
  [
    "the SelfSubjectAccessReview's answer is a 500",
    { method: 'POST', path: SSAR, answer: internalError('authorizer webhook unreachable') },
    'authorizer webhook unreachable',
  ],
  ["the dry-run create's answer is an HTML page", dryRunCreate(HTML), "the API server's answer is not"],
  [
    "the SelfSubjectAccessReview's answer is {}",
    accessReview(json({})),
    "create selfsubjectaccessreviews.authorization.k8s.io: the API server's answer is not a SelfSubjectAccessReview: status is missing, expected an object",
  ],
  [
    "the SelfSubjectAccessReview's answer is an HTML page",
    accessReview(HTML),
    "the API server's answer is not",
  ],
];

describe.skipIf(noControlPlane())('migrate against answers that are not Kubernetes API answers', () => {
  let proxy: Awaited<ReturnType<typeof rewritingProxy>>;
  let namespace: string;
  const options = (): MigrationOptions => ({
    kubeConfig: proxy.kubeConfig,
    scope: { namespace },
    plugins: [awsConversionPlugin],
    // (one object a page: the Machines come in two pages, so a continue token is handed out)
    pageSize: 1,
  });

  beforeAll(async () => {
    for (const dir of crdDirs) await env.installCRDs(dir);
    namespace = await env.createNamespace('migrate-malformed');
    await seedSourceCluster(env.kubeConfig, namespace, { provider: 'aws', name: 'odd', workers: 1 });
    proxy = await rewritingProxy(env.kubeConfig);
  });
  afterAll(async () => {
    await proxy?.close();
  });

  it('through the proxy, unchanged answers plan as the server itself', async () => {
    proxy.rewrite(undefined);
    const result = await planClusterMigration(options());
    if (E.isLeft(result)) throw new Error(JSON.stringify(result.left));
    expect(result.right.objects.map((o) => o.key.kind)).toEqual(
      expect.arrayContaining(['Cluster', 'MachineDeployment', 'MachineSet', 'Machine']),
    );
  });

  it.each(cases)('%s: plan returns an API error saying so', async (_name, rewrite, message) => {
    proxy.rewrite(rewrite());
    const result = await planClusterMigration(options());
    expect(E.isLeft(result) && result.left).toMatchObject({
      code: 'api',
      message: expect.stringContaining(message),
    });
    expect(JSON.stringify(result)).not.toMatch(/TypeError|Cannot read|is not a function|is not iterable/);
  });

  it.each([
    ['apply', () => applyClusterMigration(options())],
    ['verify', () => verifyClusterMigration(options())],
    ['prune', () => pruneClusterMigration(options())],
  ])('%s returns the API error too, for discovery and for a list', async (_name, run) => {
    proxy.rewrite(always(APIS, () => json({}))());
    const discovered = await run();
    expect(E.isLeft(discovered) && discovered.left).toMatchObject({
      code: 'api',
      message: expect.stringContaining('groups is missing, expected an array'),
    });
    proxy.rewrite(always(MACHINES, (served) => json({ ...served, items: 'machines' }))());
    const listed = await run();
    expect(E.isLeft(listed) && listed.left).toMatchObject({
      code: 'api',
      message: expect.stringContaining('items is a string ("machines"), expected an array'),
    });
  });

  const targetReadFailures: [string, AnswerRule, string][] = [
    [
      'an HTML page',
      {
        method: 'GET',
        path: V1ALPHA2_MACHINES,
        answer: () => ({ text: HTML.body, contentType: HTML.contentType }),
      },
      "list machines.cluster.x-k8s.io: the API server's answer is not a Kubernetes List",
    ],
    [
      'a 500',
      { method: 'GET', path: V1ALPHA2_MACHINES, answer: internalError('etcdserver: leader changed') },
      'etcdserver: leader changed',
    ],
  ];
  it.each(
    targetReadFailures.flatMap(([what, rule, message]) => [
      ['plan', what, rule, message, () => planClusterMigration(options())] as const,
      ['apply', what, rule, message, () => applyClusterMigration(options())] as const,
    ]),
  )(
    '%s: a list of the v1alpha2 targets answered with %s is the API error, not a line saying what is in the way',
    async (_step, _what, rule, message, run) => {
      proxy.rule(rule);
      const result = await run();
      expect(proxy.state().rewrites).toBeGreaterThan(0);
      expect(E.isLeft(result) && result.left).toMatchObject({
        code: 'api',
        message: expect.stringContaining(message),
      });
    },
  );

  it("a 403 to the list of v1alpha2 targets stays what it was: plan's warning, apply's preflight problem", async () => {
    const forbidden = {
      kind: 'Status',
      apiVersion: 'v1',
      status: 'Failure',
      reason: 'Forbidden',
      code: 403,
      message: 'machines.cluster.x-k8s.io is forbidden: User "migrator" cannot list resource "machines"',
    };
    proxy.rule({ method: 'GET', path: V1ALPHA2_MACHINES, answer: () => ({ json: forbidden, status: 403 }) });
    const planned = await planClusterMigration(options());
    if (E.isLeft(planned)) throw new Error(JSON.stringify(planned.left));
    expect(planned.right.warnings).toEqual(
      expect.arrayContaining([expect.stringMatching(/^the v1alpha2 objects: .*forbidden/)]),
    );
    const applied = await applyClusterMigration(options());
    expect(E.isLeft(applied) && applied.left).toMatchObject({
      code: 'preflight',
      problems: [
        { object: 'the v1alpha2 objects', status: 403, message: expect.stringContaining('forbidden') },
      ],
    });
  });

  it.each(preflightCases)(
    '%s: apply returns the API error (not a preflight refusal), and writes nothing',
    async (_name, rule, message) => {
      proxy.rule(rule);
      const result = await applyClusterMigration(options());
      expect(proxy.state().rewrites).toBeGreaterThan(0);
      expect(E.isLeft(result) && result.left).toMatchObject({
        code: 'api',
        message: expect.stringContaining(message),
      });
      expect(JSON.stringify(result)).not.toMatch(/TypeError|Cannot read|is not a function|is not iterable/);
      proxy.rewrite(undefined);
      const written = await env.kubeConfig.makeApiClient(CustomObjectsApi).listNamespacedCustomObject({
        group: 'cluster.x-k8s.io',
        version: 'v1alpha2',
        namespace,
        plural: 'clusters',
      });
      expect((written as { items: unknown[] }).items).toEqual([]);
    },
  );
});

// Apply makes the owner references of what it creates next from the uid in a create's
// answer: an answer that is not the object asked for stops it there, and a run after it,
// with honest answers, finishes the migration (the writes that landed are its own).
describe.skipIf(noControlPlane())(
  'migrate apply against create answers that are not the object created',
  () => {
    let proxy: Awaited<ReturnType<typeof startAnswerProxy>>;
    beforeAll(async () => {
      for (const dir of crdDirs) await env.installCRDs(dir);
      proxy = await startAnswerProxy(env.kubeConfig);
    });
    afterAll(async () => {
      await proxy?.close();
    });

    /** The first real (not dry-run) create of a v1alpha2 Cluster, answered with `answer(served)`. */
    const clusterCreate = (answer: (served: Record<string, unknown>) => unknown): AnswerRule => ({
      method: 'POST',
      path: /^\/apis\/cluster\.x-k8s\.io\/v1alpha2\/namespaces\/[^/]+\/clusters$/,
      status: 201,
      query: (query) => query.get('dryRun') === null,
      answer: ({ json }) => ({ json: answer(json as Record<string, unknown>), status: 201 }),
    });
    const metadataOf = (o: Record<string, unknown>) => o.metadata as Record<string, unknown>;

    it.each([
      ['{}', clusterCreate(() => ({})), 'metadata is missing, expected an object'],
      [
        'the Cluster without its uid',
        clusterCreate((served) => ({ ...served, metadata: { ...metadataOf(served), uid: undefined } })),
        'metadata.uid is missing, expected a non-empty string',
      ],
      [
        'another Cluster (another name and uid)',
        clusterCreate((served) => ({
          ...served,
          metadata: {
            ...metadataOf(served),
            name: 'someone-else',
            uid: '0badc0de-0000-4000-8000-000000000000',
          },
        })),
        'metadata.name is a string ("someone-else"), expected "calm"',
      ],
      [
        'an AWSCluster',
        clusterCreate((served) => ({ ...served, kind: 'AWSCluster' })),
        'kind is a string ("AWSCluster"), expected "Cluster"',
      ],
    ])(
      'answered with %s: apply stops with the API error, and a second run finishes',
      async (_name, rule, message) => {
        const namespace = await env.createNamespace('migrate-create-answer');
        await seedSourceCluster(env.kubeConfig, namespace, { provider: 'aws', name: 'calm', workers: 1 });
        const options = awsMigrationOptions(proxy.kubeConfig, namespace);
        proxy.rewrite(rule);
        const stopped = await applyClusterMigration(options);
        expect(proxy.state.rewrites).toBe(1);
        expect(E.isLeft(stopped) && stopped.left).toMatchObject({
          code: 'api',
          message: expect.stringContaining(
            `create clusters.cluster.x-k8s.io Cluster ${namespace}/calm: the API server's answer is not the Cluster asked for: ${message}`,
          ),
        });
        proxy.rewrite(undefined);
        const finished = await applyClusterMigration(options);
        if (E.isLeft(finished)) throw new Error(JSON.stringify(finished.left));
        const verified = await verifyClusterMigration(options);
        if (E.isLeft(verified)) throw new Error(JSON.stringify(verified.left));
      },
    );
  },
);
