// Scale from zero: the capacity annotations, parsed as untrusted input.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  annotationPath,
  capacityAnnotations as keys,
  nodeGroupBoundsOf,
  parseCapacityAnnotations,
  templateNodeOf,
} from '../src/index.js';

const parse = (annotations: Record<string, unknown>) => parseCapacityAnnotations(annotations);
const error = (annotations: Record<string, unknown>) => {
  const result = parse(annotations);
  if (result._tag === 'Right') throw new Error(`parsed: ${JSON.stringify(result.right)}`);
  return result.left;
};
const base = { [keys.cpu]: '4', [keys.memory]: '16Gi' };

describe('parseCapacityAnnotations', () => {
  it('reads every annotation as cluster-autoscaler does', () => {
    const result = parse({
      ...base,
      [keys.ephemeralDisk]: '100Gi',
      [keys.gpuType]: 'nvidia.com/gpu',
      [keys.gpuCount]: '2',
      [keys.labels]: 'pool=gpu,example.com/tier=',
      [keys.taints]: 'dedicated=gpu:NoSchedule,spot:PreferNoSchedule,dedicated=ml:NoSchedule',
    });
    expect(result).toEqual({
      _tag: 'Right',
      right: {
        capacity: {
          cpu: '4',
          memory: '16Gi',
          'ephemeral-storage': '100Gi',
          'nvidia.com/gpu': '2',
          pods: '110',
        },
        labels: { pool: 'gpu', 'example.com/tier': '' },
        // (a later taint with the same key and effect replaces the earlier one)
        taints: [
          { key: 'dedicated', value: 'ml', effect: 'NoSchedule' },
          { key: 'spot', effect: 'PreferNoSchedule' },
        ],
      },
    });
  });

  it('maxPods defaults to 110 (absent, empty or 0) and is read otherwise', () => {
    for (const maxPods of [undefined, '', '0'])
      expect(parse({ ...base, ...(maxPods === undefined ? {} : { [keys.maxPods]: maxPods }) })).toMatchObject(
        {
          right: { capacity: { pods: '110' } },
        },
      );
    expect(parse({ ...base, [keys.maxPods]: '250' })).toMatchObject({ right: { capacity: { pods: '250' } } });
  });

  it('without non-zero cpu and memory the group cannot scale from zero (null)', () => {
    expect(parse({})).toEqual({ _tag: 'Right', right: null });
    expect(parse({ [keys.cpu]: '4' })).toEqual({ _tag: 'Right', right: null });
    expect(parse({ ...base, [keys.memory]: '0Gi' })).toEqual({ _tag: 'Right', right: null });
    expect(parse({ ...base, [keys.cpu]: '' })).toEqual({ _tag: 'Right', right: null });
    // A GPU count without a type (or of 0) adds no resource, as upstream.
    expect(parse({ ...base, [keys.gpuCount]: '2' })).toMatchObject({
      right: { capacity: { cpu: '4', memory: '16Gi', pods: '110' } },
    });
  });

  it('accepts every form of a Kubernetes quantity', () => {
    for (const q of [
      '1',
      '+1',
      '500m',
      '1.5',
      '.5',
      '2.',
      '1Ki',
      '3Ei',
      '1k',
      '2M',
      '1E',
      '1e3',
      '5E-2',
      '12n',
      '7u',
    ])
      expect(parse({ ...base, [keys.cpu]: q })).toMatchObject({ right: { capacity: { cpu: q } } });
  });

  it.each([
    [keys.cpu, '4 cores', 'not a quantity: unknown suffix " cores"'],
    [keys.cpu, '', null],
    [keys.memory, '-1Gi', '"-1Gi" is negative'],
    [keys.memory, '16GB', 'unknown suffix "GB"'],
    [keys.memory, 'Gi', 'expected a number'],
    [keys.memory, '1e', 'unknown suffix "e"'],
    [keys.memory, '1e+', 'exponent "e+" has no digits'],
    [keys.ephemeralDisk, '1.2.3', 'unknown suffix ".3"'],
    [keys.cpu, '1'.repeat(65), 'longer than 64 characters'],
    [keys.maxPods, '1.5', 'not an integer'],
    [keys.maxPods, '-3', 'is negative'],
    [keys.gpuCount, '99999999999999999', 'out of range'],
    [keys.gpuType, 'nvidia.com/gpu/x', 'the resource name has more than one'],
    [keys.labels, 'pool', 'entry 1 "pool" is not key=value'],
    [keys.labels, 'a=b,', 'entry 2 "" is not key=value'],
    [keys.labels, '-pool=x', 'the key of entry 1 must be letters'],
    [keys.labels, 'Example.com/pool=x', 'the prefix of the key of entry 1 must be a DNS subdomain'],
    [keys.labels, `pool=${'v'.repeat(64)}`, 'the value of entry 1 is longer than 63 characters'],
    [keys.labels, 'pool=a b', 'the value of entry 1 must be letters'],
    [keys.taints, 'dedicated=gpu', 'entry 1 "dedicated=gpu" is not key[=value]:Effect'],
    [keys.taints, 'a:b:NoSchedule', 'is not key[=value]:Effect'],
    [keys.taints, 'dedicated=gpu:Sometimes', 'entry 1 has effect "Sometimes": expected NoSchedule'],
    [keys.taints, 'a=b=c:NoSchedule', 'the value of entry 1 must be letters'],
    [keys.taints, 'a:NoSchedule,:NoExecute', 'the key of entry 2 is empty'],
  ])('%s = %j is refused, naming the annotation and why', (key, value, why) => {
    if (why === null) {
      expect(parse({ ...base, [key]: value })._tag).toBe('Right');
      return;
    }
    const e = error({ ...base, [key]: value });
    expect(e.code).toBe('invalid-capacity-annotation');
    expect(e.path).toBe(annotationPath(key));
    expect(e.message.startsWith(`invalid capacity annotation: ${annotationPath(key)}: `)).toBe(true);
    expect(e.message).toContain(why);
  });

  it('refuses a value that is not a string', () => {
    expect(error({ ...base, [keys.maxPods]: 110 }).message).toBe(
      `invalid capacity annotation: ${annotationPath(keys.maxPods)}: expected a string, got number`,
    );
  });

  it('bounds what it reads: huge values are refused by length, not scanned into', () => {
    const huge = 'a=b,'.repeat(5000);
    expect(error({ ...base, [keys.labels]: huge }).message).toContain('longer than 16384 characters');
    expect(error({ ...base, [keys.taints]: `${'x'.repeat(20_000)}:NoSchedule` }).message).toContain(
      'longer than 16384 characters',
    );
    const long = error({ ...base, [keys.memory]: `1${'0'.repeat(1_000_000)}x` });
    expect(long.message).toContain('longer than 64 characters');
    expect(long.message.length).toBeLessThan(300);
  });

  it('agrees with the quantity grammar on any short string, and never throws', () => {
    // The reference: resource.ParseQuantity's grammar, as an anchored expression (fine on
    // these short strings; the implementation scans instead).
    const grammar =
      /^[+-]?([0-9]+(\.[0-9]*)?|\.[0-9]+)(Ki|Mi|Gi|Ti|Pi|Ei|n|u|m|k|M|G|T|P|E|[eE][+-]?[0-9]+)?$/;
    const alphabet = fc.constantFrom(...'0123456789.+-eEKiMGTPnumk x'.split(''));
    fc.assert(
      fc.property(fc.string({ unit: alphabet, maxLength: 12 }), (q) => {
        const result = parse({ ...base, [keys.cpu]: q });
        if (q === '') return result._tag === 'Right';
        const ok = grammar.test(q) && !/^-.*[1-9]/.test(q.replace(/[eE][+-]?[0-9]+$/, ''));
        return (result._tag === 'Right') === ok;
      }),
      { numRuns: 5000 },
    );
    fc.assert(
      fc.property(fc.string({ maxLength: 40 }), fc.string({ maxLength: 40 }), (labels, taints) => {
        const result = parse({ ...base, [keys.labels]: labels, [keys.taints]: taints });
        return result._tag === 'Right' || result.left.message.startsWith('invalid capacity annotation: ');
      }),
    );
  });
});

