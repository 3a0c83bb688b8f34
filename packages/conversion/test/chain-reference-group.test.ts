import * as E from 'fp-ts/lib/Either.js';
import { describe, expect, it } from 'vitest';
import {
  type ChainOptions,
  CONVERSION_DATA_ANNOTATION,
  convertTo,
  type JsonObject,
  V1BETA1,
  V1BETA2,
} from '../src/index.js';

// A v1beta2 reference is {apiGroup, kind, name}; going down to v1beta1 the stash puts back the
// apiVersion v1beta2 has no field for. A stash entry for it has no `base` (the plain way down
// makes no apiVersion), so it applied whatever the reference had become: a v1beta2 reference
// edited to another API group came down with the old group's apiVersion (the edit lost, the
// reference pointing at an object of the new kind in the old group), and a forged stash could
// point a reference at any group. The stashed apiVersion now applies only while its group is
// the reference's apiGroup; otherwise the edit wins and the apiVersion is looked up.

const INFRA = 'infrastructure.cluster.x-k8s.io';
const OTHER = 'infrastructure.example.io';
const lookup: ChainOptions = {
  referenceApiVersion: (group, kind) =>
    group === OTHER && kind === 'FooMachine' ? `${OTHER}/v1` : undefined,
};

function convert(object: JsonObject, to: typeof V1BETA1 | typeof V1BETA2, options: ChainOptions = {}) {
  const result = convertTo(structuredClone(object), to, options);
  if (E.isLeft(result)) throw new Error(JSON.stringify(result.left));
  return result.right;
}

const machine: JsonObject = {
  apiVersion: V1BETA1,
  kind: 'Machine',
  metadata: { name: 'm', namespace: 'ns' },
  spec: {
    clusterName: 'c',
    bootstrap: { dataSecretName: 's' },
    infrastructureRef: { apiVersion: `${INFRA}/v1beta1`, kind: 'AWSMachine', name: 'm', namespace: 'ns' },
  },
};

/** `machine` in v1beta2 with its reference edited there. */
function edited(ref: JsonObject): JsonObject {
  const object = convert(machine, V1BETA2).object;
  (object.spec as JsonObject).infrastructureRef = ref;
  return object;
}

const refOf = (object: JsonObject) => (object.spec as JsonObject).infrastructureRef;

describe('a stashed reference apiVersion applies only to a reference of its group', () => {
  it('unedited, the stash gives the apiVersion back', () => {
    const down = convert(convert(machine, V1BETA2).object, V1BETA1, lookup);
    expect(refOf(down.object)).toStrictEqual((machine.spec as JsonObject).infrastructureRef);
    expect(down.reports[0]!.restored).toContain('spec.infrastructureRef.apiVersion');
  });

  it('edited to another group in v1beta2, the edit wins: the lookup gives the apiVersion', () => {
    const object = edited({ apiGroup: OTHER, kind: 'FooMachine', name: 'm2' });
    const down = convert(object, V1BETA1, lookup);
    expect(refOf(down.object)).toStrictEqual({
      apiVersion: `${OTHER}/v1`,
      kind: 'FooMachine',
      name: 'm2',
      namespace: 'ns',
    });
    // the report does not claim the stashed apiVersion came back
    expect(down.reports[0]!.restored).not.toContain('spec.infrastructureRef.apiVersion');
    // and back up, the v1beta2 object as edited
    expect(refOf(convert(down.object, V1BETA2).object)).toStrictEqual(refOf(object));
  });

  it('a forged stash cannot move a reference to another group; the reference is kept without one, with a warning', () => {
    const forged = {
      restores: V1BETA1,
      patch: [{ p: ['spec', 'infrastructureRef', 'apiVersion'], v: 'evil.example.com/v1' }],
    };
    const object: JsonObject = {
      ...edited({ apiGroup: INFRA, kind: 'AWSMachine', name: 'm' }),
      metadata: {
        name: 'm',
        namespace: 'ns',
        annotations: { [CONVERSION_DATA_ANNOTATION]: JSON.stringify(forged) },
      },
    };
    const down = convert(object, V1BETA1);
    expect(refOf(down.object)).toStrictEqual({ kind: 'AWSMachine', name: 'm', namespace: 'ns' });
    expect(down.reports[0]!.warnings).toContainEqual(expect.stringContaining('evil.example.com/v1'));
    expect(down.reports[0]!.restored).not.toContain('spec.infrastructureRef.apiVersion');
  });
});
