import { describe, expect, it } from 'vitest';
import {
  apiGroup,
  capiConstants,
  expandV1List,
  formatJsonPath,
  formatObjectName,
  isPlainObject,
  isV1List,
  objectLabel,
  objectName,
  v1List,
} from '../../src/objects/index.js';
import * as v1alpha1 from '../../src/v1alpha1/index.js';
import * as v1alpha2 from '../../src/v1alpha2/index.js';

describe('objectLabel', () => {
  it.each([
    [{ kind: 'Machine', metadata: { name: 'web-0', namespace: 'default' } }, 'Machine default/web-0'],
    [{ kind: 'Machine', metadata: { name: 'web-0' } }, 'Machine web-0'],
    [{ kind: 'Machine', metadata: { generateName: 'pool-', namespace: 'ns' } }, 'Machine ns/pool-'],
    [{ kind: 'Machine', metadata: { name: '', generateName: 'pool-' } }, 'Machine pool-'],
    [{ kind: 'Machine', metadata: { name: '', namespace: 'ns' } }, 'Machine'],
    [{ kind: '', metadata: { name: 'x' } }, 'x'],
    [{ kind: 'Machine', metadata: 'not an object' }, 'Machine'],
    [{ kind: 7, metadata: { name: ['x'] } }, ''],
    ['a string', ''],
    [null, ''],
    [[{ kind: 'Machine' }], ''],
  ])('%j → %j', (value, label) => {
    expect(objectLabel(value)).toBe(label);
  });

  it('keeps name and generateName apart, so a name identifies an object', () => {
    expect(objectName({ kind: 'Machine', metadata: { generateName: 'pool-' } })).toEqual({
      kind: 'Machine',
      generateName: 'pool-',
    });
    expect(formatObjectName({ kind: 'Secret', namespace: 'ns', name: 'c-ca' })).toBe('Secret ns/c-ca');
  });
});

describe('formatJsonPath', () => {
  it.each([
    [[], ''],
    [['spec', 'replicas'], 'spec.replicas'],
    [['spec', 'taints', 0, 'key'], 'spec.taints[0].key'],
    [
      ['metadata', 'labels', 'cluster.x-k8s.io/cluster-name'],
      'metadata.labels["cluster.x-k8s.io/cluster-name"]',
    ],
    [['a b', '$x', '_y'], '["a b"].$x._y'],
  ] as const)('%j → %s', (path, text) => {
    expect(formatJsonPath(path)).toBe(text);
  });
});

describe('v1 List', () => {
  it('expands a List to its items and leaves anything else as itself', () => {
    const items = [{ kind: 'Machine' }, 'odd'];
    expect(expandV1List(v1List(items))).toEqual(items);
    expect(expandV1List({ kind: 'Machine' })).toEqual([{ kind: 'Machine' }]);
    // A List whose items are not an array stands for itself, for the caller to report.
    const broken = { apiVersion: 'v1', kind: 'List', items: {} };
    expect(expandV1List(broken)).toEqual([broken]);
    expect(isV1List(broken)).toBe(true);
    expect(isV1List({ apiVersion: 'cluster.x-k8s.io/v1alpha2', kind: 'MachineList', items: [] })).toBe(false);
  });
});

describe('plain objects, groups and constants', () => {
  it('tells plain objects from arrays, null and scalars', () => {
    expect([{}, [], null, 'x', 1].map(isPlainObject)).toEqual([true, false, false, false, false]);
  });

  it('reads the group of an apiVersion', () => {
    expect(apiGroup('cluster.x-k8s.io/v1alpha2')).toBe('cluster.x-k8s.io');
    expect(apiGroup('v1')).toBe('');
  });

  it('holds the same constants as the version entry points', () => {
    expect(capiConstants.v1alpha1.APIVersion).toBe(v1alpha1.APIVersion);
    expect(capiConstants.v1alpha1.Labels).toBe(v1alpha1.Labels);
    expect(capiConstants.v1alpha2.Finalizers).toBe(v1alpha2.Finalizers);
    expect(capiConstants.v1alpha2.Annotations).toBe(v1alpha2.Annotations);
  });
});
