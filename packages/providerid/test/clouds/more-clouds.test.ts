import { isLeft, isRight, right } from 'fp-ts/lib/Either.js';
import { describe, expect, it } from 'vitest';
import { cloudstackCCMProviderID } from '../../src/clouds/cloudstack.js';
import { hetznerBareMetalProviderID } from '../../src/clouds/hetzner.js';
import { providerIDRegistry as registry } from '../../src/index.js';

const parse = (input: string, cloud?: string) => registry.parse(input, cloud === undefined ? {} : { cloud });
const U = '3f3c8a8e-0b2a-4d5e-9a41-8c3b2f1d7e60';

// [cloud, input, fields] read with the cloud named; each row follows the cloud's parser.
const accepted: [string, string, Record<string, unknown>][] = [
  ['digitalocean', 'digitalocean://12345', { dropletId: '12345' }],
  ['equinixmetal', `equinixmetal://${U}`, { scheme: 'equinixmetal', deviceId: U }],
  ['equinixmetal', `packet://${U}`, { scheme: 'packet', deviceId: U }],
  ['equinixmetal', U, { scheme: '', deviceId: U }],
  ['hetzner', 'hcloud://1234', { serverId: '1234', serverType: 'cloud' }],
  ['hetzner', 'hrobot://4321', { serverId: '4321', serverType: 'robot' }],
  ['hetzner', 'hcloud://bm-4321', { serverId: '4321', serverType: 'robot', legacyRobotPrefix: true }],
  ['hetzner', 'hcloud://9223372036854775807', { serverId: '9223372036854775807' }],
  ['linode', 'linode://123', { linodeId: '123' }],
  [
    'ibm',
    'ibm://acct///cluster/worker',
    { accountId: 'acct', region: '', zone: '', clusterId: 'cluster', instanceId: 'worker' },
  ],
  [
    'ibm-powervs',
    'ibmpowervs://osa/osa21/ws/inst',
    { region: 'osa', zone: 'osa21', serviceInstanceId: 'ws', instanceId: 'inst' },
  ],
  ['alibaba', 'cn-hangzhou.i-bp1abc', { scheme: '', region: 'cn-hangzhou', instanceId: 'i-bp1abc' }],
  ['alibaba', 'alicloud://cn-hangzhou.i-bp1abc', { scheme: 'alicloud', region: 'cn-hangzhou' }],
  ['alibaba', 'cn-hangzhou.i-bp1abc.extra', { instanceId: 'i-bp1abc', suffix: 'extra' }],
  ['oci', 'oci://ocid1.instance.oc1.phx.abc', { scheme: 'oci', ocid: 'ocid1.instance.oc1.phx.abc' }],
  ['oci', 'ocid1.instance.oc1.phx.abc', { scheme: '', ocid: 'ocid1.instance.oc1.phx.abc' }],
  ['kubevirt', 'kubevirt://test-vm_1', { vmName: 'test-vm_1' }],
  ['nutanix', `nutanix://${U.toUpperCase()}`, { uuid: U.toUpperCase() }],
  ['docker', 'docker:////my-cluster-md-0-abcde', { containerName: 'my-cluster-md-0-abcde' }],
  ['inmemory', 'in-memory://dev-1', { name: 'dev-1' }],
  ['kind', 'kind://c1/kind/c1-worker', { clusterName: 'c1', nodeName: 'c1-worker' }],
  ['metal3', 'metal3://ns/bmh/m3m', { namespace: 'ns', bmhName: 'bmh', metal3MachineName: 'm3m' }],
  ['metal3', 'metal3://d4f5c6a7', { bmhUid: 'd4f5c6a7', legacy: true }],
  ['cloudstack', `external-cloudstack://${U}`, { scheme: 'external-cloudstack', instanceId: U }],
  ['cloudstack', `cloudstack:///${U}`, { scheme: 'cloudstack', instanceId: U }],
  ['cloudstack', 'vm-123', { scheme: '', instanceId: 'vm-123' }],
  ['kubemark', 'kubemark://hollow-1', { nodeName: 'hollow-1' }],
  ['kubemark', 'kubemark:////hollow-1', { nodeName: 'hollow-1' }],
  ['kwok', 'kwok:node-1', { nodeName: 'node-1', shortForm: true }],
  ['kwok', 'kwok://node-1', { nodeName: 'node-1' }],
  ['exoscale', `exoscale://${U}`, { instanceId: U }],
  ['exoscale', `exoscale://external-${'a'.repeat(64)}`, { instanceId: `external-${'a'.repeat(64)}` }],
  ['exoscale', U, { scheme: '', instanceId: U }],
  ['scaleway', `scaleway://instance/fr-par-1/${U}`, { product: 'instance', zone: 'fr-par-1', serverId: U }],
  ['scaleway', `scaleway://${U}`, { product: 'instance', zone: '', serverId: U }],
  ['vultr', 'vultr://abc-123', { instanceId: 'abc-123' }],
  [
    'tencentcloud',
    'qcloud:///ap-guangzhou-3/ins-abc123',
    { zone: 'ap-guangzhou-3', instanceId: 'ins-abc123' },
  ],
  ['kamatera', 'kamatera://my-server', { serverName: 'my-server' }],
  ['kamatera', 'kamatera:///my-server', { serverName: 'my-server' }],
  ['civo', 'civo://abc', { instanceId: 'abc' }],
  ['brightbox', 'brightbox://srv-abcde', { serverId: 'srv-abcde' }],
  ['ionoscloud', `ionos://${U}`, { serverId: U }],
  ['baiducloud', 'cce://i-abc', { instanceId: 'i-abc' }],
];

