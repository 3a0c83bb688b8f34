import type { CustomObjectsApi, Watch } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { ResourceClient } from '../src/index.js';
import { resourceInfo } from '../src/resources.js';

/**
 * A CustomObjectsApi and a Watch that record every call and answer none: every request of a
 * ResourceClient goes through them, so an empty record is "nothing was sent".
 */
function tripwire() {
  const sent: string[] = [];
  const recorder = <T extends object>() =>
    new Proxy({} as T, {
      get:
        (_target, method) =>
        (..._args: unknown[]) => {
          sent.push(String(method));
          return Promise.reject(new Error(`${String(method)} was sent`));
        },
    });
  const info = resourceInfo('cluster.x-k8s.io/v1beta1', 'MachineDeployment');
  if (info === undefined) throw new Error('no MachineDeployment at v1beta1');
  const client = new ResourceClient<unknown>(recorder<CustomObjectsApi>(), recorder<Watch>(), info);
  return { client, sent };
}

const SUBDOMAIN = "(a DNS-1123 subdomain: lowercase letters, digits, '-' and '.', at most 253 characters)";
const LABEL = "(a DNS-1123 label: lowercase letters, digits and '-', at most 63 characters)";
const merge = { type: 'merge', patch: {} } as const;

describe('ResourceClient refuses a name or namespace that cannot go into a request path, before sending', () => {
  // An empty name made DELETE …/machinedeployments/, the collection: a deletecollection of
  // every MachineDeployment in the namespace. `..` resolved to the parent path, encoded or not.
  const badNames = [
    ['', '""'],
    ['..', '".."'],
    ['.', '"."'],
    ['md/status', '"md/status"'],
    ['MD', '"MD"'],
    ['md\u0000', '"md\\u0000"'],
    ['a'.repeat(254), `"${'a'.repeat(60)}"… (254 characters)`],
    [undefined, '(undefined)'],
    [7, '(a number)'],
  ] as const;
  const badNamespaces = [
    ['', '""'],
    ['..', '".."'],
    ['a/b', '"a/b"'],
    ['a.b', '"a.b"'],
    ['a'.repeat(64), `"${'a'.repeat(64)}"`],
    [null, '(null)'],
  ] as const;

  const byName = {
    get: (c: ResourceClient<unknown>, ns: string, name: string) => c.get(ns, name),
    getRaw: (c: ResourceClient<unknown>, ns: string, name: string) => c.getRaw(ns, name),
    patch: (c: ResourceClient<unknown>, ns: string, name: string) => c.patch(ns, name, merge),
    patchStatus: (c: ResourceClient<unknown>, ns: string, name: string) => c.patchStatus(ns, name, merge),
    delete: (c: ResourceClient<unknown>, ns: string, name: string) => c.delete(ns, name),
    getScale: (c: ResourceClient<unknown>, ns: string, name: string) => c.getScale(ns, name),
    setScale: (c: ResourceClient<unknown>, ns: string, name: string) =>
      c.setScale(ns, name, { replicas: 1, resourceVersion: '1' }),
  };

  it.each(Object.entries(byName))(
    '%s: a bad name is invalid-option at `name`, unsent',
    async (_method, call) => {
      for (const [bad, shown] of badNames) {
        const { client, sent } = tripwire();
        expect(await call(client, 'ns', bad as string), shown).toEqual({
          _tag: 'Left',
          left: {
            code: 'invalid-option',
            path: 'name',
            message: `name ${shown} is not a valid object name ${SUBDOMAIN}`,
          },
        });
        expect(sent, shown).toEqual([]);
      }
    },
  );

  it.each(Object.entries(byName))(
    '%s: a bad namespace is invalid-option at `namespace`, unsent',
    async (_method, call) => {
      for (const [bad, shown] of badNamespaces) {
        const { client, sent } = tripwire();
        expect(await call(client, bad as string, 'md'), shown).toEqual({
          _tag: 'Left',
          left: {
            code: 'invalid-option',
            path: 'namespace',
            message: `namespace ${shown} is not a valid namespace ${LABEL}`,
          },
        });
        expect(sent, shown).toEqual([]);
      }
    },
  );

  it('list and listRaw refuse a bad namespace, "" included (leave it out for every namespace)', async () => {
    for (const [bad, shown] of badNamespaces) {
      const { client, sent } = tripwire();
      const listed = await client.list({ namespace: bad as string });
      expect(listed, shown).toMatchObject({
        _tag: 'Left',
        left: { code: 'invalid-option', path: 'namespace' },
      });
      const raw = await client.listRaw({ namespace: bad as string }, () => {});
      expect(raw, shown).toMatchObject({ _tag: 'Left', left: { code: 'invalid-option', path: 'namespace' } });
      expect(sent, shown).toEqual([]);
    }
  });

  it('watch refuses a bad namespace: done resolves with the error, nothing is watched', async () => {
    for (const [bad, shown] of badNamespaces) {
      const { client, sent } = tripwire();
      const handle = await client.watch({ namespace: bad as string }, () => {});
      expect(await handle.done, shown).toMatchObject({ code: 'invalid-option', path: 'namespace' });
      expect(sent, shown).toEqual([]);
    }
  });

  it('create and replace refuse a bad metadata.namespace or metadata.name; replace needs a name', async () => {
    const object = (metadata: Record<string, unknown>) => ({
      apiVersion: 'cluster.x-k8s.io/v1beta1',
      kind: 'MachineDeployment',
      metadata,
    });
    for (const [metadata, path] of [
      [{ name: '..', namespace: 'ns' }, 'metadata.name'],
      [{ name: 'md', namespace: '..' }, 'metadata.namespace'],
      [{ name: '', namespace: 'ns' }, 'metadata.name'],
    ] as const) {
      for (const write of ['create', 'replace'] as const) {
        const { client, sent } = tripwire();
        const result = await client[write](object(metadata));
        expect(result, `${write} ${JSON.stringify(metadata)}`).toMatchObject({
          _tag: 'Left',
          left: { code: 'invalid-option', path },
        });
        expect(sent).toEqual([]);
      }
    }
    // (without a name the PUT went to the collection)
    const { client, sent } = tripwire();
    expect(await client.replace(object({ namespace: 'ns' }))).toEqual({
      _tag: 'Left',
      left: {
        code: 'invalid-option',
        path: 'metadata.name',
        message: `metadata.name (undefined) is not a valid object name ${SUBDOMAIN}`,
      },
    });
    expect(sent).toEqual([]);
  });

  it('create and replace refuse a metadata.namespace or metadata.name that is no string (it was read as absent: `default`)', async () => {
    const object = (metadata: Record<string, unknown>) => ({
      apiVersion: 'cluster.x-k8s.io/v1beta1',
      kind: 'MachineDeployment',
      metadata,
    });
    for (const [bad, shown] of [
      [7, '(a number)'],
      [0, '(a number)'],
      [true, '(a boolean)'],
      [false, '(a boolean)'],
      [{}, '(an object)'],
      [['ns'], '(an object)'],
    ] as const) {
      for (const write of ['create', 'replace'] as const) {
        const { client, sent } = tripwire();
        expect(await client[write](object({ name: 'md', namespace: bad })), `${write} ${shown}`).toEqual({
          _tag: 'Left',
          left: {
            code: 'invalid-option',
            path: 'metadata.namespace',
            message: `metadata.namespace ${shown} is not a valid namespace ${LABEL}`,
          },
        });
        expect(await client[write](object({ name: bad, namespace: 'ns' })), `${write} ${shown}`).toEqual({
          _tag: 'Left',
          left: {
            code: 'invalid-option',
            path: 'metadata.name',
            message: `metadata.name ${shown} is not a valid object name ${SUBDOMAIN}`,
          },
        });
        expect(sent, `${write} ${shown}`).toEqual([]);
      }
    }
  });

  it('create and replace read a null metadata.namespace as absent (default), a null name as none', async () => {
    const { client, sent } = tripwire();
    await client.create({ metadata: { generateName: 'md-', namespace: null, name: null } });
    await client.replace({ metadata: { name: 'md', namespace: null } });
    expect(sent).toEqual(['createNamespacedCustomObject', 'replaceNamespacedCustomObject']);
  });

  it('good names and namespaces are sent (create without a name too: generateName)', async () => {
    const { client, sent } = tripwire();
    await client.get('ns', 'md.eu-1');
    await client.delete('ns', 'a'.repeat(253));
    await client.list({ namespace: 'a'.repeat(63) });
    await client.list({});
    await client.create({ metadata: { generateName: 'md-', namespace: 'ns' } });
    expect(sent).toEqual([
      'getNamespacedCustomObject',
      'deleteNamespacedCustomObject',
      'listNamespacedCustomObject',
      'listCustomObjectForAllNamespaces',
      'createNamespacedCustomObject',
    ]);
  });
});

