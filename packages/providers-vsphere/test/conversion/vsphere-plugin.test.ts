import { convertManifest, formatConversionError, type JsonObject, V1ALPHA2 } from '@capi-kit/conversion';
import type { PluginResult } from '@capi-kit/conversion/plugin-kit';
import { describe, expect, it } from 'vitest';
import {
  convertVsphereCluster,
  convertVsphereMachine,
  convertVsphereMachineTemplate,
  vsphereConversionPlugin,
} from '../../src/index.js';

function ok(result: PluginResult) {
  if (result._tag === 'Left') throw new Error(result.left.message);
  return result.right;
}
const network = { devices: [{ networkName: 'vm-net', dhcp4: true }] };
const owner = { kind: 'Machine' as const, name: 'cp-0', namespace: 'ns' };

const v04: JsonObject = {
  apiVersion: 'vsphere.cluster.k8s.io/v1alpha1',
  kind: 'VsphereMachineProviderSpec',
  datacenter: 'dc',
  template: 'ubuntu',
  network,
  numCPUs: 2,
  numCoresPerSocket: 1,
  memoryMiB: 4096,
  diskGiB: 40,
  ntpServers: ['pool.ntp.org'],
  machineRef: 'vm-42',
  kubeadmConfiguration: { join: { discovery: {} } },
};
const v03: JsonObject = {
  apiVersion: 'vsphereproviderconfig/v1alpha1',
  kind: 'VsphereMachineProviderConfig',
  machineSpec: {
    datacenter: 'dc',
    datastore: 'ds',
    template: 'ubuntu',
    network,
    numCPUs: 2,
    memoryMB: 2048,
    diskGiB: 20,
    disks: [{ diskSizeGB: 20 }],
    ntpServers: ['time.example.com'],
  },
};

describe('VsphereMachineProviderSpec (CAPV v0.4) → VSphereMachine', () => {
  const out = ok(
    convertVsphereMachine({
      owner,
      providerSpec: v04,
      providerSpecSource: 'spec.providerSpec.value',
      controlPlane: false,
      providerID: 'vsphere://42',
    }),
  );
  const machine = out.objects[0] as { spec: JsonObject };
  it('writes the spec CAPV v0.5 defines (field names from its VSphereMachine CRD), and nothing else', () => {
    // Written out by hand from testdata/crds/providers/vsphere/v1alpha2, not from the
    // plug-in's move table, so a wrong target name fails here without a server.
    expect(machine.spec).toStrictEqual({
      datacenter: 'dc',
      template: 'ubuntu',
      network,
      numCPUs: 2,
      numCoresPerSocket: 1,
      memoryMiB: 4096,
      diskGiB: 40,
      providerID: 'vsphere://42',
    });
  });
  it('providerID from the Machine; ntpServers into the KubeadmConfig; machineRef warned', () => {
    expect(machine.spec.providerID).toBe('vsphere://42');
    expect((out.objects[1] as { spec: JsonObject }).spec).toEqual({
      joinConfiguration: { discovery: {} },
      ntp: { servers: ['pool.ntp.org'] },
    });
    expect(out.warnings).toEqual([
      'spec.providerSpec.value.machineRef has no v1alpha2 field; it is kept only in the stash annotation',
    ]);
  });
});

describe('VsphereMachineProviderConfig (CAPV v0.3) → VSphereMachine', () => {
  const out = ok(
    convertVsphereMachine({
      owner,
      providerSpec: v03,
      providerSpecSource: 'spec.providerSpec.value',
      controlPlane: false,
    }),
  );
  const machine = out.objects[0] as { spec: JsonObject };
  it('writes the spec CAPV v0.5 defines from the v0.3 machineSpec, by hand', () => {
    expect(machine.spec).toStrictEqual({
      datacenter: 'dc',
      template: 'ubuntu',
      network,
      numCPUs: 2,
      memoryMiB: 2048,
      diskGiB: 20,
    });
  });
  it('memoryMB (sized in MiB) becomes memoryMiB; datastore and disks are warned about', () => {
    expect(machine.spec.memoryMiB).toBe(2048);
    expect(out.warnings).toEqual([
      'spec.providerSpec.value.machineSpec.datastore has no v1alpha2 field; it is kept only in the stash annotation (CAPV v0.5 reads it from VSphereCluster spec.cloudProviderConfiguration.workspace)',
      'spec.providerSpec.value.machineSpec.disks has no v1alpha2 field; it is kept only in the stash annotation',
    ]);
  });
  it('refuses a spec without what VSphereMachine requires', () => {
    const { template: _t, ...rest } = v03.machineSpec as JsonObject;
    const result = convertVsphereMachine({
      owner,
      providerSpec: { ...v03, machineSpec: rest },
      providerSpecSource: 'x',
      controlPlane: false,
    });
    expect(result).toEqual({
      _tag: 'Left',
      left: { code: 'plugin-refused', message: 'machineSpec.template missing: VSphereMachine requires them' },
    });
  });
});

