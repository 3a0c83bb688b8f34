import { isLeft, isRight, right } from 'fp-ts/lib/Either.js';
import { describe, expect, it } from 'vitest';
import { awsProviderID } from '../../src/clouds/aws.js';
import { createProviderIDRegistry } from '../../src/index.js';

const registry = createProviderIDRegistry([awsProviderID]);
const fieldsOf = (input: string, named = true) => {
  const r = registry.parse(input, named ? { cloud: 'aws' } : {});
  return isRight(r) ? r.right.fields : undefined;
};

describe('awsProviderID', () => {
  // Forms cloud-provider-aws reads (MapToAWSInstanceID): last path token is the instance.
  it.each([
    [
      'aws:///us-east-1a/i-12345678',
      { scheme: 'aws', zone: 'us-east-1a', instanceId: 'i-12345678', kind: 'ec2' },
    ],
    ['aws:////i-12345678abcdef01', { zone: '', instanceId: 'i-12345678abcdef01', kind: 'ec2' }],
    ['aws:///i-12345678', { zone: '', instanceId: 'i-12345678' }],
    ['aws://us-east-1a/i-12345678', { zone: 'us-east-1a', instanceId: 'i-12345678' }],
    ['i-12345678abcdef01', { scheme: '', zone: '', instanceId: 'i-12345678abcdef01' }],
    ['aws:///us-west-2c/1abc-2def/i-abc', { zone: 'us-west-2c', middle: '1abc-2def', instanceId: 'i-abc' }],
    [
      'aws:///us-west-2a/2ea696a557-9e55466d21eb4f83a99a9aa396bbd134/fargate-ip-10-0-55-27.us-west-2.compute.internal',
      {
        zone: 'us-west-2a',
        middle: '2ea696a557-9e55466d21eb4f83a99a9aa396bbd134',
        instanceId: 'fargate-ip-10-0-55-27.us-west-2.compute.internal',
        kind: 'fargate',
      },
    ],
    [
      'aws:///us-west-2c/1abc-2def/fargate-192.168.164.88',
      { kind: 'fargate', instanceId: 'fargate-192.168.164.88' },
    ],
  ])('reads %s', (input, expected) => {
    expect(fieldsOf(input)).toMatchObject(expected);
  });

  // (it said "white space inside the ID" for an escape, and blamed the instance ID for the zone)
  it.each([
    ['aws:///us-east-1a/i-0123\u001b[31mred', 'instanceId'],
    ['aws:///us-east-1a/i-0123 x', 'instanceId'],
    ['aws:///us-east\u001b-1a/i-0123', 'zone'],
    ['aws:///us-east-1a/a\tb/i-0123', 'middle'],
  ])('refuses %j, naming the %s', (input, field) => {
    const r = registry.parse(input, { cloud: 'aws' });
    if (isRight(r)) throw new Error('parsed');
    expect(r.left).toMatchObject({
      field,
      message: expect.stringContaining(`the ${field} contains white space or a control character`),
    });
  });

  it.each([
    'vol-12345678',
    'aws:///us-east-1a/vol-12345678abcdef01',
    'aws://accountid/vol-12345678abcdef01',
    'aws:///us-east-1a/vol-12345678abcdef01/suffix',
    'aws://',
    'aws:///us-east-1a/',
    'aws:///us-east-1a/fargate-',
    'foo://com-2351',
    'aws:i-12345678',
    '',
  ])('rejects %j', (input) => {
    expect(fieldsOf(input)).toBeUndefined();
  });

  it('claims only exact EC2 instance IDs when no cloud is named', () => {
    expect(fieldsOf('i-0123456789abcdef0', false)).toMatchObject({ instanceId: 'i-0123456789abcdef0' });
    expect(fieldsOf('i-invalid-id-kwok-0001', false)).toBeUndefined();
    expect(fieldsOf('i-invalid-id-kwok-0001', true)).toMatchObject({ instanceId: 'i-invalid-id-kwok-0001' });
  });

  it('writes the cloud provider form and identifies by instance, qualified by zone', () => {
    expect(registry.format('aws', { zone: 'us-west-2a', instanceId: 'i-00000000000000001' })).toEqual(
      right('aws:///us-west-2a/i-00000000000000001'),
    );
    expect(registry.format('aws', { instanceId: 'i-1' })).toEqual(right('aws:////i-1'));
    expect(isLeft(registry.format('aws', { zone: 'z', instanceId: 'vol-1' }))).toBe(true);
  });

  it('refuses fields that would write the ID of another instance', () => {
    // 'aws:///a/b/i-123' parses as zone 'a' (and a Fargate-style middle 'b')
    const spilled = registry.format('aws', { zone: 'a/b', instanceId: 'i-123' });
    expect(isLeft(spilled) && spilled.left).toMatchObject({ code: 'invalid-field', field: 'zone' });
    expect(isLeft(spilled) && spilled.left.message).toContain('zone is "a", not "a/b"');
    // an EC2 zone and instance write an EC2 ID, whatever `kind` asks for
    const fargate = registry.format('aws', { kind: 'fargate', zone: 'us-east-1a', instanceId: 'i-123' });
    expect(isLeft(fargate) && fargate.left).toMatchObject({ code: 'invalid-field', field: 'kind' });
  });

  it('identifies by instance, qualified by zone', () => {
    expect(registry.sameInstance('aws:///us-east-1a/i-12345678', 'i-12345678')).toMatchObject({
      match: true,
    });
    expect(registry.sameInstance('aws:///us-east-1a/i-12345678', 'aws:///us-east-1b/i-12345678').match).toBe(
      false,
    );
    expect(registry.sameInstance('aws:///us-east-1a/i-12345678', 'aws:///us-east-1a/i-87654321').match).toBe(
      false,
    );
  });

  it('reads AWS-shaped IDs it rejects by their last token, as Cluster API <= v1.2 did', () => {
    // CAPI's own noderef test: machine aws:///test-get-node-2, node aws://us-west-2/test-get-node-2.
    expect(registry.sameInstance('aws://us-west-2/test-get-node-2', 'aws:///test-get-node-2')).toMatchObject({
      match: true,
      verdict: 'same',
    });
    // Outscale: CCM aws://placement/vm-id, CAPOSC aws:///placement/vm-id.
    expect(registry.sameInstance('aws://placement/vm-id', 'aws:///placement/vm-id').match).toBe(true);
    expect(registry.sameInstance('aws://us-east-1/id-node-1', 'aws:///id-node-100').match).toBe(false);
    expect(registry.sameInstance('aws://us-east-1a/node', 'aws://us-east-1b/node').match).toBe(false);
    // Never across valid and invalid: an `i-` ID is not the same as a non-instance token.
    expect(registry.sameInstance('aws:///z/i-1', 'aws:///z/vm-1').match).toBe(false);
  });
});
