import * as E from 'fp-ts/lib/Either.js';
import { describe, expect, it } from 'vitest';
import {
  CONVERSION_DATA_ANNOTATION,
  convertObject,
  convertTo,
  type Json,
  type JsonObject,
  V1ALPHA1,
  V1ALPHA2,
  V1ALPHA4,
  V1BETA1,
  V1BETA2,
} from '../src/index.js';
import { MAX_STASH_DEPTH } from '../src/stash-rules.js';
import { handleConversionReview } from '../src/webhook.js';

// A stash nests no deeper than MAX_STASH_DEPTH levels, counted in its text. A patch path is
// one flat list in that text, yet applying it makes one object level per key: a forged
// v1beta1 stash with `["status", "conditions", "x", "x", …]` wrote a status 152 levels deep
// for 150 keys (past the 100 the recursive walks are kept to), and with 5,000 keys
// overflowed the stack inside the conversion, which then blamed the input ("nests 3 levels
// deep, too deep to convert").

const STASH = `metadata.annotations[${JSON.stringify(CONVERSION_DATA_ANNOTATION)}]`;

/** A v1beta2 Machine whose forged stash restores one value at `status.conditions` and `keys` keys below. */
function machine(keys: number): JsonObject {
  const stash = {
    restores: V1BETA1,
    patch: [{ p: ['status', 'conditions', ...Array<string>(keys).fill('x')], v: 1 }],
  };
  return {
    apiVersion: V1BETA2,
    kind: 'Machine',
    metadata: {
      name: 'm',
      namespace: 'ns',
      annotations: { [CONVERSION_DATA_ANNOTATION]: JSON.stringify(stash) },
    },
    spec: { clusterName: 'c', bootstrap: { dataSecretName: 's' } },
  };
}

function depth(value: unknown): number {
  let n = 0;
  for (let v = value; typeof v === 'object' && v !== null; v = Object.values(v)[0]) n++;
  return n;
}

describe('a stash patch path counts towards the stash depth limit', () => {
  for (const keys of [150, 5000]) {
    it(`a path of ${keys + 2} keys is refused as too deep, naming the stash`, () => {
      expect(convertTo(machine(keys), V1BETA1)).toMatchObject({
        _tag: 'Left',
        left: { code: 'stash-too-deep', path: STASH },
      });
    });
  }

  it('a path as long as the limit still applies', () => {
    // Applied, it puts 98 levels under status.conditions; v1beta1 keeps conditions where v1beta2
    // has status.deprecated.v1beta1.conditions, so the stash for the way back holds that status
    // three levels deeper, past what a stash may nest: refused at the field, not the forged path.
    expect(convertTo(machine(MAX_STASH_DEPTH - 2), V1BETA1)).toMatchObject({
      _tag: 'Left',
      left: { code: 'stash-too-deep', path: 'status' },
    });
    const keys = MAX_STASH_DEPTH - 3 - 3 - 1; // the stash's own three levels, deprecated.v1beta1, status
    const result = convertTo(machine(keys), V1BETA1);
    if (E.isLeft(result)) throw new Error(JSON.stringify(result.left));
    // (the object itself is the first level)
    expect(1 + depth(result.right.object.status)).toBe(keys + 2);
    const back = convertTo(result.right.object, V1BETA2);
    if (E.isLeft(back)) throw new Error(JSON.stringify(back.left));
  });

  it('the v1alpha2 → v1alpha1 step refuses one too (every reader decodes the stash alike)', () => {
    const stash = {
      restores: V1ALPHA1,
      patch: [{ p: ['spec', 'providerSpec', 'value', ...Array<string>(150).fill('x')], v: 1 }],
    };
    const object = {
      apiVersion: V1ALPHA2,
      kind: 'Machine',
      metadata: {
        name: 'm',
        namespace: 'ns',
        annotations: { [CONVERSION_DATA_ANNOTATION]: JSON.stringify(stash) },
      },
      spec: {},
    };
    // (before: the Machine came down with a providerSpec 153 levels deep)
    expect(convertObject(object, V1ALPHA1)).toMatchObject({
      _tag: 'Left',
      left: { code: 'stash-too-deep', path: STASH },
    });
  });

  it('the webhook fails the review, naming the stash', () => {
    const response = handleConversionReview({
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'ConversionReview',
      request: { uid: 'u', desiredAPIVersion: V1BETA1, objects: [machine(5000)] },
    }).response;
    expect(response.result.status).toBe('Failure');
    expect(response.result).toMatchObject({ message: expect.stringContaining('patch path of 5002 keys') });
  });
});

