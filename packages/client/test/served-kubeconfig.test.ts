import { KubeConfig } from '@kubernetes/client-node';
import * as E from 'fp-ts/lib/Either.js';
import { describe, expect, it } from 'vitest';
import { contextFieldProblem, currentUserProblem, everyContextProblem } from '../src/index.js';
import { servedKubeconfigText } from '../src/served-kubeconfig.js';

/** client-node's KubeConfig of one cluster `c`, the users given, and context `prod` as given. */
const loaded = (
  context: Record<string, unknown>,
  users: unknown[] = [{ name: 'u', user: { token: 't' } }],
) => {
  const config = new KubeConfig();
  config.loadFromString(
    JSON.stringify({
      clusters: [{ name: 'c', cluster: { server: 'https://127.0.0.1:1' } }],
      users,
      contexts: [{ name: 'prod', context }],
      'current-context': 'prod',
    }),
  );
  return config;
};

describe('currentUserProblem: a context naming a user that is not defined (client-node went anonymous)', () => {
  it('names the context and the missing user, as client-go refuses it', () => {
    expect(currentUserProblem(loaded({ cluster: 'c', user: 'ghost' }))).toBe(
      'context "prod" names user "ghost", which is not in users',
    );
    expect(currentUserProblem(loaded({ cluster: 'c', user: 'u' }, []))).toBe(
      'context "prod" names user "u", which is not in users',
    );
  });

  it('refuses a user named with another type (client-node looked a `true` up and found none)', () => {
    expect(currentUserProblem(loaded({ cluster: 'c', user: true }))).toBe(
      `context "prod" names its user with a boolean, not a user's name`,
    );
    expect(currentUserProblem(loaded({ cluster: 'c', user: { name: 'u' } }))).toBe(
      `context "prod" names its user with a mapping, not a user's name`,
    );
  });

  it('a defined user, and a context naming none (anonymous on purpose, as in kubectl), are fine', () => {
    expect(currentUserProblem(loaded({ cluster: 'c', user: 'u' }))).toBeUndefined();
    expect(currentUserProblem(loaded({ cluster: 'c' }))).toBeUndefined();
    expect(currentUserProblem(loaded({ cluster: 'c', user: '' }))).toBeUndefined();
    expect(currentUserProblem(loaded({ cluster: 'c', user: null }))).toBeUndefined();
  });

  it('quotes names with the quote given', () => {
    expect(currentUserProblem(loaded({ cluster: 'c', user: 'ghost' }), (t) => `<${t}>`)).toBe(
      'context <prod> names user <ghost>, which is not in users',
    );
  });
});

describe('a served kubeconfig: every context is checked, not only the current one', () => {
  /** A kubeconfig whose current context `prod` is fine, and whose second context is as given. */
  const served = (other: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
    JSON.stringify({
      clusters: [{ name: 'c', cluster: { server: 'https://127.0.0.1:1' } }],
      users: [{ name: 'u', user: { token: 't' } }],
      contexts: [
        { name: 'prod', context: { cluster: 'c', user: 'u' } },
        { name: 'staging', context: { cluster: 'c', ...other } },
      ],
      'current-context': 'prod',
      ...extra,
    });

  it('a context the caller may switch to with user or namespace false or 0 is refused, naming its path', () => {
    // (the KubeConfig is handed to the caller: setCurrentContext('staging') went anonymous)
    for (const [context, message] of [
      [
        { user: false },
        `contexts[1].context.user of context "staging" is false (a boolean), not a user's name: client-node took it as no user (every request went anonymous)`,
      ],
      [{ user: 0 }, `contexts[1].context.user of context "staging" is 0 (a number), not a user's name`],
      [
        { user: 'u', namespace: 0 },
        `contexts[1].context.namespace of context "staging" is 0 (a number), not a namespace: client-node took it as no namespace`,
      ],
      [
        { user: 'u', namespace: false },
        `contexts[1].context.namespace of context "staging" is false (a boolean)`,
      ],
    ] as const) {
      const result = servedKubeconfigText(served(context));
      expect(result, JSON.stringify(context)).toMatchObject({ _tag: 'Left' });
      expect(E.isLeft(result) && result.left, JSON.stringify(context)).toContain(message);
    }
  });

  it('user, namespace and cluster of another type that client-node keeps as they are are refused', () => {
    for (const [context, message] of [
      [
        { user: true },
        `contexts[1].context.user of context "staging" is true (a boolean), not a user's name`,
      ],
      [
        { user: { name: 'u' } },
        `contexts[1].context.user of context "staging" is a mapping, not a user's name`,
      ],
      [
        { namespace: 5 },
        `contexts[1].context.namespace of context "staging" is 5 (a number), not a namespace`,
      ],
      [{ namespace: ['a'] }, `contexts[1].context.namespace of context "staging" is a list, not a namespace`],
      [
        { cluster: 7 },
        `contexts[1].context.cluster of context "staging" is 7 (a number), not a cluster's name`,
      ],
    ] as const) {
      expect(servedKubeconfigText(served(context)), JSON.stringify(context)).toEqual(E.left(message));
    }
  });

  it('a current-context of another type is refused (client-node found no context by it)', () => {
    expect(servedKubeconfigText(served({ user: 'u' }, { 'current-context': 0 }))).toEqual(
      E.left(`current-context is 0 (a number), not a context's name`),
    );
    expect(servedKubeconfigText(served({ user: 'u' }, { 'current-context': false }))).toEqual(
      E.left(`current-context is false (a boolean), not a context's name`),
    );
  });

  it('contexts of the right types, or with no user and no namespace, are fine', () => {
    for (const context of [{ user: 'u' }, {}, { user: '', namespace: '' }, { user: null, namespace: null }]) {
      expect(servedKubeconfigText(served(context)), JSON.stringify(context)).toMatchObject({ _tag: 'Right' });
    }
    expect(servedKubeconfigText(served({ user: 'u' }, { 'current-context': null }))).toMatchObject({
      _tag: 'Right',
    });
  });

  it('everyContextProblem quotes with the quote given; a context without a name is named by its path', () => {
    expect(
      everyContextProblem(
        [
          { name: 'a', context: { cluster: 'c' } },
          { name: 'b', context: { user: 0 } },
        ],
        (t) => `<${t}>`,
      ),
    ).toMatch(/^contexts\[1\]\.context\.user of context <b> is 0 \(a number\)/);
    expect(everyContextProblem([{ context: { namespace: true } }])).toBe(
      'contexts[0].context.namespace is true (a boolean), not a namespace',
    );
    expect(everyContextProblem(undefined)).toBeUndefined();
  });

  it('contextFieldProblem still checks only the context named (the CLI checks the one it uses)', () => {
    const contexts = [
      { name: 'prod', context: { cluster: 'c', user: 'u' } },
      { name: 'staging', context: { cluster: 'c', user: false } },
    ];
    expect(contextFieldProblem(contexts, 'prod')).toBeUndefined();
    expect(contextFieldProblem(contexts, 'staging')).toBe(
      `contexts[1].context.user of context "staging" is false (a boolean), not a user's name: client-node took it as no user (every request went anonymous)`,
    );
  });
});
