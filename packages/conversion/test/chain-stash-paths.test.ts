import * as E from 'fp-ts/lib/Either.js';
import { describe, expect, it } from 'vitest';
import {
  CONVERSION_DATA_ANNOTATION,
  convertObject,
  convertTo,
  type JsonObject,
  V1ALPHA1,
  V1ALPHA2,
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
    const result = convertTo(machine(MAX_STASH_DEPTH - 2), V1BETA1);
    if (E.isLeft(result)) throw new Error(JSON.stringify(result.left));
    // (the object itself is the first level)
    expect(1 + depth(result.right.object.status)).toBe(MAX_STASH_DEPTH);
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
