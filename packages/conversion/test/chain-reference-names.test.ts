import * as E from 'fp-ts/lib/Either.js';
import { describe, expect, it } from 'vitest';
import { convertTo, type JsonObject, V1BETA1, V1BETA2 } from '../src/index.js';
import { stashOf, withForgedPatch } from './support/stash-text.js';

// A stash is data: it never changes what an object refers to. The rows of the v1beta1 ⇄
// v1beta2 hop move a reference whole, so stash-rules let a stash restore anything under it,
// and an entry applies while the field holds its `base`: a forged entry whose `base` was the
// reference's current name, kind or group renamed it, going down or up. The conversion never
// writes such an entry (the rows carry kind, name and group over unchanged), so one is refused.

const INFRA = 'infrastructure.cluster.x-k8s.io';
const BOOTSTRAP = 'bootstrap.cluster.x-k8s.io';

function convert(object: JsonObject, to: typeof V1BETA1 | typeof V1BETA2) {
  const result = convertTo(structuredClone(object), to);
  if (E.isLeft(result)) throw new Error(JSON.stringify(result.left));
  return result.right;
}

const machine: JsonObject = {
  apiVersion: V1BETA1,
  kind: 'Machine',
  metadata: { name: 'm', namespace: 'ns' },
  spec: {
    clusterName: 'c',
    bootstrap: { configRef: { apiVersion: `${BOOTSTRAP}/v1beta1`, kind: 'KubeadmConfig', name: 'm' } },
    infrastructureRef: { apiVersion: `${INFRA}/v1beta1`, kind: 'AWSMachine', name: 'm', uid: 'u-1' },
  },
};

/** `machine` in v1beta2, its stash (which restores v1beta1) forged to hold `entries` only. */
const downWith = (...entries: JsonObject[]) =>
  withForgedPatch(convert(machine, V1BETA2).object, () => entries);

/** `machine` through v1beta2 back in v1beta1, its stash (which restores v1beta2) forged to hold `entries` only. */
function upWith(...entries: JsonObject[]): JsonObject {
  const hub = convert(machine, V1BETA2).object;
  delete (hub.metadata as JsonObject).annotations;
  // (no lookup: the references come down without an apiVersion, their apiGroup stashed)
  const down = convert(hub, V1BETA1).object;
  expect(JSON.parse(stashOf(down))).toMatchObject({ restores: V1BETA2 });
  return withForgedPatch(down, () => entries);
}

const refused = (object: JsonObject, to: typeof V1BETA1 | typeof V1BETA2, path: string) =>
  expect(convertTo(object, to)).toMatchObject({
    _tag: 'Left',
    left: {
      code: 'stash-identity',
      path,
      message: expect.stringContaining('never changes what an object refers to'),
    },
  });

const ref = ['spec', 'infrastructureRef'];
const refOf = (object: JsonObject) => (object.spec as JsonObject).infrastructureRef;

describe('going down (v1beta2 → v1beta1), a stash cannot change what a reference names', () => {
  it.each([
    ['its name', { p: [...ref, 'name'], v: 'evil', b: 'm' }, 'spec.infrastructureRef.name'],
    ['its kind', { p: [...ref, 'kind'], v: 'Secret', b: 'AWSMachine' }, 'spec.infrastructureRef.kind'],
    ['a name it lacks', { p: [...ref, 'name', 'x'], v: 'evil' }, 'spec.infrastructureRef.name.x'],
    [
      'the whole reference',
      {
        p: ref,
        v: { kind: 'AWSMachine', name: 'evil', namespace: 'ns' },
        b: { kind: 'AWSMachine', name: 'm', namespace: 'ns' },
      },
      'spec.infrastructureRef',
    ],
    [
      'a parent holding the reference',
      {
        p: ['spec', 'bootstrap'],
        v: { configRef: { kind: 'KubeadmConfig', name: 'evil', namespace: 'ns' } },
        b: { configRef: { kind: 'KubeadmConfig', name: 'm', namespace: 'ns' } },
      },
      'spec.bootstrap',
    ],
    [
      'taking the reference out',
      { p: ref, b: { kind: 'AWSMachine', name: 'm', namespace: 'ns' } },
      'spec.infrastructureRef',
    ],
    [
      'an apiVersion the plain way down would have',
      { p: [...ref, 'apiVersion'], v: 'x/v1', b: `${INFRA}/v1beta1` },
      'spec.infrastructureRef.apiVersion',
    ],
  ])('%s', (_what, entry, path) => {
    refused(downWith(entry), V1BETA1, path);
  });

  it('the stash still gives back the apiVersion and object fields', () => {
    const down = convert(convert(machine, V1BETA2).object, V1BETA1);
    expect(down.object).toStrictEqual(machine);
  });
});

