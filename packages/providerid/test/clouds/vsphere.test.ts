import { isRight, right } from 'fp-ts/lib/Either.js';
import { describe, expect, it } from 'vitest';
import {
  swapVsphereUUIDByteOrder,
  vsphereProviderID,
  vsphereUUIDFromProviderID,
} from '../../src/clouds/vsphere.js';
import { createProviderIDRegistry } from '../../src/index.js';

const registry = createProviderIDRegistry([vsphereProviderID]);
const U = '423740e7-c66e-05e3-9d0b-9e1205b24d43';

describe('vsphereProviderID', () => {
  it('reads vsphere:// and the legacy paravirtual scheme, keeping the UUID case', () => {
    const upper = registry.parse(`vsphere://${U.toUpperCase()}`);
    expect(isRight(upper) && upper.right.fields).toEqual({ scheme: 'vsphere', uuid: U.toUpperCase() });
    const para = registry.parse(`vsphere-paravirtual://${U}`);
    expect(isRight(para) && para.right.fields).toEqual({
      scheme: 'vsphere-paravirtual',
      uuid: U,
      paravirtual: true,
    });
  });

  it.each(['vsphere://', 'vsphere://1234', U, `vsphere://${U}/x`, `vsphere:///${U}`, ` vsphere://${U}`])(
    'rejects %j (CAPV requires vsphere://<uuid>)',
    (input) => {
      expect(isRight(registry.parse(input, { cloud: 'vsphere' }))).toBe(false);
    },
  );

  it('matches UUIDs case-insensitively and across schemes, writes lower case', () => {
    expect(registry.sameInstance(`vsphere://${U}`, `vsphere://${U.toUpperCase()}`).match).toBe(true);
    expect(registry.sameInstance(`vsphere-paravirtual://${U}`, `vsphere://${U}`).match).toBe(true);
    expect(registry.format('vsphere', { uuid: U.toUpperCase() })).toEqual(right(`vsphere://${U}`));
  });

  it('calls byte-swapped UUIDs undecidable rather than guessing', () => {
    const swapped = swapVsphereUUIDByteOrder(U);
    expect(swapped).toBe('e7403742-6ec6-e305-9d0b-9e1205b24d43');
    expect(swapVsphereUUIDByteOrder(swapped)).toBe(U);
    expect(registry.sameInstance(`vsphere://${U}`, `vsphere://${swapped}`)).toMatchObject({
      match: false,
      verdict: 'unknown',
    });
  });

  it('reads the UUID like the cloud provider does', () => {
    expect(vsphereUUIDFromProviderID(`vsphere://${U.toUpperCase()} `)).toEqual(right(U));
    expect(vsphereUUIDFromProviderID('vsphere://')._tag).toBe('Left');
  });
});
