import { describe, expect, it } from 'vitest';
import * as v1alpha1 from '../../src/api/v1alpha1/guards.js';
import * as v1alpha2 from '../../src/api/v1alpha2/guards.js';
import * as v1alpha3 from '../../src/api/v1alpha3/guards.js';
import * as v1alpha4 from '../../src/api/v1alpha4/guards.js';
import * as v1beta1 from '../../src/api/v1beta1/guards.js';
import * as v1beta2 from '../../src/api/v1beta2/guards.js';

const versions = { v1alpha1, v1alpha2, v1alpha3, v1alpha4, v1beta1, v1beta2 };
const group = (version: string) => (version === 'v1alpha1' ? 'cluster.k8s.io' : 'cluster.x-k8s.io');

// The guards are built from the codecs (guardsFor): each kind has its `is<Kind>`, and it
// answers as the kind's codec does, for values of its kind and of another.
describe.each(Object.entries(versions))('%s guards', (version, module) => {
  const exported = module as unknown as Readonly<Record<string, unknown>>;
  it.each(Object.entries(module.codecs))('is%s answers as its codec', (kind, codec) => {
    const guard = exported[`is${kind}`] as (u: unknown) => boolean;
    expect(typeof guard).toBe('function');
    const own = { apiVersion: `${group(version)}/${version}`, kind, metadata: { name: 'x' } };
    const list = { apiVersion: `${group(version)}/${version}`, kind, metadata: {}, items: [] };
    for (const value of [own, list, { ...own, kind: 'Other' }, {}, null, 'Cluster']) {
      expect(guard(value)).toBe(codec.is(value));
    }
  });
  it('exports no guard without a codec', () => {
    const guards = Object.keys(exported).filter((name) => /^is[A-Z]/.test(name));
    expect(guards.sort()).toEqual(
      Object.keys(module.codecs)
        .map((kind) => `is${kind}`)
        .sort(),
    );
  });
});
