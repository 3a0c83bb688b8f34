import * as E from 'fp-ts/lib/Either.js';
import * as t from 'io-ts';
import { describe, expect, it } from 'vitest';
import { decode, decodeWith, isKind, KindRegistry, strict } from '../../src/index.js';
import * as v1alpha1 from '../../src/v1alpha1/index.js';
import * as v1alpha2 from '../../src/v1alpha2/index.js';

const machineV2 = {
  apiVersion: 'cluster.x-k8s.io/v1alpha2',
  kind: 'Machine',
  metadata: {
    name: 'm-1',
    namespace: 'default',
    labels: { 'cluster.x-k8s.io/cluster-name': 'c1', 'cluster.x-k8s.io/control-plane': 'true' },
    creationTimestamp: null,
  },
  spec: {
    bootstrap: {
      configRef: { apiVersion: 'bootstrap.cluster.x-k8s.io/v1alpha2', kind: 'KubeadmConfig', name: 'm-1' },
    },
    infrastructureRef: {
      apiVersion: 'infrastructure.cluster.x-k8s.io/v1alpha2',
      kind: 'AWSMachine',
      name: 'm-1',
    },
    version: 'v1.15.3',
  },
  status: { bootstrapReady: false, infrastructureReady: false, phase: 'pending' },
};

const machineV1 = {
  apiVersion: 'cluster.k8s.io/v1alpha1',
  kind: 'Machine',
  metadata: { name: 'm-1', namespace: 'default' },
  spec: {
    providerSpec: {
      value: { apiVersion: 'awsprovider/v1alpha1', kind: 'AWSMachineProviderSpec', instanceType: 't3.large' },
    },
    versions: { kubelet: '1.14.3', controlPlane: '1.14.3' },
    taints: [{ key: 'dedicated', value: 'infra', effect: 'NoSchedule' }],
  },
  status: {
    nodeRef: { kind: 'Node', name: 'ip-10-0-0-1' },
    addresses: [{ type: 'InternalIP', address: '10.0.0.1' }],
    conditions: [
      { type: 'Ready', status: 'True', lastHeartbeatTime: null, lastTransitionTime: '2019-09-06T10:00:00Z' },
    ],
  },
};

function errorsOf(value: unknown, options = {}) {
  const result = decode(value, options);
  if (E.isRight(result)) throw new Error('expected a failure');
  if (result.left.code !== 'invalid') throw new Error(`unexpected ${result.left.code}`);
  return result.left.errors;
}

describe('decode', () => {
  it('dispatches on apiVersion + kind and returns the input itself', () => {
    for (const value of [machineV1, machineV2]) {
      const result = decode(value);
      expect(E.isRight(result) && result.right).toBe(value);
    }
    const decoded = decode(machineV2);
    if (E.isLeft(decoded)) throw new Error('unreachable');
    const object = decoded.right;
    if (isKind(object, 'cluster.x-k8s.io/v1alpha2', 'Machine')) {
      expect(object.spec?.infrastructureRef.kind).toBe('AWSMachine');
    } else {
      throw new Error('not narrowed');
    }
  });

  it('reports every error with path, expected type and value', () => {
    const broken = {
      ...machineV2,
      spec: { bootstrap: 'none', version: 115, metadata: { labels: { 'a/b': 1 } } },
      status: { phase: 'pending', addresses: [{ type: 'InternalIP' }] },
    };
    expect(errorsOf(broken).map((e) => e.message)).toEqual([
      'spec.bootstrap: expected Bootstrap object, got "none"',
      'spec.infrastructureRef: required field is missing (expected ObjectReference object)',
      'spec.metadata.labels["a/b"]: expected string, got 1',
      'spec.version: expected string, got 115',
      'status.addresses[0].address: required field is missing (expected string)',
    ]);
  });

  it('takes null labels and annotations in metadata, as the API server does, and keeps the null', () => {
    // YAML's `labels:` with nothing after it; Go's JSON decoder reads a null map as empty.
    for (const base of [machineV1, machineV2]) {
      const value = { ...base, metadata: { ...base.metadata, labels: null, annotations: null } };
      const result = decode(value, { strict: true });
      expect(E.isRight(result) && result.right).toBe(value);
      expect(value.metadata.labels).toBeNull();
    }
    // Anything else that is not a map of strings is still refused, and so is a null where
    // the CRD's schema (not ObjectMeta) decides: the v1alpha2 spec.metadata subset.
    const broken = {
      ...machineV2,
      metadata: { name: 'm-1', labels: 'a=b', annotations: { n: 1 } },
      spec: { ...machineV2.spec, metadata: { labels: null } },
    };
    expect(errorsOf(broken).map((e) => e.message)).toEqual([
      'metadata.labels: expected map[string]string | null, got "a=b"',
      'metadata.annotations.n: expected string, got 1',
      'spec.metadata.labels: expected map[string]string, got null',
    ]);
  });

  it('keeps unknown fields by default and reports them in strict mode', () => {
    const extra = {
      ...machineV2,
      spec: { ...machineV2.spec, bootstrap: { data: '', extra: 1 } },
      extraTop: true,
    };
    expect(E.isRight(decode(extra))).toBe(true);
    expect(errorsOf(extra, { strict: true }).map((e) => [e.path, e.code])).toEqual([
      ['spec.bootstrap.extra', 'unknown'],
      ['extraTop', 'unknown'],
    ]);
    // Free-form objects (RawExtension) are never strict-checked.
    expect(E.isRight(decode({ ...machineV1, spec: { ...machineV1.spec } }, { strict: true }))).toBe(true);
  });

  it('names unknown kinds and non-objects', () => {
    const secret = decode({ apiVersion: 'v1', kind: 'Secret' });
    expect(E.isLeft(secret) && secret.left.code).toBe('unknown-kind');
    // ClusterClass and MachinePool are not typed: they are unknown kinds, not errors in a known one.
    const classV1beta1 = decode({ apiVersion: 'cluster.x-k8s.io/v1beta1', kind: 'ClusterClass' });
    expect(E.isLeft(classV1beta1) && classV1beta1.left.message).toBe(
      'unknown kind ClusterClass in cluster.x-k8s.io/v1beta1',
    );
    const poolV1beta2 = decode({ apiVersion: 'cluster.x-k8s.io/v1beta2', kind: 'MachinePool' });
    expect(E.isLeft(poolV1beta2) && poolV1beta2.left.code).toBe('unknown-kind');
    expect(E.isLeft(decode([1])) && E.isLeft(decode(null))).toBe(true);
    const noKind = decode({ metadata: {} });
    expect(E.isLeft(noKind) && noKind.left.message).toBe('no apiVersion and kind');
  });

  it('accepts a custom registry', () => {
    const registry = new KindRegistry().register('v1', 'Thing', v1alpha2.ObjectReferenceCodec);
    expect(E.isRight(decode({ apiVersion: 'v1', kind: 'Thing' }, { registry }))).toBe(true);
    expect(E.isLeft(decode(machineV2, { registry }))).toBe(true);
  });
});