const rejected: [string, string][] = [
  ['digitalocean', ''],
  ['digitalocean', 'digitalocean://'],
  ['digitalocean', 'digitalocean://12345cruft'],
  ['digitalocean', '12345'],
  ['equinixmetal', ''],
  ['equinixmetal', 'equinixmetal://'],
  ['equinixmetal', 'foo://abc'],
  ['equinixmetal', 'equinixmetal://a://b'],
  ['hetzner', 'hcloud://'],
  ['hetzner', 'hcloud://bm-'],
  ['hetzner', 'hcloud://foo'],
  ['hetzner', 'hrobot://bm-1'],
  ['hetzner', 'hcloud://9223372036854775808'],
  ['hetzner', 'foobar/321'],
  ['hetzner', 'hcloud::serverID'],
  ['hetzner', '42'],
  ['linode', 'invalidproviderid!'],
  ['linode', 'linode://foobar'],
  ['linode', 'linode://'],
  ['ibm', 'ibm://acct/cluster/worker'],
  ['ibm', 'ibm:////cluster/worker'],
  ['ibm-powervs', 'ibmpowervs://cluster/host'],
  ['alibaba', 'e01-123456'],
  ['alibaba', 'i-bp1abc'],
  ['alibaba', '.i-1'],
  ['oci', ''],
  ['oci', 'instance-1'],
  ['oci', 'oci://'],
  ['kubevirt', 'kubevirt://'],
  ['kubevirt', 'kubevirt://a.b'],
  ['kubevirt', 'test-vm'],
  ['kubevirt', 'kubevirt:///vm'],
  ['docker', 'docker://name'],
  ['kind', 'kind://c1/x/n'],
  ['metal3', 'metal3://ns/bmh'],
  ['metal3', 'metal3://'],
  ['cloudstack', 'cloudstack://vm'],
  ['cloudstack', 'external-cloudstack:///vm'],
  ['cloudstack', 'external-cloudstack://'],
  ['kwok', 'kwok:'],
  ['kwok', 'kwok:///n'],
  ['exoscale', 'exoscale://'],
  ['scaleway', 'scaleway://a/b'],
  ['vultr', ''],
  ['vultr', 'abc'],
  ['tencentcloud', 'qcloud://ap-guangzhou-3/ins-1'],
  ['tencentcloud', 'qcloud:///ap-guangzhou-3/INS_1'],
];

