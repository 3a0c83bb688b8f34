// cluster-autoscaler's own test cases (test/fixtures/vectors.json, each with its upstream
// source) as table tests of the pure functions. The live ones (IncreaseSize, DeleteNodes, …)
// run against real API servers in node-groups.integration.test.ts.
import { readFileSync } from 'node:fs';
import { isLeft, isRight } from 'fp-ts/lib/Either.js';
import { describe, expect, it } from 'vitest';
import {
  allowedByAutoDiscovery,
  autoscalerKeys,
  clusterNameOf,
  failedMachineProviderID,
  isFailedMachineProviderID,
  type KubeObject,
  machineKeyFromFailedProviderID,
  NodeGroupError,
  nodeGroupBoundsOf,
  parseAutoDiscovery,
  parseAutoDiscoverySpec,
  parseScalingBounds,
} from '../src/index.js';

interface Vector {
  name: string;
  // biome-ignore lint/suspicious/noExplicitAny: vectors are free-form JSON, checked per group
  input: any;
  // biome-ignore lint/suspicious/noExplicitAny: as above
  expected: any;
  source: string;
}

const vectors: Vector[] = JSON.parse(
  readFileSync(new URL('./fixtures/vectors.json', import.meta.url), 'utf8'),
);
const group = (prefix: string) => vectors.filter((v) => v.name.startsWith(prefix));
const named = (v: Vector) => [v.name, v] as const;

