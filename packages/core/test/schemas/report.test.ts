import * as E from 'fp-ts/lib/Either.js';
import type * as t from 'io-ts';
import { describe, expect, it } from 'vitest';
import { contextPath, decodeWith, describeValue, reportErrors } from '../../src/index.js';
import * as v1alpha1 from '../../src/v1alpha1/index.js';
import * as v1alpha2 from '../../src/v1alpha2/index.js';

function messages<A>(codec: t.Type<A>, value: unknown, strict = false): string[] {
  const result = decodeWith(codec, value, { strict });
  return E.isLeft(result) ? result.left.map((e) => e.message) : [];
}

describe('error reporter', () => {
  it('names the root when the value itself is wrong', () => {
    expect(messages(v1alpha2.MachineCodec, 'machine')).toEqual([
      '(root): expected Machine object, got "machine"',
    ]);
    expect(messages(v1alpha2.MachineCodec, [])).toEqual(['(root): expected Machine object, got []']);
  });

  it('reports every error at once, through arrays, maps and nullable fields', () => {
    const cluster = {
      apiVersion: 'cluster.x-k8s.io/v1alpha2',
      kind: 'Cluster',
      metadata: { annotations: { ok: 'yes', 'x/y': false }, ownerReferences: [{ kind: 'MachineSet' }] },
      spec: { clusterNetwork: { pods: { cidrBlocks: [1, '10.0.0.0/8'] }, services: { cidrBlocks: 'all' } } },
      status: { apiEndpoints: [{ host: 'h', port: 1.5 }, { port: 6443 }] },
    };
    expect(messages(v1alpha2.ClusterCodec, cluster)).toEqual([
      'metadata.annotations["x/y"]: expected string, got false',
      'metadata.ownerReferences[0].apiVersion: required field is missing (expected string)',
      'metadata.ownerReferences[0].name: required field is missing (expected string)',
      'metadata.ownerReferences[0].uid: required field is missing (expected string)',
      'spec.clusterNetwork.services.cidrBlocks: expected string[] | null, got "all"',
      'spec.clusterNetwork.pods.cidrBlocks[0]: expected string, got 1',
      'status.apiEndpoints[0].port: expected integer, got 1.5',
      'status.apiEndpoints[1].host: required field is missing (expected string)',
    ]);
  });

  it('never shows io-ts member indices or giant type names', () => {
    // Plain io-ts `decode`, which starts the context with the root entry.
    const result = v1alpha1.MachineDeploymentCodec.decode({
      apiVersion: 'cluster.k8s.io/v1alpha1',
      kind: 'MachineDeployment',
      spec: { selector: {}, template: { spec: {} } },
    });
    expect(E.isLeft(result)).toBe(true);
    if (E.isRight(result)) return;
    const [error] = reportErrors(result.left);
    expect(error).toEqual({
      path: 'spec.template.spec.providerSpec',
      expected: 'ProviderSpec object',
      received: undefined,
      code: 'missing',
      message: 'spec.template.spec.providerSpec: required field is missing (expected ProviderSpec object)',
    });
    // Every context key is a real field name or array index.
    for (const e of result.left) expect(contextPath(e.context)).not.toMatch(/(^|\.)\d+(\.|$)/);
  });

  it('keeps values short', () => {
    expect(describeValue('x'.repeat(100))).toHaveLength(48);
    expect(describeValue(undefined)).toBe('nothing');
    expect(describeValue({ a: [1, 2] })).toBe('{"a":[1,2]}');
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(describeValue(cyclic)).toBe('[object Object]');
  });

  it('reports unknown fields in strict mode only, inside arrays too', () => {
    const machine = {
      apiVersion: 'cluster.k8s.io/v1alpha1',
      kind: 'Machine',
      spec: {
        providerSpec: { value: { anything: 1 } },
        taints: [{ key: 'k', effect: 'NoSchedule', color: 'red' }],
      },
    };
    expect(messages(v1alpha1.MachineCodec, machine)).toEqual([]);
    expect(messages(v1alpha1.MachineCodec, machine, true)).toEqual(['spec.taints[0].color: unknown field']);
  });
});