describe('ResourceClient refuses list and watch options it cannot send, before sending', () => {
  const PAGE = 'a whole number of objects from 1 up';
  // (0 reached the server as limit=0, "no limit": the whole collection in one answer)
  const badPageSizes = [
    [0, '0'],
    [-1, '-1'],
    [1.5, '1.5'],
    [Number.NaN, 'NaN'],
    [Number.POSITIVE_INFINITY, 'Infinity'],
    [2 ** 53, String(2 ** 53)],
    ['10', '"10"'],
    [null, '(null)'],
  ] as const;

  it('list and listRaw: a pageSize that is no whole number from 1 up is invalid-option at `pageSize`', async () => {
    for (const [bad, shown] of badPageSizes) {
      for (const namespace of [undefined, 'ns']) {
        const { client, sent } = tripwire();
        const options = { ...(namespace === undefined ? {} : { namespace }), pageSize: bad as number };
        const refused = {
          _tag: 'Left',
          left: { code: 'invalid-option', path: 'pageSize', message: `pageSize ${shown} is not ${PAGE}` },
        };
        expect(await client.list(options), shown).toEqual(refused);
        expect(await client.listRaw(options, () => {}), shown).toEqual(refused);
        expect(sent, shown).toEqual([]);
      }
    }
  });

  it.each([
    ['labelSelector', { labelSelector: 5 }, '(a number)'],
    ['labelSelector', { labelSelector: { app: 'web' } }, '(an object)'],
    ['fieldSelector', { fieldSelector: true }, '(a boolean)'],
    ['fieldSelector', { fieldSelector: null }, '(null)'],
  ])(
    'list and listRaw: a %s that is no string (%j) is invalid-option naming it',
    async (path, options, shown) => {
      const { client, sent } = tripwire();
      const refused = {
        _tag: 'Left',
        left: { code: 'invalid-option', path, message: `${path} ${shown} is not a string` },
      };
      expect(await client.list(options as never)).toEqual(refused);
      expect(await client.listRaw(options as never, () => {})).toEqual(refused);
      expect(sent).toEqual([]);
    },
  );

  it('list and listRaw: options that are no object are invalid-option at `options` (null threw a TypeError)', async () => {
    for (const [bad, shown] of [
      [null, '(null)'],
      ['ns', '"ns"'],
    ] as const) {
      const { client, sent } = tripwire();
      const refused = {
        _tag: 'Left',
        left: { code: 'invalid-option', path: 'options', message: `list options ${shown} are not an object` },
      };
      expect(await client.list(bad as never)).toEqual(refused);
      expect(await client.listRaw(bad as never, () => {})).toEqual(refused);
      expect(sent).toEqual([]);
    }
  });

  it.each([
    ['labelSelector', { labelSelector: 5 }, 'labelSelector (a number) is not a string'],
    ['resourceVersion', { resourceVersion: 42 }, 'resourceVersion (a number) is not a string'],
    ['resourceVersion', { resourceVersion: { v: '1' } }, 'resourceVersion (an object) is not a string'],
    ['signal', { signal: { aborted: false } }, 'signal (an object) is not an AbortSignal'],
    ['options', null, 'watch options (null) are not an object'],
  ])(
    'watch: a bad %s is invalid-option naming it; done resolves with it, nothing is watched',
    async (path, options, message) => {
      const { client, sent } = tripwire();
      const handle = await client.watch(options as never, () => {});
      expect(await handle.done).toEqual({ code: 'invalid-option', path, message });
      expect(sent).toEqual([]);
    },
  );

  it('usable options are sent: pageSize 1 and the largest safe integer, string selectors', async () => {
    const { client, sent } = tripwire();
    await client.list({ pageSize: 1, labelSelector: 'a=b', fieldSelector: 'metadata.name=x' });
    await client.listRaw({ namespace: 'ns', pageSize: Number.MAX_SAFE_INTEGER }, () => {});
    // (the tripwire's watch rejects: the request was made)
    await client
      .watch(
        { namespace: 'ns', labelSelector: 'a', resourceVersion: '1', signal: new AbortController().signal },
        () => {},
      )
      .catch(() => undefined);
    expect(sent).toEqual(['listCustomObjectForAllNamespaces', 'listNamespacedCustomObject', 'watch']);
  });
});
