import { isLeft, isRight } from 'fp-ts/lib/Either.js';
import { describe, expect, it } from 'vitest';
import { textCharFaultAt } from '../src/characters.js';
import { formatProviderID, parseProviderID, providerIDRegistry } from '../src/index.js';
import { isToken, tokenFault } from '../src/kit.js';

const U = '3f3c8a8e-0b2a-4d5e-9a41-8c3b2f1d7e60';
const AZ = `azure:///subscriptions/<subscriptionId>/resourceGroups/<resourceGroup>/providers/Microsoft.Compute`;

/**
 * A valid ID of every cloud (each form with fields of its own), `<field>` where a field's
 * value goes, and the values the example is built with.
 */
const examples: [cloud: string, template: string, values: Record<string, string>][] = [
  ['aws', 'aws:///<zone>/<instanceId>', { zone: 'us-east-1a', instanceId: 'i-0123456789abcdef0' }],
  ['aws', 'aws://<zone>/<instanceId>', { zone: 'us-east-1a', instanceId: 'i-0123456789abcdef0' }],
  [
    'aws',
    'aws:///<zone>/<middle>/<instanceId>',
    { zone: 'us-east-1a', middle: 'tok', instanceId: 'fargate-ip-10-0-0-1' },
  ],
  [
    'gce',
    'gce://<project>/<zone>/<instanceName>',
    { project: 'p', zone: 'us-central1-a', instanceName: 'vm' },
  ],
  ['azure', `${AZ}/virtualMachines/<vmName>`, { subscriptionId: U, resourceGroup: 'rg', vmName: 'vm' }],
  [
    'azure',
    `${AZ}/virtualMachineScaleSets/<vmssName>/virtualMachines/<vmssInstanceId>`,
    { subscriptionId: U, resourceGroup: 'rg', vmssName: 'ss', vmssInstanceId: '3' },
  ],
  ['vsphere', 'vsphere://<uuid>', { uuid: U }],
  ['openstack', 'openstack://<region>/<instanceId>', { region: 'RegionOne', instanceId: U }],
  ['digitalocean', 'digitalocean://<dropletId>', { dropletId: '12345' }],
  ['equinixmetal', 'equinixmetal://<deviceId>', { deviceId: U }],
  ['hetzner', 'hcloud://<serverId>', { serverId: '42' }],
  ['hetzner', 'hrobot://<serverId>', { serverId: '42' }],
  ['linode', 'linode://<linodeId>', { linodeId: '123' }],
  [
    'ibm',
    'ibm://<accountId>/<region>/<zone>/<clusterId>/<instanceId>',
    { accountId: 'acct', region: 'us-south', zone: 'us-south-1', clusterId: 'c1', instanceId: 'w1' },
  ],
  [
    'ibm-powervs',
    'ibmpowervs://<region>/<zone>/<serviceInstanceId>/<instanceId>',
    { region: 'osa', zone: 'osa21', serviceInstanceId: 'ws', instanceId: 'inst' },
  ],
  ['alibaba', '<region>.<instanceId>', { region: 'cn-hangzhou', instanceId: 'i-bp1abc' }],
  [
    'alibaba',
    'alicloud://<region>.<instanceId>.<suffix>',
    { region: 'cn-hangzhou', instanceId: 'i-bp1abc', suffix: 'extra' },
  ],
  ['oci', 'oci://<ocid>', { ocid: 'ocid1.instance.oc1.phx.abc' }],
  ['kubevirt', 'kubevirt://<vmName>', { vmName: 'vm-1' }],
  ['nutanix', 'nutanix://<uuid>', { uuid: U }],
  ['docker', 'docker:////<containerName>', { containerName: 'c-md-0' }],
  ['inmemory', 'in-memory://<name>', { name: 'dev-1' }],
  ['kind', 'kind://<clusterName>/kind/<nodeName>', { clusterName: 'c1', nodeName: 'c1-worker' }],
  [
    'metal3',
    'metal3://<namespace>/<bmhName>/<metal3MachineName>',
    { namespace: 'ns', bmhName: 'bmh', metal3MachineName: 'm3m' },
  ],
  ['metal3', 'metal3://<bmhUid>', { bmhUid: 'd4f5c6a7' }],
  ['cloudstack', 'external-cloudstack://<instanceId>', { instanceId: U }],
  ['cloudstack', 'cloudstack:///<instanceId>', { instanceId: U }],
  ['kubemark', 'kubemark://<nodeName>', { nodeName: 'hollow-1' }],
  ['kwok', 'kwok://<nodeName>', { nodeName: 'node-1' }],
  ['kwok', 'kwok:<nodeName>', { nodeName: 'node-1' }],
  ['exoscale', 'exoscale://<instanceId>', { instanceId: U }],
  [
    'scaleway',
    'scaleway://<product>/<zone>/<serverId>',
    { product: 'instance', zone: 'fr-par-1', serverId: U },
  ],
  ['scaleway', 'scaleway://<serverId>', { serverId: U }],
  ['vultr', 'vultr://<instanceId>', { instanceId: 'abc-123' }],
  ['tencentcloud', 'qcloud:///<zone>/<instanceId>', { zone: 'ap-guangzhou-3', instanceId: 'ins-abc123' }],
  ['kamatera', 'kamatera://<serverName>', { serverName: 'srv-1' }],
  ['civo', 'civo://<instanceId>', { instanceId: U }],
  ['brightbox', 'brightbox://<serverId>', { serverId: 'srv-abcde' }],
  ['ionoscloud', 'ionos://<serverId>', { serverId: U }],
  ['utho', 'utho://<instanceId>', { instanceId: '12345' }],
  ['bizflycloud', 'bizflycloud://<instanceId>', { instanceId: U }],
  ['volcengine', 'volcengine://<instanceId>', { instanceId: 'i-abc' }],
  ['baiducloud', 'cce://<instanceId>', { instanceId: 'i-abc' }],
];