describe('long-tail providerID grammars', () => {
  it.each(accepted)('%s reads %s', (cloud, input, fields) => {
    const r = parse(input, cloud);
    expect(isRight(r) ? r.right.fields : r.left.message).toMatchObject(fields);
  });

  it.each(rejected)('%s rejects %j', (cloud, input) => {
    expect(isLeft(parse(input, cloud))).toBe(true);
  });

  it('routes by scheme without a cloud named, and claims bare Alibaba and OCI IDs', () => {
    const clouds = ['packet://x', 'hrobot://1', 'cn-hangzhou.i-1', 'ocid1.x', 'kwok:n', 'qcloud:///z/i'].map(
      (input) => {
        const r = parse(input);
        return isRight(r) ? r.right.cloud : r.left.message;
      },
    );
    expect(clouds).toEqual(['equinixmetal', 'hetzner', 'alibaba', 'oci', 'kwok', 'tencentcloud']);
    expect(isLeft(parse('ip-10-0-0-1.ec2.internal'))).toBe(true);
    expect(isLeft(parse(U))).toBe(true);
  });

  it.each([
    ['packet://abc', 'equinixmetal://abc', true],
    [`packet://${U}`, `equinixmetal://${U.toUpperCase()}`, true],
    ['hrobot://7', 'hcloud://bm-7', true],
    ['hrobot://7', 'hcloud://7', false],
    ['hcloud://7', 'hcloud://007', true],
    [`external-cloudstack://${U}`, `cloudstack:///${U}`, true],
    ['ocid1.a', 'oci://ocid1.a', true],
    ['kwok:n', 'kwok://n', true],
    ['kubemark://h', 'kubemark:////h', true],
    ['cn-hangzhou.i-1', 'alicloud://cn-hangzhou.i-1', true],
    ['cn-hangzhou.i-1', 'cn-shanghai.i-1', false],
    [`scaleway://${U}`, `scaleway://instance/fr-par-1/${U}`, true],
    [`scaleway://instance/fr-par-2/${U}`, `scaleway://instance/fr-par-1/${U}`, false],
    [`scaleway://baremetal/fr-par-1/${U}`, `scaleway://instance/fr-par-1/${U}`, false],
    ['metal3://worker-10', 'metal3://worker-1', false],
    ['metal3://ns/b/m', 'metal3://ns/b/m2', false],
    ['ibm://a///c/w', 'ibm://a///c/w2', false],
    [`nutanix://${U}`, `nutanix://${U.toUpperCase()}`, true],
  ])('sameInstance(%s, %s) is %s', (a, b, expected) => {
    expect(registry.sameInstance(a, b).match).toBe(expected);
  });

  it('leaves a valid ID and a same-segment invalid one undecided', () => {
    expect(registry.sameInstance('docker:////c', 'docker:///c')).toMatchObject({
      match: false,
      verdict: 'unknown',
    });
    expect(registry.sameInstance('docker:////c', 'docker:///d')).toMatchObject({
      match: false,
      verdict: 'different',
    });
  });

  it('leaves legacy and current Metal3 IDs undecided', () => {
    expect(registry.sameInstance('metal3://uid-1', 'metal3://ns/b/m')).toMatchObject({
      match: false,
      verdict: 'unknown',
    });
  });

  it('formats the canonical forms', () => {
    expect(registry.format('hetzner', { serverId: 1234 })).toEqual(right('hcloud://1234'));
    expect(registry.format('equinixmetal', { deviceId: U })).toEqual(right(`equinixmetal://${U}`));
    expect(registry.format('nutanix', { uuid: U.toUpperCase() })).toEqual(right(`nutanix://${U}`));
    expect(registry.format('docker', { containerName: 'c' })).toEqual(right('docker:////c'));
    expect(registry.format('cloudstack', { instanceId: U, scheme: 'cloudstack' })).toEqual(
      right(`cloudstack:///${U}`),
    );
    expect(registry.format('alibaba', { region: 'cn-hangzhou', instanceId: 'i-1' })).toEqual(
      right('cn-hangzhou.i-1'),
    );
    // 'cn-hz.x.i-1' would read back as region 'cn-hz', instance 'x': another instance
    const spilled = registry.format('alibaba', { region: 'cn-hz.x', instanceId: 'i-1' });
    expect(isLeft(spilled) && spilled.left).toMatchObject({ code: 'invalid-field', field: 'region' });
    expect(registry.format('oci', { ocid: 'ocid1.x', scheme: '' })).toEqual(right('ocid1.x'));
    expect(registry.format('kwok', { nodeName: 'n' })).toEqual(right('kwok://n'));
    expect(registry.format('metal3', { bmhUid: 'u' })).toEqual(right('metal3://u'));
    expect(registry.format('scaleway', { zone: 'fr-par-1', serverId: U })).toEqual(
      right(`scaleway://instance/fr-par-1/${U}`),
    );
    expect(isLeft(registry.format('digitalocean', { dropletId: '-1' }))).toBe(true);
    expect(hetznerBareMetalProviderID(7)).toBe('hcloud://bm-7');
    expect(hetznerBareMetalProviderID(7, { useHrobot: true })).toBe('hrobot://7');
    expect(cloudstackCCMProviderID('')).toBe('external-cloudstack://');
  });
});
