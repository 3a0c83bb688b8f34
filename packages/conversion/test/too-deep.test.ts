import * as E from 'fp-ts/lib/Either.js';
import { describe, expect, it } from 'vitest';
import { convertObject, convertTo, formatConversionError, V1ALPHA1, V1ALPHA3 } from '../src/index.js';
import { deepestPath } from '../src/too-deep.js';

/** `{a: {a: … {}}}`, `depth` levels (built without recursion). */
function nested(depth: number): Record<string, unknown> {
  let value: Record<string, unknown> = {};
  for (let i = 0; i < depth; i++) value = { a: value };
  return value;
}

// Far deeper than any stack this suite runs with (the API server stores up to 10,000 levels).
const DEPTH = 50_000;

describe('an object too deep for the conversion’s walks', () => {
  it('v1alpha2 → v1alpha1: a clear error naming the field, not a RangeError', () => {
    const machine = {
      apiVersion: 'cluster.x-k8s.io/v1alpha2',
      kind: 'Machine',
      metadata: { name: 'm', namespace: 'ns' },
      spec: { x: nested(DEPTH) },
    };
    const result = convertObject(machine, V1ALPHA1);
    if (E.isRight(result)) throw new Error('converted');
    expect(result.left).toMatchObject({
      code: 'too-deep',
      objectKind: 'Machine',
      name: 'm',
      namespace: 'ns',
    });
    expect(formatConversionError(result.left)).toBe(
      `Machine ns/m: spec.x.a.a.a.a.a.a…: nests ${DEPTH + 2} levels deep, too deep to convert`,
    );
  });

  it('along the chain: a topology variable’s free-form value (v1beta1 → v1alpha3)', () => {
    const cluster = {
      apiVersion: 'cluster.x-k8s.io/v1beta1',
      kind: 'Cluster',
      metadata: { name: 'c' },
      spec: {
        topology: { class: 'k', version: 'v1.30.0', variables: [{ name: 'v', value: nested(DEPTH) }] },
      },
    };
    const result = convertTo(cluster, V1ALPHA3);
    if (E.isRight(result)) throw new Error('converted');
    expect(result.left.code).toBe('too-deep');
    expect(result.left.path).toBe('spec.topology.variables[0].value.a.a.a…');
  });

  it('finds the deepest path without recursion', () => {
    expect(deepestPath({ a: [1, { b: {} }], c: 1 })).toEqual({ depth: 3, path: ['a', 1, 'b'] });
    expect(deepestPath('x')).toEqual({ depth: 0, path: [] });
    expect(deepestPath(nested(DEPTH)).depth).toBe(DEPTH);
  });
});