describe('going up (v1beta1 → v1beta2), a stash cannot change what a reference names', () => {
  it.each([
    ['its name', { p: [...ref, 'name'], v: 'evil', b: 'm' }, 'spec.infrastructureRef.name'],
    ['its kind', { p: [...ref, 'kind'], v: 'Secret', b: 'AWSMachine' }, 'spec.infrastructureRef.kind'],
    ['its group', { p: [...ref, 'apiGroup'], v: '', b: INFRA }, 'spec.infrastructureRef.apiGroup'],
    [
      'the whole reference',
      {
        p: ref,
        v: { apiGroup: INFRA, kind: 'AWSMachine', name: 'evil' },
        b: { apiGroup: INFRA, kind: 'AWSMachine', name: 'm' },
      },
      'spec.infrastructureRef',
    ],
  ])('%s', (_what, entry, path) => {
    refused(upWith(entry), V1BETA2, path);
  });

  it('a group the v1beta1 reference lacks (converted down without a lookup) still comes back from the stash', () => {
    const hub = convert(machine, V1BETA2).object;
    delete (hub.metadata as JsonObject).annotations;
    const down = convert(hub, V1BETA1).object;
    expect((down.spec as JsonObject).infrastructureRef).not.toHaveProperty('apiVersion');
    expect(convert(down, V1BETA2).object).toStrictEqual(hub);
  });
});

describe('a reference taken out stays out, whichever way', () => {
  it('taken out in v1beta1, a field the v1beta2 reference had does not bring it back going up', () => {
    const hub = convert(machine, V1BETA2).object;
    (refOf(hub) as JsonObject).extra = 'x';
    const down = convert(hub, V1BETA1).object;
    delete (down.spec as JsonObject).infrastructureRef;
    const up = convert(down, V1BETA2);
    expect(up.object.spec).not.toHaveProperty('infrastructureRef');
    expect(up.reports[0]!.warnings).toContainEqual(
      "spec.infrastructureRef: the reference was taken out; the conversion data's extra is not restored",
    );
    // and the way back down again converts (the stash it wrote takes out no reference)
    expect(convert(up.object, V1BETA1).object.spec).not.toHaveProperty('infrastructureRef');
  });
});

describe('the contract lookup gives a reference a version of its own group only', () => {
  it('an apiVersion of another group from the lookup is not written, and the way back up converts', () => {
    const hub = convert(machine, V1BETA2).object;
    delete (hub.metadata as JsonObject).annotations;
    const result = convertTo(structuredClone(hub), V1BETA1, {
      referenceApiVersion: (group) => (group === INFRA ? 'evil.example.com/v1' : undefined),
    });
    if (E.isLeft(result)) throw new Error(JSON.stringify(result.left));
    expect(refOf(result.right.object)).not.toHaveProperty('apiVersion');
    expect(result.right.reports[0]!.warnings).toContainEqual(
      expect.stringContaining('the contract lookup\'s "evil.example.com/v1" is not of that group'),
    );
    expect(convert(result.right.object, V1BETA2).object).toStrictEqual(hub);
  });
});
