import { type Either, isLeft, isRight, right } from 'fp-ts/lib/Either.js';
import { describe, expect, it } from 'vitest';
import { azureLowerResourceGroup, azureProviderIDFromResourceID } from '../src/clouds/azure.js';
import { cloudstackCCMProviderID } from '../src/clouds/cloudstack.js';
import { gceProviderIDFromResourceURL } from '../src/clouds/gce.js';
import { hetznerBareMetalProviderID } from '../src/clouds/hetzner.js';
import { swapVsphereUUIDByteOrder, vsphereUUIDFromProviderID } from '../src/clouds/vsphere.js';
import { formatProviderID, parseProviderID, sameInstance } from '../src/index.js';
import { vectors } from './vectors.js';

describe('providerID vectors: parse', () => {
  it('has every vector of the shared set, each with its own id', () => {
    // The shared set's sizes, written here rather than read from the fixture's own
    // `counts`, so a fixture that lost or duplicated vectors fails.
    expect({
      parse: vectors.parse.length,
      match: vectors.match.length,
      normalize: vectors.normalize.length,
      format: vectors.format.length,
    }).toEqual({ parse: 57, match: 11, normalize: 7, format: 14 });
    const ids = [...vectors.parse, ...vectors.match, ...vectors.normalize, ...vectors.format].map(
      (v) => v.id,
    );
    expect(ids.filter((id, i) => ids.indexOf(id) !== i)).toEqual([]);
  });

  // The vector names the cloud whose parser defines the expectation, so parse with it.
  it.each(vectors.parse.map((v) => [v.id, v] as const))('%s', (_id, v) => {
    const result = parseProviderID(v.input, { cloud: v.cloud });
    if (v.lenient && isLeft(result)) {
      // A lenient form the cited parser accepts but no emitter writes; rejecting it is
      // allowed, but only with a reason.
      expect(result.left.message.length).toBeGreaterThan(0);
      return;
    }
    expect(isRight(result), isLeft(result) ? result.left.message : 'parsed').toBe(v.valid);
    if (isRight(result) && v.expected) {
      expect(result.right.cloud).toBe(v.cloud);
      expect(result.right.fields).toMatchObject(v.expected);
    }
  });

  // Without a cloud named, IDs with a scheme (or an unambiguous bare shape) still find
  // their cloud and read the same fields.
  const detectable = vectors.parse.filter(
    (v) => v.valid && !v.lenient && v.cloud !== 'generic' && v.expected && v.expected.scheme !== '',
  );
  it.each(detectable.map((v) => [v.id, v] as const))('%s detected from the scheme', (_id, v) => {
    const result = parseProviderID(v.input);
    expect(isRight(result) && result.right.cloud).toBe(v.cloud);
    if (isRight(result)) expect(result.right.fields).toMatchObject(v.expected!);
  });
});

describe('providerID vectors: match', () => {
  it.each(vectors.match.map((v) => [v.id, v] as const))('%s', (_id, v) => {
    const result = sameInstance(v.nodeProviderID, v.machineProviderID);
    if (v.expected.sameInstance === null) {
      expect(result.verdict).not.toBe('same');
      return;
    }
    expect(result.match, result.reason).toBe(v.expected.sameInstance);
    expect(result.verdict).toBe(v.expected.sameInstance ? 'same' : 'different');
    // The relation is symmetric.
    expect(sameInstance(v.machineProviderID, v.nodeProviderID).match).toBe(v.expected.sameInstance);
  });
});

// Each upstream operation, as capi-kit exposes it.
const normalizers: Record<string, (input: string) => Either<unknown, string>> = {
  'cloud-provider-azure ConvertResourceGroupNameToLower': azureLowerResourceGroup,
  'capz ARM VMSS VM ID -> providerID (azure:// + ConvertResourceGroupNameToLower)':
    azureProviderIDFromResourceID,
  'cloud-provider-vsphere GetUUIDFromProviderID (TrimPrefix vsphere:// + TrimSpace + ToLower)':
    vsphereUUIDFromProviderID,
  'cloud-provider-vsphere ConvertK8sUUIDtoNormal (SMBIOS byte-swap of first 3 groups, lower-cased)': (s) =>
    right(swapVsphereUUIDByteOrder(s)),
};

describe('providerID vectors: normalize', () => {
  it.each(vectors.normalize.map((v) => [v.id, v] as const))('%s', (_id, v) => {
    const normalize = normalizers[v.op];
    expect(normalize, `no normalizer for '${v.op}'`).toBeDefined();
    const result = normalize!(v.input);
    if (v.error) expect(isLeft(result)).toBe(true);
    else expect(result).toEqual(right(v.expected));
  });
});

const str = (value: unknown) => String(value);

// Upstream functions take their own argument names; each maps onto capi-kit's fields.
const formatters: Record<string, (fields: Record<string, unknown>) => Either<unknown, string>> = {
  'cloud-provider-aws getProviderID': (f) => formatProviderID('aws', f),
  'capg providerid.New': (f) =>
    formatProviderID('gce', { project: f.project, zone: f.location, instanceName: f.name }),
  'capg providerid.NewFromResourceURL': (f) => gceProviderIDFromResourceURL(str(f.resourceURL)),
  'capv util.ConvertUUIDToProviderID': (f) => formatProviderID('vsphere', f),
  'hccm providerid.FromCloudServerID': (f) => formatProviderID('hetzner', { serverId: f.serverId }),
  'caph baremetal generateProviderID': (f) =>
    right(hetznerBareMetalProviderID(str(f.serverNumber), { useHrobot: f.useHrobotAnnotation === true })),
  'capoci OCISelfManagedCluster.GetProviderID': (f) => formatProviderID('oci', { ocid: f.instanceId }),
  'capk Machine.GenerateProviderID': (f) => formatProviderID('kubevirt', { vmName: f.kubevirtMachineName }),
  'nutanix-ccm generateProviderID': (f) => formatProviderID('nutanix', { uuid: f.vmUUID }),
  'capd Machine.ProviderID': (f) => formatProviderID('docker', f),
  'cloudstack-ccm getProviderIDFromInstanceID': (f) => right(cloudstackCCMProviderID(str(f.instanceId))),
  'autoscaler kubemark NodeGroup.Nodes': (f) => formatProviderID('kubemark', f),
  'karpenter kwok cloudprovider.Create': (f) => formatProviderID('kwok', f),
  "autoscaler formatKamateraProviderID(prefix='')": (f) => formatProviderID('kamatera', f),
};

describe('providerID vectors: format', () => {
  it.each(vectors.format.map((v) => [v.id, v] as const))('%s', (_id, v) => {
    const format = formatters[v.op];
    expect(format, `no formatter for '${v.op}'`).toBeDefined();
    const result = format!(v.fields);
    if (v.error) expect(isLeft(result)).toBe(true);
    else expect(result).toEqual(right(v.expected));
  });

  it('refuses to build a CloudStack ID without instance, though the CCM writes one', () => {
    expect(isLeft(formatProviderID('cloudstack', { instanceId: '' }))).toBe(true);
    expect(isLeft(parseProviderID(cloudstackCCMProviderID('')))).toBe(true);
  });

  it('builds the CAPH bare-metal form from fields too', () => {
    expect(
      formatProviderID('hetzner', { serverId: '7', serverType: 'robot', legacyRobotPrefix: true }),
    ).toEqual(right('hcloud://bm-7'));
    expect(formatProviderID('hetzner', { serverId: '7', serverType: 'robot' })).toEqual(right('hrobot://7'));
  });
});
