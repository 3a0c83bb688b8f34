import { KubeConfig } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { currentUserProblem } from '../src/index.js';

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
