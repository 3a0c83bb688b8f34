import fc from 'fast-check';
import { isRight } from 'fp-ts/lib/Either.js';
import { describe, expect, it } from 'vitest';
import {
  createProviderIDIndex,
  formatProviderID,
  identifyProviderID,
  parseProviderID,
  providerIDRegistry,
  sameInstance,
  unqualifiedKey,
} from '../src/index.js';

const tok = fc.stringMatching(/^[a-z0-9][a-z0-9-]{0,11}$/);
const under = fc.stringMatching(/^[a-z0-9][a-z0-9_-]{0,11}$/);
const int64 = fc.bigInt({ min: 0n, max: 2n ** 63n - 1n }).map(String);
const uuid = fc.uuid().map((u) => u.toLowerCase());
const hex = (n: number) => fc.stringMatching(new RegExp(`^[0-9a-f]{${n}}$`));
const maybe = (arb: fc.Arbitrary<string>) => fc.oneof(fc.constant(''), arb);
const one = (field: string, arb: fc.Arbitrary<string>) => arb.map((v) => ({ [field]: v }));

/** Valid fields for every cloud, in the names its parser returns. */
const fieldsByCloud: Record<string, fc.Arbitrary<Record<string, unknown>>> = {
  aws: fc.oneof(
    fc.record({
      zone: maybe(tok),
      instanceId: fc.oneof(hex(8), hex(17)).map((h) => `i-${h}`),
      kind: fc.constant('ec2'),
    }),
    fc.record({
      zone: tok,
      middle: tok,
      instanceId: tok.map((t) => `fargate-${t}`),
      kind: fc.constant('fargate'),
    }),
  ),
  gce: fc.record({ project: fc.stringMatching(/^[a-z][a-z0-9.-]{0,10}$/), zone: tok, instanceName: tok }),
  azure: fc.oneof(
    fc.record({ subscriptionId: uuid, resourceGroup: under, vmName: under, variant: fc.constant('vm') }),
    fc.record({
      subscriptionId: uuid,
      resourceGroup: under,
      vmssName: tok,
      vmssInstanceId: fc.nat().map(String),
      variant: fc.constant('vmss-uniform'),
    }),
    fc
      .record({ subscriptionId: uuid, resourceGroup: under, vmssName: tok, suffix: tok })
      .map(({ suffix, ...f }) => ({ ...f, vmssInstanceId: `${f.vmssName}_${suffix}`, variant: 'vmss-flex' })),
  ),
  vsphere: fc.record({ uuid, scheme: fc.constantFrom('vsphere', 'vsphere-paravirtual') }),
  openstack: fc.record({ region: maybe(tok), instanceId: uuid }),
  digitalocean: one('dropletId', int64),
  equinixmetal: fc.record({ deviceId: uuid, scheme: fc.constantFrom('equinixmetal', 'packet') }),
  hetzner: fc.oneof(
    fc.record({ serverId: int64, serverType: fc.constant('cloud') }),
    fc.record({ serverId: int64, serverType: fc.constant('robot') }),
    fc.record({ serverId: int64, serverType: fc.constant('robot'), legacyRobotPrefix: fc.constant(true) }),
  ),
  linode: one('linodeId', int64),
  ibm: fc.record({ accountId: tok, region: maybe(tok), zone: maybe(tok), clusterId: tok, instanceId: tok }),
  'ibm-powervs': fc.record({ region: tok, zone: tok, serviceInstanceId: uuid, instanceId: uuid }),
  alibaba: fc.record({
    region: tok.map((t) => `cn-${t}`),
    instanceId: under,
    scheme: fc.constantFrom('', 'alicloud'),
  }),
  oci: fc.record({ ocid: tok.map((t) => `ocid1.instance.oc1.${t}`), scheme: fc.constantFrom('', 'oci') }),
  kubevirt: one('vmName', under),
  nutanix: one('uuid', uuid),
  docker: one('containerName', tok),
  inmemory: one('name', tok),
  kind: fc.record({ clusterName: tok, nodeName: tok }),
  metal3: fc.oneof(
    fc.record({ namespace: tok, bmhName: tok, metal3MachineName: tok }),
    fc.record({ bmhUid: uuid, legacy: fc.constant(true) }),
  ),
  cloudstack: fc.record({ instanceId: uuid, scheme: fc.constantFrom('external-cloudstack', 'cloudstack') }),
  kubemark: one('nodeName', tok),
  kwok: fc.oneof(fc.record({ nodeName: tok }), fc.record({ nodeName: tok, shortForm: fc.constant(true) })),
  exoscale: one('instanceId', uuid),
  scaleway: fc.oneof(
    fc.record({ product: fc.constantFrom('instance', 'baremetal'), zone: tok, serverId: uuid }),
    fc.record({ product: fc.constant('instance'), zone: fc.constant(''), serverId: uuid }),
  ),
  vultr: one('instanceId', uuid),
  tencentcloud: fc.record({ zone: tok, instanceId: tok }),
  kamatera: one('serverName', tok),
  civo: one('instanceId', uuid),
  brightbox: one('serverId', tok),
  ionoscloud: one('serverId', uuid),
  utho: one('instanceId', tok),
  bizflycloud: one('instanceId', uuid),
  volcengine: one('instanceId', tok),
  baiducloud: one('instanceId', tok),
  generic: fc.record({
    scheme: fc.constantFrom('foo', 'x-cloud'),
    path: fc.array(tok, { minLength: 1 }).map((p) => p.join('/')),
  }),
};

