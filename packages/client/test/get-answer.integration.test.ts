import { type AnswerProxy, type AnswerReplacement, startAnswerProxy } from '@capi-kit/envtest/answer-proxy';
import { noControlPlane, useControlPlane } from '@capi-kit/envtest/vitest';
import * as E from 'fp-ts/lib/Either.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, describeCluster } from '../src/index.js';
import { capiCrdDirs, unwrap, unwrapLeft, v1alpha2Machine } from './helpers/fixtures.js';

// A get is answered with the object asked for by a real API server. A proxy in front of it
// may answer with `{}`, a login page or another object: `get` decoded `{}` as an invalid
// object of the name asked for, and `describeCluster` described such a Cluster (exit 0 in the
// CLI), following the empty name it held to a Secret `-kubeconfig`. The real server answers
// here, through a proxy that replaces the answers to one object's GET.
const cp = useControlPlane();

const V2 = 'cluster.x-k8s.io/v1alpha2';

describe.skipIf(noControlPlane())('a get answered with what is not the object asked for', () => {
  let proxy: AnswerProxy;
  const at = (kind: string, name: string) =>
    `/apis/cluster.x-k8s.io/v1alpha2/namespaces/${cp.namespace}/${kind}/${name}`;

  beforeAll(async () => {
    for (const dir of capiCrdDirs) await cp.installCRDs(dir);
    const direct = unwrap(await connect(cp.kubeConfig));
    unwrap(await unwrap(direct.resource(V2, 'Machine')).create(v1alpha2Machine(cp.namespace, 'm-0')));
    unwrap(
      await unwrap(direct.resource(V2, 'Cluster')).create({
        apiVersion: V2,
        kind: 'Cluster',
        metadata: { name: 'c-0', namespace: cp.namespace },
        spec: {},
      } as never),
    );
    proxy = await startAnswerProxy(cp.kubeConfig);
  });
  afterAll(async () => {
    await proxy?.close();
  });

  /** Answers the GET of `path` with `replace(served)` from now on. */
  function answerWith(path: string, replace: (served: Record<string, unknown>) => AnswerReplacement) {
    proxy.rewrite({
      method: 'GET',
      path,
      status: 200,
      answer: ({ json }) => replace(json as Record<string, unknown>),
    });
  }
  const metadataOf = (o: Record<string, unknown>) => o.metadata as Record<string, unknown>;

  const cases: [string, (served: Record<string, unknown>) => AnswerReplacement, string, string][] = [
    ['{}', () => ({ json: {} }), 'metadata', 'metadata is missing, not an object'],
    [
      'a login page',
      () => ({ text: '<!doctype html><p>sign in</p>', contentType: 'text/html' }),
      '',
      'the answer is a string, not an object',
    ],
    [
      'another Machine',
      (served) => ({ json: { ...served, metadata: { ...metadataOf(served), name: 'm-other' } } }),
      'metadata.name',
      'metadata.name is "m-other", not "m-0"',
    ],
    [
      'the Machine of another namespace',
      (served) => ({ json: { ...served, metadata: { ...metadataOf(served), namespace: 'kube-system' } } }),
      'metadata.namespace',
      `metadata.namespace is "kube-system", not "${'NS'}"`,
    ],
    [
      'a MachineSet',
      (served) => ({ json: { ...served, kind: 'MachineSet' } }),
      'kind',
      'kind is "MachineSet", not "Machine"',
    ],
    [
      'another version',
      (served) => ({ json: { ...served, apiVersion: 'cluster.x-k8s.io/v1beta1' } }),
      'apiVersion',
      `apiVersion is "cluster.x-k8s.io/v1beta1", not "${V2}"`,
    ],
  ];

  it.each(cases)(
    '%s: get and getRaw are malformed-object naming the field',
    async (_name, replace, path, why) => {
      answerWith(at('machines', 'm-0'), replace);
      const machines = unwrap(unwrap(await connect(proxy.kubeConfig)).resource(V2, 'Machine'));
      const message = `get Machine ${cp.namespace}/m-0 (${V2}): the API server's answer is not the object asked for: ${why.replace('NS', cp.namespace)}`;
      for (const got of [
        await machines.get(cp.namespace, 'm-0'),
        await machines.getRaw(cp.namespace, 'm-0'),
      ]) {
        expect(unwrapLeft(got)).toEqual({
          code: 'malformed-object',
          target: { apiVersion: V2, kind: 'Machine', namespace: cp.namespace, name: 'm-0' },
          path,
          message,
        });
      }
      expect(proxy.state.rewrites).toBe(2);
    },
  );

  it('the honest answer is the object, through the same proxy', async () => {
    proxy.rewrite(undefined);
    const machines = unwrap(unwrap(await connect(proxy.kubeConfig)).resource(V2, 'Machine'));
    expect(unwrap(await machines.get(cp.namespace, 'm-0')).metadata?.name).toBe('m-0');
    expect(E.isRight(await machines.getRaw(cp.namespace, 'm-0'))).toBe(true);
  });

  it('describeCluster of a Cluster answered with {} fails with malformed-object, describing nothing', async () => {
    answerWith(at('clusters', 'c-0'), () => ({ json: {} }));
    const client = unwrap(await connect(proxy.kubeConfig));
    const described = await describeCluster(client, 'c-0', { namespace: cp.namespace });
    expect(unwrapLeft(described)).toMatchObject({ code: 'malformed-object', path: 'metadata' });
    proxy.rewrite(undefined);
    expect(unwrap(await describeCluster(client, 'c-0', { namespace: cp.namespace })).cluster).toMatchObject({
      name: 'c-0',
      namespace: cp.namespace,
    });
  });
});
