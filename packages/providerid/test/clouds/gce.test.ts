import { isLeft, isRight, right } from 'fp-ts/lib/Either.js';
import { describe, expect, it } from 'vitest';
import { gceProviderID, gceProviderIDFromResourceURL } from '../../src/clouds/gce.js';
import { createProviderIDRegistry } from '../../src/index.js';

const registry = createProviderIDRegistry([gceProviderID]);

describe('gceProviderID', () => {
  it('reads project, zone and instance name', () => {
    const r = registry.parse('gce://project-example.164317/us-central1-f/kubernetes-node-fhx1');
    expect(isRight(r) && r.right.fields).toEqual({
      scheme: 'gce',
      project: 'project-example.164317',
      zone: 'us-central1-f',
      instanceName: 'kubernetes-node-fhx1',
    });
    expect(isRight(registry.parse('gce://example.com:my-project/europe-west4-a/vm'))).toBe(true);
  });

  it.each([
    'gce://project-example-164317/us-central1-fkubernetes-node-fhx1',
    'gce:/project-example-164317/us-central1-f/kubernetes-node-fhx1',
    'aws://project-example-164317/us-central1-f/kubernetes-node-fhx1',
    'gce://project-example-164317/us-central1-f/kubernetes-node-fhx1/',
    'gce://project-example.164317//kubernetes-node-fhx1',
    'gce:///us-central1-f/kubernetes-node-fhx1',
    'gce://p/z/n/extra',
  ])('rejects %j', (input) => {
    expect(isLeft(registry.parse(input, { cloud: 'gce' }))).toBe(true);
  });

  it('never matches same-name instances of other zones or projects', () => {
    expect(registry.sameInstance('gce://p/us-central1-a/node-1', 'gce://p/us-central1-b/node-1').match).toBe(
      false,
    );
    expect(registry.sameInstance('gce://p/us-central1-a/node-1', 'gce://q/us-central1-a/node-1').match).toBe(
      false,
    );
    expect(registry.sameInstance('gce://p/us-central1-a/node-1', 'gce://p/us-central1-a/node-1').match).toBe(
      true,
    );
  });

  it('builds IDs from fields and from self-links', () => {
    expect(registry.format('gce', { project: 'p', zone: 'z', instanceName: 'n' })).toEqual(
      right('gce://p/z/n'),
    );
    expect(isLeft(registry.format('gce', { project: '', zone: 'z', instanceName: 'n' }))).toBe(true);
    expect(
      gceProviderIDFromResourceURL('https://www.googleapis.com/compute/v1/projects/p/zones/z/instances/n'),
    ).toEqual(right('gce://p/z/n'));
    expect(
      isLeft(gceProviderIDFromResourceURL('https://www.googleapis.com/compute/v1/projects/p/instances/n')),
    ).toBe(true);
    expect(isLeft(gceProviderIDFromResourceURL('not a url'))).toBe(true);
  });
});
