import { describe, expect, it } from 'vitest';
import { type CapiClient, describeCluster } from '../src/index.js';

/**
 * A client that answers nothing and records what describeCluster touched of it: every request
 * goes through it, so an empty record is "no request was made". (It serves nothing, so a
 * describeCluster that went ahead came back `not-served`, not `invalid-option`.)
 */
function tripwire(): { client: CapiClient; touched: string[] } {
  const touched: string[] = [];
  const client = new Proxy({} as CapiClient, {
    get(_target, key) {
      touched.push(String(key));
      return key === 'serves' ? () => false : key === 'resources' ? () => [] : undefined;
    },
  });
  return { client, touched };
}

const SUBDOMAIN = "(a DNS-1123 subdomain: lowercase letters, digits, '-' and '.', at most 253 characters)";
const LABEL = "(a DNS-1123 label: lowercase letters, digits and '-', at most 63 characters)";

describe('describeCluster refuses a name or namespace that cannot go into a request path, before any request', () => {
  it('a Cluster name that is no DNS-1123 subdomain is invalid-option at `name`', async () => {
    for (const [bad, shown] of [
      ['', '""'],
      ['..', '".."'],
      ['.', '"."'],
      ['a/b', '"a/b"'],
      ['../../api/v1/secrets', '"../../api/v1/secrets"'],
      ['Prod', '"Prod"'],
      ['prod ', '"prod "'],
      ['pr\u001b[31mod', '"pr\\u001b[31mod"'],
      ['pr\nod', '"pr\\nod"'],
      ['a'.repeat(254), `"${'a'.repeat(60)}"… (254 characters)`],
    ] as const) {
      const { client, touched } = tripwire();
      expect(await describeCluster(client, bad), JSON.stringify(bad)).toEqual({
        _tag: 'Left',
        left: {
          code: 'invalid-option',
          path: 'name',
          message: `name ${shown} is not a valid Cluster name ${SUBDOMAIN}`,
        },
      });
      expect(touched, JSON.stringify(bad)).toEqual([]);
    }
  });

  it('a JS caller’s name that is no string is refused by its type, not sent as its String()', async () => {
    for (const [bad, shown] of [
      [undefined, '(undefined)'],
      [null, '(null)'],
      [42, '(a number)'],
      [{ toString: () => 'prod' }, '(an object)'],
      [['prod'], '(an object)'],
    ] as const) {
      const { client, touched } = tripwire();
      const result = await describeCluster(client, bad as unknown as string);
      expect(result, shown).toEqual({
        _tag: 'Left',
        left: {
          code: 'invalid-option',
          path: 'name',
          message: `name ${shown} is not a valid Cluster name ${SUBDOMAIN}`,
        },
      });
      expect(touched).toEqual([]);
    }
  });

  it('a namespace that is no DNS-1123 label is invalid-option at `namespace`', async () => {
    for (const [bad, shown] of [
      ['', '""'],
      ['..', '".."'],
      ['a/b', '"a/b"'],
      ['a.b', '"a.b"'],
      ['Default', '"Default"'],
      ['de\u0000fault', '"de\\u0000fault"'],
      ['a'.repeat(64), `"${'a'.repeat(64)}"`],
      [0, '(a number)'],
      [null, '(null)'],
      [false, '(a boolean)'],
    ] as const) {
      const { client, touched } = tripwire();
      const result = await describeCluster(client, 'prod', { namespace: bad as unknown as string });
      expect(result, shown).toEqual({
        _tag: 'Left',
        left: {
          code: 'invalid-option',
          path: 'namespace',
          message: `namespace ${shown} is not a valid namespace ${LABEL}`,
        },
      });
      expect(touched).toEqual([]);
    }
  });

  it('options that are no object, and a null leaseLocation, are refused, not thrown on', async () => {
    for (const bad of [null, 'default']) {
      const { client } = tripwire();
      const result = await describeCluster(client, 'prod', bad as never);
      expect(result).toMatchObject({ _tag: 'Left', left: { code: 'invalid-option', path: 'options' } });
    }
    const { client } = tripwire();
    const result = await describeCluster(client, 'prod', { leaseLocation: null as never });
    expect(result).toMatchObject({
      _tag: 'Left',
      left: { code: 'invalid-option', path: 'leaseLocation.namespace' },
    });
  });

  it('a valid name and namespace (and none) go ahead to the server', async () => {
    for (const [name, namespace] of [
      ['prod', 'team-a'],
      ['prod.eu-1', undefined],
      ['a'.repeat(253), 'a'.repeat(63)],
    ] as const) {
      const { client, touched } = tripwire();
      const result = await describeCluster(client, name, namespace === undefined ? {} : { namespace });
      expect(result).toMatchObject({ _tag: 'Left', left: { code: 'not-served' } });
      expect(touched).toContain('serves');
    }
  });
});
