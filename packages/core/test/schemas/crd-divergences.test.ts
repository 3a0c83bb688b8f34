import * as E from 'fp-ts/lib/Either.js';
import { describe, expect, it } from 'vitest';
import { decodeWith, defaultRegistry } from '../../src/index.js';
import { buildOracles, loadLaterCrds, newAjv, type RefinementRule } from './support/crd-oracle.js';

// The places where the codecs decide differently from the raw CRD schema, by design, one
// example per rule (the fidelity test counts how often each rule explains a difference).

const oracles = [...buildOracles(), ...buildOracles(newAjv(), loadLaterCrds())];

function verdicts(apiVersion: string, kind: string, value: Record<string, unknown>) {
  const oracle = oracles.find((o) => o.apiVersion === apiVersion && o.kind === kind)!;
  const codec = defaultRegistry.lookup(apiVersion, kind)!;
  return {
    crd: oracle.crd(value),
    crdClosed: oracle.crdClosed(value),
    codec: E.isRight(decodeWith(codec, value)),
    codecStrict: E.isRight(decodeWith(codec, value, { strict: true })),
  };
}

const v1a1 = 'cluster.k8s.io/v1alpha1';
const v1a2 = 'cluster.x-k8s.io/v1alpha2';
const machineV1 = { apiVersion: v1a1, kind: 'Machine', spec: { providerSpec: {} } };
const clusterV2 = { apiVersion: v1a2, kind: 'Cluster', spec: {} };

const examples: Array<{
  rule: RefinementRule;
  why: string;
  apiVersion: string;
  kind: string;
  value: Record<string, unknown>;
  expected: ReturnType<typeof verdicts>;
}> = [
  {
    rule: 'embedded-type',
    why: 'v1alpha1 CRD types spec.taints items as a bare object; a Taint needs key and effect',
    apiVersion: v1a1,
    kind: 'Machine',
    value: { ...machineV1, spec: { providerSpec: {}, taints: [{ effect: 'NoSchedule' }] } },
    expected: { crd: true, crdClosed: true, codec: false, codecStrict: false },
  },
  {
    rule: 'embedded-type',
    why: 'metadata is a bare object in every CRD; the API server decodes it as ObjectMeta',
    apiVersion: v1a2,
    kind: 'Cluster',
    value: { ...clusterV2, metadata: { name: 5 } },
    expected: { crd: true, crdClosed: true, codec: false, codecStrict: false },
  },
  {
    rule: 'embedded-type',
    why: 'the v1alpha1 CRD lists only `provider` in machineClass; the Go type inlines an ObjectReference',
    apiVersion: v1a1,
    kind: 'Machine',
    value: { ...machineV1, spec: { providerSpec: { valueFrom: { machineClass: { name: 7 } } } } },
    expected: { crd: true, crdClosed: true, codec: false, codecStrict: false },
  },
  {
    rule: 'go-null',
    why: 'cidrBlocks has no omitempty: Go writes null for a nil slice',
    apiVersion: v1a2,
    kind: 'Cluster',
    value: { ...clusterV2, spec: { clusterNetwork: { pods: { cidrBlocks: null } } } },
    expected: { crd: false, crdClosed: false, codec: true, codecStrict: true },
  },
  {
    rule: 'go-null',
    why: 'MachineClass.providerSpec is a RawExtension value: Go writes null when it is empty',
    apiVersion: v1a1,
    kind: 'MachineClass',
    value: { apiVersion: v1a1, kind: 'MachineClass', providerSpec: null },
    expected: { crd: false, crdClosed: false, codec: true, codecStrict: true },
  },
  {
    rule: 'go-null',
    why: 'List items has no omitempty',
    apiVersion: v1a2,
    kind: 'MachineList',
    value: { apiVersion: v1a2, kind: 'MachineList', items: null },
    expected: { crd: false, crdClosed: false, codec: true, codecStrict: true },
  },
  {
    rule: 'int-range',
    why: 'IntOrString unmarshals its number into an int32',
    apiVersion: v1a2,
    kind: 'MachineDeployment',
    value: {
      apiVersion: v1a2,
      kind: 'MachineDeployment',
      spec: { selector: {}, template: {}, strategy: { rollingUpdate: { maxSurge: 2 ** 31 } } },
    },
    expected: { crd: true, crdClosed: true, codec: false, codecStrict: false },
  },
  {
    rule: 'int-range',
    why: 'APIEndpoint.port is a Go int (64-bit); the v1alpha2 CRD gives no format',
    apiVersion: v1a2,
    kind: 'Cluster',
    value: { ...clusterV2, status: { apiEndpoints: [{ host: 'h', port: 2 ** 64 }] } },
    expected: { crd: true, crdClosed: true, codec: false, codecStrict: false },
  },
  {
    rule: 'type-meta',
    why: 'the CRD types kind as any string; a Machine codec only takes kind Machine',
    apiVersion: v1a2,
    kind: 'Cluster',
    value: { ...clusterV2, kind: 'Machine' },
    expected: { crd: true, crdClosed: true, codec: false, codecStrict: false },
  },
  {
    rule: 'strict-unknown',
    why: 'v1alpha1 CRDs keep unknown fields (preserveUnknownFields defaults to true in v1beta1)',
    apiVersion: v1a1,
    kind: 'Machine',
    value: { ...machineV1, spec: { providerSpec: {}, colour: 'blue' } },
    expected: { crd: true, crdClosed: true, codec: true, codecStrict: false },
  },
  {
    rule: 'pruned-unknown',
    why: 'v1beta2 status has minProperties 1; the server prunes an unknown field before counting, ajv counts it',
    apiVersion: 'cluster.x-k8s.io/v1beta2',
    kind: 'MachineHealthCheck',
    value: {
      apiVersion: 'cluster.x-k8s.io/v1beta2',
      kind: 'MachineHealthCheck',
      spec: { clusterName: 'c', selector: {} },
      status: { colour: 'blue' },
    },
    expected: { crd: true, crdClosed: false, codec: false, codecStrict: false },
  },
  {
    rule: 'int-range',
    why: 'v1beta2 unhealthyLessThanOrEqualTo is an IntOrString: Go reads its number as an int32',
    apiVersion: 'cluster.x-k8s.io/v1beta2',
    kind: 'MachineHealthCheck',
    value: {
      apiVersion: 'cluster.x-k8s.io/v1beta2',
      kind: 'MachineHealthCheck',
      spec: {
        clusterName: 'c',
        selector: {},
        remediation: { triggerIf: { unhealthyLessThanOrEqualTo: 2 ** 31 } },
      },
    },
    expected: { crd: true, crdClosed: true, codec: false, codecStrict: false },
  },
];

describe('documented disagreements with the raw CRD', () => {
  it.each(examples.map((e) => [e.rule, e.why, e] as const))('%s: %s', (_rule, _why, example) => {
    expect(verdicts(example.apiVersion, example.kind, example.value)).toEqual(example.expected);
  });

  it('v1alpha2 prunes unknown fields like strict mode reports them', () => {
    const value = { ...clusterV2, spec: { colour: 'blue' } };
    expect(verdicts(v1a2, 'Cluster', value)).toEqual({
      crd: true,
      crdClosed: false,
      codec: true,
      codecStrict: false,
    });
  });
});