describe('providerID round trip', () => {
  it('has a field generator for every registered cloud', () => {
    expect(Object.keys(fieldsByCloud).sort()).toEqual(providerIDRegistry.clouds().sort());
  });

  it.each(Object.keys(fieldsByCloud))('parse(format(fields)) gives the fields back: %s', (cloud) => {
    fc.assert(
      fc.property(fieldsByCloud[cloud]!, (fields) => {
        const written = formatProviderID(cloud, fields);
        if (!isRight(written)) throw new Error(`format failed: ${written.left.message}`);
        // Generic IDs are only parsed as such when the cloud is named.
        const parsed = parseProviderID(written.right, cloud === 'generic' ? { cloud } : {});
        if (!isRight(parsed)) throw new Error(`parse failed for ${written.right}: ${parsed.left.message}`);
        expect(parsed.right.cloud).toBe(cloud);
        expect(parsed.right.fields).toMatchObject(fields);
        expect(parsed.right.canonical).toBe(written.right);
        expect(formatProviderID(cloud, parsed.right.fields)).toEqual(written);
      }),
      { numRuns: 60 },
    );
  });
});

/**
 * Valid fields with one field's value grown by a separator and a token: the separators the
 * grammars split on, so a field can spill into the next one ('cn-a.b' as an Alibaba region).
 */
const spilledFields = (cloud: string) =>
  fieldsByCloud[cloud]!.chain((fields) => {
    const names = Object.keys(fields).filter((k) => k !== 'scheme' && typeof fields[k] === 'string');
    if (names.length === 0) return fc.constant(fields);
    return fc
      .tuple(fc.constantFrom(...names), fc.constantFrom('.', '/', '//', ':', '_', '-', '://'), tok)
      .map(([name, sep, t]) => ({ ...fields, [name]: `${String(fields[name])}${sep}${t}` }));
  });

describe('providerID format never writes another instance', () => {
  it.each(Object.keys(fieldsByCloud))('format(fields) reads back as those fields, or fails: %s', (cloud) => {
    fc.assert(
      fc.property(spilledFields(cloud), (fields) => {
        const written = formatProviderID(cloud, fields);
        if (!isRight(written)) return;
        const parsed = parseProviderID(written.right, { cloud });
        if (!isRight(parsed)) throw new Error(`format wrote ${written.right}, which does not parse`);
        for (const [name, value] of Object.entries(parsed.right.fields)) {
          const given = fields[name];
          if (name === 'scheme' || typeof given !== 'string' || typeof value !== 'string') continue;
          // (a grammar's canonical form may lower-case a field: the same instance)
          expect(value, `${name} of ${written.right}`).toBe(value === given ? given : given.toLowerCase());
        }
      }),
      { numRuns: 200 },
    );
  });
});