describe('parseScalingBounds', () => {
  it.each(group('parseScalingBounds').map(named))('%s', (_, v) => {
    const result = parseScalingBounds(v.input.annotations);
    if (v.expected.errorPrefix !== undefined) {
      expect(isLeft(result)).toBe(true);
      if (isLeft(result)) {
        expect(result.left.message.startsWith(v.expected.errorPrefix)).toBe(true);
        expect(result.left.code).toBe(
          v.expected.errorPrefix === 'invalid min annotation'
            ? 'invalid-min-annotation'
            : 'invalid-max-annotation',
        );
        expect(result.left.path).toMatch(/^metadata\.annotations\["cluster\.(x-)?k8s\.io\//);
      }
    } else {
      expect(result).toEqual({ _tag: 'Right', right: { min: v.expected.min, max: v.expected.max } });
    }
  });

  const min = 'cluster.x-k8s.io/cluster-api-autoscaler-node-group-min-size';
  const max = 'cluster.x-k8s.io/cluster-api-autoscaler-node-group-max-size';
  const oldMin = 'cluster.k8s.io/cluster-api-autoscaler-node-group-min-size';
  const oldMax = 'cluster.k8s.io/cluster-api-autoscaler-node-group-max-size';

  it('prefers the cluster.x-k8s.io keys over the cluster.k8s.io ones', () => {
    expect(parseScalingBounds({ [min]: '2', [oldMin]: '1', [max]: '5', [oldMax]: '9' })).toEqual({
      _tag: 'Right',
      right: { min: 2, max: 5 },
    });
    // A bad deprecated key does not matter when the current one is present.
    expect(isRight(parseScalingBounds({ [max]: '3', [oldMax]: 'x' }))).toBe(true);
  });

  it.each([
    ['max below min', { [min]: '3', [max]: '2' }, 'invalid max annotation', max],
    ['spaces (Atoi refuses them)', { [min]: ' 1' }, 'invalid min annotation', min],
    ['a float', { [max]: '1.5' }, 'invalid max annotation', max],
    ['hex', { [max]: '0x10' }, 'invalid max annotation', max],
    ['out of range', { [max]: '99999999999999999999' }, 'invalid max annotation', max],
    ['not a string', { [oldMin]: 3 }, 'invalid min annotation', oldMin],
  ])('refuses %s, naming the annotation', (_, annotations, prefix, key) => {
    const result = parseScalingBounds(annotations as Record<string, unknown>);
    expect(isLeft(result) && result.left.message.startsWith(prefix)).toBe(true);
    expect(isLeft(result) && result.left.path).toBe(`metadata.annotations[${JSON.stringify(key)}]`);
  });

  // Adversarial values, each checked against upstream's minSize/maxSize/parseScalingBounds
  // (strconv.Atoi on a 64-bit int): `[min, max]` or the code of the error.
  const int64Max = '9223372036854775807';
  const safe = Number.MAX_SAFE_INTEGER;
  it.each<[string, Record<string, string>, readonly [number, number] | string]>([
    ['leading zeros', { [min]: '007', [max]: '010' }, [7, 10]],
    ['+0 and -00', { [min]: '+0', [max]: '-00' }, [0, 0]],
    ['a plus sign', { [max]: '+5' }, [0, 5]],
    ['-0 (zero, not a negative)', { [min]: '-0', [max]: '1' }, [0, 1]],
    ['a leading space', { [max]: ' 5' }, 'invalid-max-annotation'],
    ['a trailing newline', { [max]: '5\n' }, 'invalid-max-annotation'],
    ['a leading tab', { [min]: '\t5' }, 'invalid-min-annotation'],
    ['empty', { [min]: '' }, 'invalid-min-annotation'],
    ['a sign alone', { [max]: '+' }, 'invalid-max-annotation'],
    ['two signs', { [max]: '+-1' }, 'invalid-max-annotation'],
    ['digit separators', { [max]: '1_000' }, 'invalid-max-annotation'],
    ['a binary prefix', { [max]: '0b1' }, 'invalid-max-annotation'],
    ['non-ASCII digits', { [max]: '\u0663' }, 'invalid-max-annotation'],
    ['full-width digits', { [max]: '\uff11' }, 'invalid-max-annotation'],
    ['a negative min', { [min]: '-1', [max]: '3' }, 'invalid-min-annotation'],
    ['the smallest int64', { [min]: '-9223372036854775808' }, 'invalid-min-annotation'],
    ['past int64', { [max]: '9223372036854775808' }, 'invalid-max-annotation'],
    // Upstream takes any int64: a huge max is a group that never reaches it (it was refused,
    // and the whole provider then listed no groups).
    ['max past 2^53', { [max]: '9007199254740993' }, [0, safe]],
    ['max at int64', { [min]: '1', [oldMax]: int64Max }, [1, safe]],
    ['min past 2^53 with no max (max 0 is below it)', { [min]: int64Max }, 'invalid-max-annotation'],
    ['huge min below huge max', { [min]: '9223372036854775806', [max]: int64Max }, [safe - 1, safe]],
    ['huge min equal to huge max', { [min]: int64Max, [max]: int64Max }, [safe, safe]],
    [
      'huge max below huge min',
      { [min]: '9007199254740993', [max]: '9007199254740992' },
      'invalid-max-annotation',
    ],
  ])('reads %s as strconv.Atoi does', (_, annotations, expected) => {
    const result = parseScalingBounds(annotations);
    if (typeof expected === 'string') expect(isLeft(result) && result.left.code).toBe(expected);
    else {
      expect(result).toEqual({ _tag: 'Right', right: { min: expected[0], max: expected[1] } });
      // (Number('-0') is -0, which no Go int is)
      if (isRight(result))
        expect([Object.is(result.right.min, -0), Object.is(result.right.max, -0)]).toEqual([false, false]);
    }
  });

  it('accepts a leading + as Atoi does, and no annotations at all', () => {
    expect(parseScalingBounds({ [max]: '+4' })).toEqual({ _tag: 'Right', right: { min: 0, max: 4 } });
    expect(parseScalingBounds(undefined)).toEqual({ _tag: 'Right', right: { min: 0, max: 0 } });
  });
});

describe('failed-machine placeholders', () => {
  it.each(group('isFailedMachineProviderID').map(named))('%s', (_, v) => {
    expect(isFailedMachineProviderID(v.input.normalizedProviderID)).toBe(v.expected.isFailed);
  });
  it.each(group('machineKeyFromFailedProviderID').map(named))('%s', (_, v) => {
    expect(machineKeyFromFailedProviderID(v.input.normalizedProviderID)).toBe(v.expected.machineKey);
  });
  it.each(group('Nodes()').map(named))('%s', (_, v) => {
    const machine = { metadata: { namespace: 'ns-1', name: 'm-1' }, ...v.input.machine };
    const expected = v.expected.instanceId.replace('<ns>', 'ns-1').replace('<machine>', 'm-1');
    expect(failedMachineProviderID(machine)).toBe(expected);
  });
});

describe('clusterNameOf', () => {
  it.each(group('clusterNameFromResource').map(named))('%s', (_, v) => {
    expect(clusterNameOf(v.input.resource)).toBe(v.expected.clusterName);
  });
  it('spec.clusterName wins over labels, even when empty (as upstream)', () => {
    expect(
      clusterNameOf({
        metadata: { labels: { 'cluster.x-k8s.io/cluster-name': 'a' } },
        spec: { clusterName: '' },
      }),
    ).toBe('');
    expect(
      clusterNameOf({
        metadata: {
          labels: { 'cluster.k8s.io/cluster-name': 'old', 'cluster.x-k8s.io/cluster-name': 'new' },
        },
      }),
    ).toBe('new');
  });
});

// Objects a caller may hand in with mistyped fields (an API server stores none of them),
// read as cluster-autoscaler 1.20's unstructured accessors read them: NestedString on
// spec.clusterName fails on a spec that is no object (→ ''); NestedStringMap (GetLabels, the
// template's labels) gives no map at all when one value is not a string.
const mistyped = (o: Record<string, unknown>) => o as unknown as KubeObject;
const clusterLabels = { 'cluster.x-k8s.io/cluster-name': 'c1' };
const mistypedResources: [string, KubeObject, string, boolean][] = [
  // [what, resource, clusterNameOf, allowed by clusterapi:clusterName=c1,env=a]
  [
    'a spec that is a string',
    mistyped({ metadata: { labels: { ...clusterLabels, env: 'a' } }, spec: 's' }),
    '',
    false,
  ],
  [
    'a spec that is a number',
    mistyped({ metadata: { labels: { ...clusterLabels, env: 'a' } }, spec: 5 }),
    '',
    false,
  ],
  [
    'a spec that is a list',
    mistyped({ metadata: { labels: { ...clusterLabels, env: 'a' } }, spec: [] }),
    '',
    false,
  ],
  [
    'a null spec (absent)',
    mistyped({ metadata: { labels: { ...clusterLabels, env: 'a' } }, spec: null }),
    'c1',
    true,
  ],
  [
    'a label that is a number',
    mistyped({ metadata: { labels: { ...clusterLabels, env: 'a', n: 1 } } }),
    '',
    false,
  ],
  [
    'a label that is null (CA 1.20 does not coerce it)',
    mistyped({ metadata: { labels: { ...clusterLabels, env: 'a', n: null } } }),
    '',
    false,
  ],
  [
    'a template label that is a number',
    mistyped({
      metadata: { labels: { env: 'a' } },
      spec: { template: { metadata: { labels: { 'cluster.k8s.io/cluster-name': 'c1', n: 2 } } } },
    }),
    '',
    false,
  ],
  [
    'well-typed template labels',
    mistyped({
      metadata: { labels: { env: 'a' } },
      spec: { template: { metadata: { labels: { 'cluster.k8s.io/cluster-name': 'c1' } } } },
    }),
    'c1',
    true,
  ],
];

describe('mistyped fields, as upstream reads them', () => {
  it.each(mistypedResources)('clusterNameOf: %s', (_, resource, clusterName) => {
    expect(clusterNameOf(resource)).toBe(clusterName);
  });
  it.each(mistypedResources)('allowedByAutoDiscovery: %s', (_, resource, __, allowed) => {
    expect(allowedByAutoDiscovery(resource, 'clusterapi:clusterName=c1,env=a')).toBe(allowed);
  });
  it('a selector that requires no label admits labels of any type', () => {
    expect(allowedByAutoDiscovery(mistyped({ metadata: { labels: { n: 1 } } }), 'clusterapi:')).toBe(true);
  });
});

describe('auto-discovery', () => {
  it.each(group('parseAutoDiscoverySpec').map(named))('%s', (_, v) => {
    const result = parseAutoDiscoverySpec(v.input.spec);
    if (v.expected.error) {
      expect(isLeft(result)).toBe(true);
      if (isLeft(result)) expect(result.left.code).toBe('invalid-auto-discovery-spec');
    } else {
      expect(result).toEqual({ _tag: 'Right', right: v.expected });
    }
  });

  it.each(group('parseAutoDiscovery:').map(named))('%s', (_, v) => {
    const result = parseAutoDiscovery(v.input.specs);
    if (v.expected.error) {
      expect(isLeft(result) && result.left.path).toBe('autoDiscovery[0]');
    } else {
      expect(result).toEqual({ _tag: 'Right', right: v.expected.configs });
    }
  });

  it.each([
    ['a bad label key', 'clusterapi:-bad=x', 'failed to create label selector'],
    ['a bad label value', 'clusterapi:color=a b', 'failed to create label selector'],
    ['a pair with two =', 'clusterapi:a=b=c', 'invalid key=value pair'],
    ['no discoverer', 'namespace=x', 'should be discoverer:key=value,key=value'],
  ])('refuses %s', (_, spec, message) => {
    const result = parseAutoDiscoverySpec(spec);
    expect(isLeft(result) && result.left.message).toContain(message);
  });

  it('a label key required to equal two values admits nothing, as upstream ANDs every requirement', () => {
    // (it kept the later value: env=a,env=b admitted a MachineSet labelled env=b)
    const parsed = parseAutoDiscoverySpec('clusterapi:env=a,env=b,env=a,team=x');
    expect(parsed).toEqual({
      _tag: 'Right',
      right: {
        namespace: '',
        clusterName: '',
        labelSelector: { env: 'a', team: 'x' },
        conflictingLabels: ['env'],
      },
    });
    const set = (env: string): KubeObject => ({
      apiVersion: 'cluster.x-k8s.io/v1alpha3',
      kind: 'MachineSet',
      metadata: { name: 'ms', namespace: 'default', labels: { env, team: 'x' } },
    });
    for (const env of ['a', 'b'])
      expect(allowedByAutoDiscovery(set(env), 'clusterapi:env=a,env=b')).toBe(false);
    // The same value twice is one requirement twice: still satisfiable.
    expect(allowedByAutoDiscovery(set('a'), 'clusterapi:env=a,env=a')).toBe(true);
  });

  // Upstream's fixtures are v1alpha3 MachineSets/Deployments with spec.clusterName;
  // `<random>` stands for a generated name that matches nothing else.
  const fixture = (v: Vector): KubeObject => {
    const r = v.input.resource;
    const random = (s: string) => (s === '<random>' ? `random-${Math.random().toString(36).slice(2)}` : s);
    return {
      apiVersion: 'cluster.x-k8s.io/v1alpha3',
      kind: r.kind,
      metadata: { name: 'r', namespace: random(r.namespace), labels: r.extraLabels ?? {} },
      spec: { clusterName: random(r['clusterName(spec.clusterName, v1alpha3 fixture)']) },
    };
  };
  it.each(group('allowedByAutoDiscoverySpec').map(named))('%s', (_, v) => {
    const spec = { namespace: '', clusterName: '', labelSelector: {}, ...v.input.config };
    expect(allowedByAutoDiscovery(fixture(v), [spec])).toBe(v.expected.allowed);
  });

  const ms: KubeObject = {
    metadata: { name: 'a', namespace: 'test', labels: { color: 'blue' } },
    spec: { clusterName: 'foo' },
  };
  it('ORs specs, admits everything without one, and takes specs as text', () => {
    expect(allowedByAutoDiscovery(ms, [])).toBe(true);
    expect(allowedByAutoDiscovery(ms, undefined)).toBe(true);
    expect(allowedByAutoDiscovery(ms, ['clusterapi:namespace=other', 'clusterapi:color=blue'])).toBe(true);
    expect(allowedByAutoDiscovery(ms, ['clusterapi:namespace=other', 'clusterapi:color=red'])).toBe(false);
    expect(allowedByAutoDiscovery(ms, 'clusterapi:clusterName=foo,namespace=test')).toBe(true);
    expect(() => allowedByAutoDiscovery(ms, ['clusterapi:nope'])).toThrow(/invalid key=value pair/);
  });

  it('throws a NodeGroupError tagged invalid-options for a spec that does not parse, with its path in a list', () => {
    const thrown = (specs: string | string[]) => {
      try {
        allowedByAutoDiscovery(ms, specs);
      } catch (error) {
        return error;
      }
      throw new Error('expected a throw');
    };
    const inList = thrown(['clusterapi:color=red', 'clusterapi:nope']);
    expect(inList).toBeInstanceOf(NodeGroupError);
    expect(inList).toMatchObject({
      code: 'invalid-options',
      path: 'autoDiscovery[1]',
      details: { path: 'autoDiscovery[1]' },
    });
    const alone = thrown('clusterapi:nope');
    expect(alone).toMatchObject({ code: 'invalid-options' });
    expect(alone).not.toHaveProperty('path');
  });
});

describe('node group eligibility (nodeGroupBoundsOf)', () => {
  const resource = (annotations: Record<string, string>, replicas?: number): KubeObject => ({
    metadata: { name: 'g', namespace: 'ns', annotations },
    spec: replicas === undefined ? {} : { replicas },
  });
  it.each(group('newNodeGroup').map(named))('%s', (_, v) => {
    const result = nodeGroupBoundsOf(resource(v.input.annotations, v.input.replicas));
    if (v.expected.error) expect(isLeft(result)).toBe(true);
    else if (v.expected.nodeGroup === null) expect(result).toEqual({ _tag: 'Right', right: null });
    // The 1.19 constructor still built a group CA then never listed: not a group here.
    else expect(result).toEqual({ _tag: 'Right', right: null });
  });
  it.each(group('nodeGroups').map(named))('%s', (_, v) => {
    const results = Array.from({ length: v.input.machineSets + (v.input.machineDeployments ?? 0) }, () =>
      nodeGroupBoundsOf(resource(v.input.annotations, 1)),
    );
    if (v.expected.error) expect(results.some(isLeft)).toBe(true);
    else
      expect(results.filter((r) => isRight(r) && r.right !== null)).toHaveLength(v.expected.nodeGroupCount);
  });
  it('reports a bound annotation that is not a string instead of forgetting it', () => {
    // (numbers were dropped: the MachineSet silently stopped being a node group)
    const min = 'cluster.x-k8s.io/cluster-api-autoscaler-node-group-min-size';
    const max = 'cluster.x-k8s.io/cluster-api-autoscaler-node-group-max-size';
    // (an API server stores only strings; a library caller may hand in anything)
    const unchecked = (annotations: Record<string, unknown>) =>
      ({ metadata: { name: 'g', annotations }, spec: {} }) as unknown as KubeObject;
    const numbers = unchecked({ [min]: 1, [max]: 5 });
    const result = nodeGroupBoundsOf(numbers);
    expect(isLeft(result) && result.left.message).toMatch(/expected a string, got 1/);
    const mixed = nodeGroupBoundsOf(unchecked({ [min]: '1', [max]: 5 }));
    expect(isLeft(mixed) && mixed.left.message).toMatch(/expected a string, got 5/);
  });

  it('is a group with room to scale and replicas unset or above zero', () => {
    const max = { 'cluster.x-k8s.io/cluster-api-autoscaler-node-group-max-size': '3' };
    expect(nodeGroupBoundsOf(resource(max))).toEqual({ _tag: 'Right', right: { min: 0, max: 3 } });
    expect(nodeGroupBoundsOf(resource(max, 2))).toEqual({ _tag: 'Right', right: { min: 0, max: 3 } });
  });
});

describe('annotation keys per group', () => {
  it.each(group('key helpers').map(named))('%s', (_, v) => {
    expect(autoscalerKeys(v.input.CAPI_GROUP ?? undefined)).toEqual(v.expected);
  });
});
