import { isLeft, isRight, right } from 'fp-ts/lib/Either.js';
import { describe, expect, it } from 'vitest';
import { openstackProviderID } from '../../src/clouds/openstack.js';
import { createProviderIDRegistry } from '../../src/index.js';

const registry = createProviderIDRegistry([openstackProviderID]);
const ID = '7b9cf879-7146-417c-abfd-cb4272f0c935';

describe('openstackProviderID', () => {
  it.each([
    [`openstack:///${ID}`, { scheme: 'openstack', region: '', instanceId: ID }],
    [`openstack://RegionOne/${ID}`, { scheme: 'openstack', region: 'RegionOne', instanceId: ID }],
    ['/testInstanceID', { scheme: '', region: '', instanceId: 'testInstanceID' }],
    [`RegionOne/${ID}`, { scheme: '', region: 'RegionOne', instanceId: ID }],
  ])('reads %s', (input, fields) => {
    const r = registry.parse(input, { cloud: 'openstack' });
    expect(isRight(r) && r.right.fields).toEqual(fields);
  });

  it.each([
    `openstack://${ID}`,
    ID,
    `other-provider:///${ID}`,
    `openstack://RegionOne/${ID}/x`,
    'openstack:///',
    '',
  ])('rejects %j', (input) => {
    expect(isLeft(registry.parse(input, { cloud: 'openstack' }))).toBe(true);
  });

  it('matches with the region on one side only, never across regions', () => {
    expect(registry.sameInstance(`openstack://RegionOne/${ID}`, `openstack:///${ID}`)).toMatchObject({
      match: true,
    });
    expect(registry.sameInstance(`openstack://RegionOne/${ID}`, `openstack://RegionTwo/${ID}`)).toMatchObject(
      {
        match: false,
        verdict: 'different',
      },
    );
    expect(registry.sameInstance(`openstack:///${ID}`, `openstack:///${ID.toUpperCase()}`).match).toBe(true);
  });

  it('writes both forms', () => {
    expect(registry.format('openstack', { instanceId: ID })).toEqual(right(`openstack:///${ID}`));
    expect(registry.format('openstack', { region: 'RegionOne', instanceId: ID })).toEqual(
      right(`openstack://RegionOne/${ID}`),
    );
  });
});