const build = (template: string, values: Record<string, string>) =>
  template.replace(/<(\w+)>/g, (_, name: string) => values[name]!);

/** The example with `field` set to `value`. */
const cases = (replace: (value: string) => string[]) =>
  examples.flatMap(([cloud, template, values]) =>
    Object.keys(values).flatMap((field) =>
      replace(values[field]!).map((value) => ({
        cloud,
        field,
        input: build(template, { ...values, [field]: value }),
      })),
    ),
  );

// U+0080 and U+009F are the ends of the C1 range, U+0085 is NEL (a line break to some
// readers), U+009B is CSI (a terminal escape, as ESC '[').
const C1 = ['\u0080', '\u0085', '\u009b', '\u009f'];

function expectRefused({ cloud, field, input }: { cloud: string; field: string; input: string }) {
  const parsed = parseProviderID(input, { cloud });
  if (isRight(parsed)) throw new Error(`${JSON.stringify(input)} parsed as ${cloud}`);
  expect(parsed.left, JSON.stringify(input)).toMatchObject({ code: 'invalid-field', cloud, field });
}

describe('every field of every cloud', () => {
  it('has an example of every registered cloud but the generic grammar', () => {
    const clouds = new Set(examples.map(([cloud]) => cloud));
    expect([...clouds].sort()).toEqual(
      providerIDRegistry
        .clouds()
        .filter((c) => c !== 'generic')
        .sort(),
    );
  });

  it.each(examples.map(([cloud, template, values]) => [cloud, build(template, values), values] as const))(
    'reads the %s example %j as its values',
    (cloud, input, values) => {
      const parsed = parseProviderID(input, { cloud });
      if (!isRight(parsed)) throw new Error(parsed.left.message);
      expect(parsed.right.fields).toMatchObject(values);
    },
  );

  it.each(cases((v) => C1.map((c) => `${v.slice(0, 1)}${c}${v.slice(1)}`)))(
    'refuses a C1 control in the $cloud $field: $input',
    expectRefused,
  );

  it.each(cases((v) => [`${v}\u009b31m`, `\u0085${v}`]))(
    'refuses a C1 control at either end of the $cloud $field: $input',
    expectRefused,
  );

  // Invisible and spoofing characters: no-break space, bidi controls, zero-width space and
  // joiner, U+FEFF, line separator, a Hangul filler, a tag character (outside the BMP) and
  // unpaired surrogates.
  const INVISIBLE = ['\u00a0', '\u202e', '\u2066', '\u200b', '\u200d', '\ufeff', '\u2028', '\u3164'];
  it.each(
    cases((v) =>
      [...INVISIBLE, '\u{e0001}', '\ud800', '\udc00'].map((c) => `${v.slice(0, 1)}${c}${v.slice(1)}`),
    ),
  )(
    'refuses an invisible or bidi character in the $cloud $field, escaping it in the message: $input',
    (c) => {
      expectRefused(c);
      const parsed = parseProviderID(c.input, { cloud: c.cloud });
      const message = isLeft(parsed) ? parsed.left.message : '';
      expect(textCharFaultAt(message), message).toBe(-1);
      expect(message).toMatch(/\\u[0-9a-f]{4}/);
    },
  );

  it.each(cases(() => ['.', '..']))('refuses "." and ".." as the $cloud $field: $input', expectRefused);

  it('still reads dots that are not a whole field, and visible characters beside the refused ones', () => {
    for (const value of [
      '...',
      '.a',
      'a.',
      '..a',
      'a..b',
      'a~',
      'a\u00a1',
      'a\u00ae',
      'é',
      'ü\u0301',
      '名前',
      'a😀',
    ]) {
      const input = `gce://${value}/${value}/${value}`;
      const parsed = parseProviderID(input);
      if (!isRight(parsed)) throw new Error(`${JSON.stringify(input)}: ${parsed.left.message}`);
      expect(parsed.right.fields).toMatchObject({ project: value, zone: value, instanceName: value });
    }
  });

  it('says why in the message', () => {
    const message = (input: string) => {
      const parsed = parseProviderID(input);
      return isLeft(parsed) ? parsed.left.message : 'parsed';
    };
    expect(message('gce://../zone/vm')).toBe('project is "." or ".."');
    expect(message('gce://p/zone\u009b/vm')).toBe(
      'zone contains white space or a control character: U+009B at offset 4 of "zone\\u009b"',
    );
    expect(message('gce://p/us\u202eeast/vm')).toBe(
      'zone contains a bidi control character: U+202E at offset 2 of "us\\u202eeast"',
    );
    expect(message('aws:///../i-0123456789abcdef0')).toBe('the zone is "." or ".."');
    expect(
      message(`${AZ.replace('<subscriptionId>', U).replace('<resourceGroup>', '..')}/virtualMachines/vm`),
    ).toBe('the resource group is "." or ".."');
  });

  it('refuses to format such fields', () => {
    const formatted = formatProviderID('gce', { project: '..', zone: 'z', instanceName: 'vm' });
    expect(isLeft(formatted) && formatted.left).toMatchObject({ code: 'invalid-field', field: 'project' });
  });
});

describe('tokenFault', () => {
  it('refuses exactly white space, C0, "/", DEL, C1, U+00A0 and U+00AD among the first 256 characters', () => {
    for (let c = 0; c < 0x100; c++) {
      const refused = c <= 0x20 || c === 0x2f || (c >= 0x7f && c <= 0x9f) || c === 0xa0 || c === 0xad;
      expect(isToken(`a${String.fromCharCode(c)}b`), c.toString(16)).toBe(!refused);
    }
  });

  it('refuses "", "." and ".." only as whole values', () => {
    expect(['', '.', '..'].map(tokenFault)).toEqual(['is empty', 'is "." or ".."', 'is "." or ".."']);
    expect(['...', '.a', 'a.', '.-', '-.'].map(tokenFault)).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
  });
});
