import * as E from 'fp-ts/lib/Either.js';
import { describe, expect, it } from 'vitest';
import { awsConversionPlugin } from '../../providers-aws/src/conversion/index.js';
import { convertTo } from '../src/chain/convert.js';
import { layerFor } from '../src/chain/stack.js';
import {
  CHAIN_VERSIONS,
  type ChainVersion,
  V1ALPHA3,
  V1ALPHA4,
  V1BETA1,
  V1BETA2,
} from '../src/chain/versions.js';
import {
  CONVERSION_DATA_ANNOTATION,
  convertObject,
  type JsonObject,
  V1ALPHA1,
  V1ALPHA2,
} from '../src/index.js';

// A hop finds its stash under the stashes kept for the way back the other way (chain/stack.ts).
// Going down from a later version edited after it was converted up, the first hop stashes the
// edit for the way back up on top of the stack; the v1alpha1 fields lie under it. Before,
// the second hop did not look under it: the v1alpha1 Machine came out with an empty
// providerSpec (its instance type gone), and could not be converted up again.

const options = { plugins: [awsConversionPlugin] };

const machine: JsonObject = {
  apiVersion: V1ALPHA1,
  kind: 'Machine',
  metadata: { name: 'm', namespace: 'ns', labels: { 'cluster.k8s.io/cluster-name': 'c' } },
  spec: {
    versions: { kubelet: 'v1.15.3' },
    providerSpec: {
      value: { apiVersion: 'awsprovider/v1alpha1', kind: 'AWSMachineProviderSpec', instanceType: 't3.large' },
    },
  },
};

function convert(object: JsonObject, to: ChainVersion): JsonObject {
  const result = convertTo(structuredClone(object), to, options);
  if (E.isLeft(result)) throw new Error(JSON.stringify(result.left));
  return result.right.object;
}

/** `machine` converted up to `version` and given a failure domain there (no v1alpha2 field). */
function editedAt(version: ChainVersion): JsonObject {
  const object = convert(machine, version);
  (object.spec as JsonObject).failureDomain = 'eu-west-1a';
  return object;
}

describe('a stash under the way back up is still found going down', () => {
  for (const version of [V1ALPHA3, V1ALPHA4, V1BETA1, V1BETA2] as const) {
    it(`${version}, edited, → v1alpha1 gives the v1alpha1 Machine, and back gives the edit`, () => {
      const edited = editedAt(version);
      const old = convert(edited, V1ALPHA1);
      expect(old.spec).toStrictEqual(machine.spec);
      expect(convert(old, version)).toStrictEqual(edited);
    });
    it(`${version}, edited, → v1alpha2 → v1alpha1 (two conversions) gives the same`, () => {
      const edited = editedAt(version);
      const old = convert(convert(edited, V1ALPHA2), V1ALPHA1);
      expect(old.spec).toStrictEqual(machine.spec);
      expect(convert(convert(old, V1ALPHA2), version)).toStrictEqual(edited);
    });
  }

  it('convertObject (v1alpha2 → v1alpha1 only) unpacks a stack instead of dropping what lies under', () => {
    const edited = editedAt(V1BETA1);
    const v1alpha2 = convert(edited, V1ALPHA2);
    // Down to v1alpha1 and up again with convertObject: the v1alpha1 stash ends on top, and
    // under it the one keeping the failure domain (a v1alpha3 field) for the way back up.
    const down = convertObject(v1alpha2, V1ALPHA1, options);
    if (E.isLeft(down)) throw new Error(JSON.stringify(down.left));
    expect(down.right.object.spec).toStrictEqual(machine.spec);
    const up = convertObject(down.right.object, V1ALPHA2, options);
    if (E.isLeft(up)) throw new Error(JSON.stringify(up.left));
    const text = ((up.right.object.metadata as JsonObject).annotations as JsonObject)[
      CONVERSION_DATA_ANNOTATION
    ];
    expect(JSON.parse(text as string)).toMatchObject({ restores: V1ALPHA1, below: { restores: V1ALPHA3 } });
    const again = convertObject(up.right.object, V1ALPHA1, options);
    if (E.isLeft(again)) throw new Error(JSON.stringify(again.left));
    expect(again.right.object.spec).toStrictEqual(machine.spec);
    expect(convert(again.right.object, V1BETA1)).toStrictEqual(edited);
  });

  it('a stash for the way back to the version converted from is still refused', () => {
    const up = convert(machine, V1ALPHA2);
    const v1 = structuredClone(machine);
    (v1.metadata as JsonObject).annotations = (up.metadata as JsonObject).annotations!;
    const result = convertObject(v1, V1ALPHA2, options);
    expect(E.isLeft(result) && result.left.code).toBe('stash-malformed');
  });
});

describe('layerFor', () => {
  const [a1, a2, a3, a4, b1] = CHAIN_VERSIONS;
  it.each([
    ['the top, when it restores the target', [a2, a1], a3, a2, 0],
    ['under the way back up, going down', [a4, a2], a3, a2, 1],
    ['under several stashes for the way back up', [b1, a4, a1], a2, a1, 2],
    ['under the way back down, going up', [a1, a3], a2, a3, 1],
    ['not under a stash for a later hop on the same side', [a1, a2], a3, a2, -1],
    ['not under a stash restoring the version converted from', [a3, a2], a3, a2, -1],
    ['not under a stash of another API', ['example.com/v1', a2], a3, a2, -1],
    ['none in an empty stack', [], a3, a2, -1],
  ] as const)('%s', (_, layers, from, target, expected) => {
    expect(layerFor(layers, from!, target!)).toBe(expected);
  });
});