describe('scale from zero', () => {
  const group = (replicas: number, annotations: Record<string, string>) => ({
    metadata: {
      name: 'pool-a',
      namespace: 'prod',
      annotations: {
        'cluster.x-k8s.io/cluster-api-autoscaler-node-group-min-size': '0',
        'cluster.x-k8s.io/cluster-api-autoscaler-node-group-max-size': '5',
        ...annotations,
      },
    },
    spec: { replicas },
  });

  it('a group at zero replicas is a node group when its annotations give a template node', () => {
    expect(nodeGroupBoundsOf(group(0, {}))).toEqual({ _tag: 'Right', right: null });
    expect(nodeGroupBoundsOf(group(0, base))).toEqual({ _tag: 'Right', right: { min: 0, max: 5 } });
    // An annotation that does not parse: it cannot scale from zero.
    expect(nodeGroupBoundsOf(group(0, { ...base, [keys.labels]: 'oops' }))).toEqual({
      _tag: 'Right',
      right: null,
    });
    expect(nodeGroupBoundsOf(group(1, {}))).toEqual({ _tag: 'Right', right: { min: 0, max: 5 } });
  });

  it('the template node: capacity = allocatable, Ready, taints, labels over the defaults', () => {
    const capacity = parse({
      ...base,
      [keys.labels]: 'kubernetes.io/arch=arm64,pool=a',
      [keys.taints]: 'spot:NoSchedule',
    });
    if (capacity._tag === 'Left' || capacity.right === null) throw new Error('no capacity');
    expect(templateNodeOf(group(0, base), capacity.right)).toEqual({
      apiVersion: 'v1',
      kind: 'Node',
      metadata: {
        name: 'pool-a-template',
        labels: {
          'kubernetes.io/arch': 'arm64',
          'kubernetes.io/os': 'linux',
          'kubernetes.io/hostname': 'pool-a-template',
          pool: 'a',
        },
      },
      spec: { taints: [{ key: 'spot', effect: 'NoSchedule' }] },
      status: {
        capacity: { cpu: '4', memory: '16Gi', pods: '110' },
        allocatable: { cpu: '4', memory: '16Gi', pods: '110' },
        conditions: [{ type: 'Ready', status: 'True' }],
      },
    });
  });
});