describe('per-kind codecs and guards', () => {
  it('guards check the whole value', () => {
    expect(v1alpha2.isMachine(machineV2)).toBe(true);
    expect(v1alpha1.isMachine(machineV1)).toBe(true);
    expect(v1alpha2.isMachine(machineV1)).toBe(false);
    expect(v1alpha2.isMachine({ ...machineV2, spec: { bootstrap: {} } })).toBe(false);
  });

  it('Lists accept items without apiVersion/kind and Go nulls', () => {
    const list = {
      apiVersion: 'cluster.x-k8s.io/v1alpha2',
      kind: 'MachineList',
      metadata: {},
      items: [{ spec: machineV2.spec }],
    };
    expect(v1alpha2.isMachineList(list)).toBe(true);
    expect(v1alpha2.isMachineList({ ...list, items: null })).toBe(true);
    expect(v1alpha2.isMachineList({ ...list, items: [{ kind: 'Cluster' }] })).toBe(false);
  });

  it('decodeWith runs transforming codecs through validate (the guard fast path is for identity codecs)', () => {
    const doubled = new t.Type<number, number, unknown>(
      'doubled',
      (u): u is number => typeof u === 'number',
      (u, c) => (typeof u === 'number' ? t.success(u * 2) : t.failure(u, c)),
      (a) => a / 2,
    );
    expect(decodeWith(doubled, 21)).toEqual(E.right(42));
    expect(v1alpha2.MachineCodec.encode).toBe(t.identity);
  });

  it('decodeWith works with any codec, strict too', () => {
    expect(E.isRight(decodeWith(v1alpha1.MachineSpecCodec, machineV1.spec))).toBe(true);
    const result = decodeWith(v1alpha1.MachineSetSpecCodec, {
      selector: {},
      deletePolicy: 'Sometimes',
      replicas: 2 ** 31,
    });
    expect(E.isLeft(result) && result.left.map((e) => e.message)).toEqual([
      'replicas: expected int32 (>= 0), got 2147483648',
      'deletePolicy: expected "Random" | "Newest" | "Oldest", got "Sometimes"',
    ]);
    expect(strict(v1alpha1.MachineSetSpecCodec).is({ selector: {}, x: 1 })).toBe(false);
    expect(v1alpha1.MachineSetSpecCodec.is({ selector: {}, x: 1 })).toBe(true);
  });
});

describe('an object with a very large number of errors', () => {
  it('reports each of them (collecting them with push(...errors) overflowed the stack past ~120,000)', () => {
    const count = 200_000;
    const labels = Object.fromEntries(Array.from({ length: count }, (_, i) => [`k${i}`, i]));
    const taints = Array.from({ length: count }, () => ({ effect: 7 }));
    const object = {
      ...machineV1,
      metadata: { ...machineV1.metadata, labels },
      spec: { ...machineV1.spec, taints },
    };
    expect(errorsOf(object).length).toBeGreaterThanOrEqual(2 * count);
  });
});