// Small alphabets so that random pairs often denote the same instance in two spellings.
const pick = <T>(...values: T[]) => fc.constantFrom(...values);
const U1 = '423740e7-c66e-05e3-9d0b-9e1205b24d43';
const U2 = '7b9cf879-7146-417c-abfd-cb4272f0c935';
const u = pick(U1, U2, U1.toUpperCase());
const spelledID = fc.oneof(
  fc
    .tuple(pick('', 'us-east-1a', 'us-east-1b'), pick('i-0123456789abcdef0', 'i-00000001'))
    .map(([z, i]) => `aws:///${z}/${i}`),
  pick(
    'i-0123456789abcdef0',
    'aws://us-east-1a/i-0123456789abcdef0',
    'aws://z/vm-1',
    'aws:///z/vm-1',
    'aws:///vm-1',
    'aws://y/vm-1',
  ),
  fc.tuple(pick('p', 'q'), pick('z1', 'z2'), pick('n1', 'n2')).map(([p, z, n]) => `gce://${p}/${z}/${n}`),
  fc
    .tuple(
      pick('sub', 'SUB'),
      pick('rg', 'RG', 'rg2'),
      pick('resourceGroups', 'resourcegroups'),
      pick('vm', 'VM', 'ss_1'),
    )
    .map(
      ([s, g, k, v]) =>
        `azure:///subscriptions/${s}/${k}/${g}/providers/Microsoft.Compute/virtualMachines/${v}`,
    ),
  fc
    .tuple(pick('rg', 'RG'), pick('ss', 'SS', 'other'), pick('0', '1', 'ss_1'))
    .map(
      ([g, s, i]) =>
        `azure:///subscriptions/sub/resourceGroups/${g}/providers/Microsoft.Compute/virtualMachineScaleSets/${s}/virtualMachines/${i}`,
    ),
  fc.tuple(pick('vsphere', 'vsphere-paravirtual'), u).map(([s, id]) => `${s}://${id}`),
  fc.tuple(pick('', 'R1', 'R2'), u).map(([r, id]) => `openstack://${r}/${id}`),
  fc.tuple(pick('packet', 'equinixmetal'), u).map(([s, id]) => `${s}://${id}`),
  pick('hcloud://7', 'hcloud://bm-7', 'hrobot://7', 'hrobot://007', 'hcloud://8', 'hrobot://8'),
  pick(
    'ocid1.a',
    'oci://ocid1.a',
    'oci://ocid1.b',
    'cn-hangzhou.i-1',
    'alicloud://cn-hangzhou.i-1',
    'cn-shanghai.i-1',
  ),
  pick('kwok:n', 'kwok://n', 'kwok://m', 'kubemark://h', 'kubemark:////h', 'docker:////c', 'docker:///c'),
  fc.tuple(pick('external-cloudstack://', 'cloudstack:///'), u).map(([s, id]) => s + id),
  pick('metal3://ns/b/m', 'metal3://ns/b/m2', 'metal3://uid-1', 'metal3://uid-10'),
  fc
    .tuple(pick('', 'instance/fr-par-1/', 'instance/fr-par-2/', 'baremetal/fr-par-1/'), u)
    .map(([p, id]) => `scaleway://${p}${id}`),
  pick('foo://a/b', 'foo:///a/b', 'foo://a/c', 'gce://not-found', 'gce:///not-found', '', 'not an id'),
);

const hasQualifier = (id: string) => Boolean(identifyProviderID(id).identity.qualifier);

describe('identity key and sameInstance agree', () => {
  it('equal keys always mean the same instance', () => {
    fc.assert(
      fc.property(spelledID, spelledID, (a, b) => {
        const sameKey = identifyProviderID(a).key === identifyProviderID(b).key;
        fc.pre(a.trim() !== '' && b.trim() !== '');
        if (sameKey) expect(sameInstance(a, b).match).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });

  it('keys are equal exactly when sameInstance is true, for IDs that both carry or both omit the qualifier', () => {
    fc.assert(
      fc.property(spelledID, spelledID, (a, b) => {
        fc.pre(a.trim() !== '' && b.trim() !== '' && hasQualifier(a) === hasQualifier(b));
        expect(sameInstance(a, b).match).toBe(identifyProviderID(a).key === identifyProviderID(b).key);
      }),
      { numRuns: 2000 },
    );
  });

  it('an ID without qualifier matches exactly the IDs with its unqualified key', () => {
    fc.assert(
      fc.property(spelledID, spelledID, (a, b) => {
        fc.pre(a.trim() !== '' && b.trim() !== '' && hasQualifier(a) !== hasQualifier(b));
        const ua = unqualifiedKey(identifyProviderID(a).identity);
        const ub = unqualifiedKey(identifyProviderID(b).identity);
        expect(sameInstance(a, b).match).toBe(ua === ub);
      }),
      { numRuns: 2000 },
    );
  });

  it('is symmetric, and "unknown" is never a match', () => {
    fc.assert(
      fc.property(spelledID, spelledID, (a, b) => {
        const ab = sameInstance(a, b);
        const ba = sameInstance(b, a);
        expect(ab.match).toBe(ba.match);
        expect(ab.verdict).toBe(ba.verdict);
        if (ab.verdict !== 'same') expect(ab.match).toBe(false);
      }),
      { numRuns: 2000 },
    );
  });

  it('the index pairs exactly what sameInstance pairs', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(spelledID, { maxLength: 12 }),
        fc.array(spelledID, { maxLength: 12 }),
        (machines, nodes) => {
          const index = createProviderIDIndex(machines.map((m, i) => ({ providerID: m, item: i })));
          for (const node of nodes) {
            const expected = machines.flatMap((m, i) =>
              node.trim() !== '' && m.trim() !== '' && sameInstance(node, m).match ? [i] : [],
            );
            expect(index.lookup(node).sort((x, y) => x - y)).toEqual(expected);
          }
        },
      ),
      { numRuns: 500 },
    );
  });
});