describe('a stash never points a reference into another namespace, whatever the field calls it', () => {
  const stashed = (apiVersion: string, kind: string, spec: JsonObject, path: string[], value: string) => ({
    apiVersion,
    kind,
    metadata: {
      name: 'c',
      namespace: 'ns',
      annotations: {
        [CONVERSION_DATA_ANNOTATION]: JSON.stringify({ restores: V1BETA1, patch: [{ p: path, v: value }] }),
      },
    },
    spec,
  });
  const cases = [
    {
      what: 'a v1beta1 topology classNamespace (the ClusterClass)',
      object: (ns: string) =>
        stashed(
          V1BETA2,
          'Cluster',
          { topology: { classRef: { name: 'cc' }, version: 'v1.30.0' } },
          ['spec', 'topology', 'classNamespace'],
          ns,
        ),
      path: 'spec.topology.classNamespace',
    },
    {
      what: 'a MachineHealthCheck remediationTemplate namespace',
      object: (ns: string) =>
        stashed(
          V1BETA2,
          'MachineHealthCheck',
          {
            clusterName: 'c',
            selector: {},
            remediation: { templateRef: { apiVersion: 'infrastructure.example/v1', kind: 'T', name: 't' } },
          },
          ['spec', 'remediationTemplate', 'namespace'],
          ns,
        ),
      path: 'spec.remediationTemplate.namespace',
    },
  ];
  for (const { what, object, path } of cases) {
    it(`${what}: refused in another namespace, kept in its own`, () => {
      // Before, the other namespace's ClusterClass or template was what the way down named.
      expect(convertTo(object('other'), V1BETA1)).toMatchObject({
        _tag: 'Left',
        left: { code: 'stash-cross-namespace', path },
      });
      const own = convertTo(object('ns'), V1BETA1);
      if (E.isLeft(own)) throw new Error(JSON.stringify(own.left));
      expect(JSON.stringify(own.right.object.spec)).toContain(`"${path.split('.').at(-1)}":"ns"`);
    });
  }
});

describe('a hop never writes a stash deeper than the way back reads', () => {
  // v1alpha4 has no topology variables: going down, the stash keeps them, and a variable's
  // value is free-form JSON. One level past the stash's room, the stash was written and the
  // way back up refused the object.
  const cluster = (levels: number): JsonObject => {
    let value: Json = 'x';
    for (let i = 0; i < levels; i++) value = [value];
    return {
      apiVersion: V1BETA1,
      kind: 'Cluster',
      metadata: { name: 'c', namespace: 'ns' },
      spec: { topology: { class: 'cc', version: 'v1.30.0', variables: [{ name: 'v', value }] } },
    };
  };
  // the stash object, its `patch`, the entry, then the variables list and the variable
  const room = MAX_STASH_DEPTH - 3 - 2;

  it('the deepest value that fits goes down and comes back unchanged', () => {
    const there = convertTo(cluster(room), V1ALPHA4);
    if (E.isLeft(there)) throw new Error(JSON.stringify(there.left));
    expect(convertTo(there.right.object, V1BETA1)).toMatchObject({
      _tag: 'Right',
      right: { object: cluster(room) },
    });
  });

  it('one level deeper is refused going down, naming the field', () => {
    expect(convertTo(cluster(room + 1), V1ALPHA4)).toMatchObject({
      _tag: 'Left',
      left: { code: 'stash-too-deep', path: 'spec.topology.variables' },
    });
  });
});