describe('vSphere cluster specs', () => {
  it('v0.3: vsphereServer → server; credentials go only into their own Secret, claimed for the stash', () => {
    const out = ok(
      convertVsphereCluster({
        owner: { kind: 'Cluster', name: 'lab' },
        providerSpec: {
          apiVersion: 'vsphereproviderconfig/v1alpha1',
          kind: 'VsphereClusterProviderConfig',
          vsphereServer: 'vc.example.com',
          vsphereUser: 'admin',
          vspherePassword: 'secret',
          vsphereCredentialSecret: 'vc-creds',
          sshAuthorizedKeys: ['ssh-ed25519 AAAA'],
        },
        providerSpecSource: 'spec.providerSpec.value',
      }),
    );
    expect((out.objects[0] as { spec: JsonObject }).spec).toEqual({ server: 'vc.example.com' });
    // Only the Secret holds them (base64, as Secret data is), never the VSphereCluster.
    expect(JSON.stringify(out.objects[0])).not.toContain('secret');
    expect(out.objects.slice(1)).toEqual([
      {
        apiVersion: 'v1',
        kind: 'Secret',
        metadata: { name: 'lab-vsphere-credentials', labels: { 'cluster.x-k8s.io/cluster-name': 'lab' } },
        type: 'Opaque',
        data: { vsphereUser: 'YWRtaW4=', vspherePassword: 'c2VjcmV0', 'conversion.capi-kit.dev-for': 'bGFi' },
      },
    ]);
    expect(out.secretFields).toEqual([
      { field: 'vsphereUser', secret: 'lab-vsphere-credentials' },
      { field: 'vspherePassword', secret: 'lab-vsphere-credentials' },
    ]);
    expect(out.warnings).toEqual([
      'spec.providerSpec.value.vsphereCredentialSecret has no v1alpha2 field; it is kept only in the stash annotation',
      'vsphereUser, vspherePassword went into Secret lab-vsphere-credentials only for the way back: no v1alpha2 object reads it (give the v1alpha2 provider its credentials as it expects)',
    ]);
  });

  it("sshAuthorizedKeys of the Cluster reach every Machine's KubeadmConfig as the capv user", () => {
    const text = `apiVersion: cluster.k8s.io/v1alpha1
kind: Cluster
metadata: {name: lab}
spec:
  clusterNetwork: {services: {cidrBlocks: []}, pods: {cidrBlocks: []}, serviceDomain: cluster.local}
  providerSpec:
    value: {apiVersion: vsphere.cluster.k8s.io/v1alpha1, kind: VsphereClusterProviderSpec, server: vc, sshAuthorizedKeys: [ssh-ed25519 AAAA]}
---
apiVersion: cluster.k8s.io/v1alpha1
kind: Machine
metadata: {name: w-0, labels: {cluster.k8s.io/cluster-name: lab}}
spec:
  providerSpec:
    value: {apiVersion: vsphere.cluster.k8s.io/v1alpha1, kind: VsphereMachineProviderSpec, datacenter: dc, template: t, network: {devices: [{networkName: n}]}}
`;
    const result = convertManifest(text, { to: V1ALPHA2, plugins: [vsphereConversionPlugin] });
    if (result._tag === 'Left') throw new Error(result.left.map(formatConversionError).join('\n'));
    const config = result.right.documents.find((d) => (d as { kind: string }).kind === 'KubeadmConfig') as {
      spec: JsonObject;
    };
    expect(config.spec.users).toEqual([
      { name: 'capv', sshAuthorizedKeys: ['ssh-ed25519 AAAA'], sudo: 'ALL=(ALL) NOPASSWD:ALL' },
    ]);
  });
});

describe('generates', () => {
  it('names the kind of every object the hooks make (verify lists them when the plan has none)', () => {
    const clusterSpec: JsonObject = {
      apiVersion: 'vsphere.cluster.k8s.io/v1alpha1',
      kind: 'VsphereClusterProviderSpec',
      server: 'vc',
      caKeyPair: { cert: 'Y2VydA==', key: 'a2V5' },
    };
    const machineInput = {
      owner,
      providerSpec: v04,
      providerSpecSource: 'spec.providerSpec.value',
      controlPlane: false,
    };
    const made = [
      ...ok(
        convertVsphereCluster({
          owner: { kind: 'Cluster', name: 'lab', namespace: 'ns' },
          providerSpec: clusterSpec,
          providerSpecSource: 'spec.providerSpec.value',
        }),
      ).objects,
      ...ok(convertVsphereMachine(machineInput)).objects,
      ...ok(
        convertVsphereMachineTemplate({
          ...machineInput,
          owner: { kind: 'MachineSet', name: 'w', namespace: 'ns' },
        }),
      ).objects,
    ].map((o) => `${String(o.apiVersion)} ${String(o.kind)}`);
    const declared = (vsphereConversionPlugin.generates ?? []).map((k) => `${k.apiVersion} ${k.kind}`);
    expect(made).toContain('v1 Secret');
    expect(made).toContain('infrastructure.cluster.x-k8s.io/v1alpha2 VSphereMachineTemplate');
    expect([...new Set(made)].sort()).toEqual([...new Set(declared)].sort());
  });
});

describe('a Machine whose Cluster was not converted with it', () => {
  it('warns in words that fit a manifest and a live migration alike', () => {
    const out = ok(
      convertVsphereMachine({
        owner,
        providerSpec: v04,
        providerSpecSource: 'spec.providerSpec.value',
        controlPlane: false,
        clusterName: 'lab',
      }),
    );
    expect(out.warnings).toContain(
      'Cluster lab is not among the objects converted: its sshAuthorizedKeys and clusterConfiguration are not in the bootstrap config',
    );
  });
});
