import { convertManifest, formatConversionError, type JsonObject, V1ALPHA2 } from '@capi-kit/conversion';
import type { ClusterInfo, MachinePluginInput, PluginResult } from '@capi-kit/conversion/plugin-kit';
import { describe, expect, it } from 'vitest';
import {
  awsConversionPlugin,
  convertAwsCluster,
  convertAwsMachine,
  convertAwsMachineTemplate,
} from '../../src/index.js';

function ok(result: PluginResult) {
  if (result._tag === 'Left') throw new Error(result.left.message);
  return result.right;
}

const machineSpec: JsonObject = {
  apiVersion: 'awsprovider/v1alpha1',
  kind: 'AWSMachineProviderSpec',
  ami: { id: 'ami-0123' },
  imageLookupOrg: '258751437250',
  instanceType: 'm5.large',
  additionalTags: { team: 'a' },
  iamInstanceProfile: 'nodes',
  publicIP: false,
  additionalSecurityGroups: [{ id: 'sg-1' }],
  availabilityZone: 'eu-west-1a',
  subnet: { filters: [{ name: 'tag:Name', values: ['private'] }] },
  keyName: 'ops',
  rootDeviceSize: 50,
  kubeadmConfiguration: { init: { nodeRegistration: { name: 'n' } }, join: { discovery: {} } },
  additionalUserDataFiles: [{ path: '/etc/m', owner: 'root:root', permissions: '0600', content: 'machine' }],
};
const clusterSpec: JsonObject = {
  apiVersion: 'awsprovider/v1alpha1',
  kind: 'AWSClusterProviderSpec',
  region: 'eu-west-1',
  sshKeyName: 'ops',
  networkSpec: { vpc: { id: 'vpc-1' }, subnets: [{ id: 'subnet-1', isPublic: true, routeTableId: null }] },
  caKeyPair: { cert: 'Y2VydA==', key: 'a2V5' },
  etcdCAKeyPair: { cert: 'Y2VydA==', key: 'a2V5' },
  frontProxyCAKeyPair: { cert: 'Y2VydA==' },
  clusterConfiguration: { kubernetesVersion: 'v1.14.4', clusterName: 'prod' },
  additionalUserDataFiles: [{ path: '/etc/c', owner: 'root:root', permissions: '0644', content: 'cluster' }],
};
const cluster: ClusterInfo = { name: 'prod', namespace: 'ns', providerSpec: clusterSpec };
const machineInput = (over: Partial<MachinePluginInput> = {}): MachinePluginInput => ({
  owner: { kind: 'Machine', name: 'prod-cp-0', namespace: 'ns' },
  providerSpec: machineSpec,
  providerSpecSource: 'spec.providerSpec.value',
  controlPlane: true,
  clusterName: 'prod',
  cluster,
  providerID: 'aws:///eu-west-1a/i-0abc',
  ...over,
});

describe('AWSMachineProviderSpec → AWSMachine', () => {
  const out = ok(convertAwsMachine(machineInput()));
  const awsMachine = out.objects[0] as { spec: JsonObject; metadata: JsonObject };
  it('writes the spec CAPA v0.4 defines (field names from its AWSMachine CRD), and nothing else', () => {
    // Written out by hand from testdata/crds/providers/aws/v1alpha2, not from the plug-in's
    // move table, so a wrong target name fails here without a server.
    expect(awsMachine.spec).toStrictEqual({
      ami: { id: 'ami-0123' },
      imageLookupOrg: '258751437250',
      instanceType: 'm5.large',
      additionalTags: { team: 'a' },
      iamInstanceProfile: 'nodes',
      publicIP: false,
      additionalSecurityGroups: [{ id: 'sg-1' }],
      availabilityZone: 'eu-west-1a',
      subnet: { filters: [{ name: 'tag:Name', values: ['private'] }] },
      sshKeyName: 'ops',
      rootDeviceSize: 50,
      providerID: 'aws:///eu-west-1a/i-0abc',
    });
  });
  it('names the object after the Machine, labelled with its cluster', () => {
    expect(awsMachine.metadata).toEqual({
      name: 'prod-cp-0',
      namespace: 'ns',
      labels: { 'cluster.x-k8s.io/cluster-name': 'prod' },
    });
    expect(out.infrastructureRef).toEqual({
      apiVersion: 'infrastructure.cluster.x-k8s.io/v1alpha2',
      kind: 'AWSMachine',
      name: 'prod-cp-0',
      namespace: 'ns',
    });
  });
});

describe('kubeadm parts → KubeadmConfig', () => {
  it('control plane: cluster configuration from the Cluster, init and join from the Machine, files from both', () => {
    const out = ok(convertAwsMachine(machineInput()));
    const config = out.objects[1] as { kind: string; spec: JsonObject };
    expect(config.kind).toBe('KubeadmConfig');
    expect(config.spec).toEqual({
      clusterConfiguration: { kubernetesVersion: 'v1.14.4', clusterName: 'prod' },
      initConfiguration: { nodeRegistration: { name: 'n' } },
      joinConfiguration: { discovery: {} },
      files: [
        { path: '/etc/c', owner: 'root:root', permissions: '0644', content: 'cluster' },
        { path: '/etc/m', owner: 'root:root', permissions: '0600', content: 'machine' },
      ],
    });
    expect(out.bootstrap?.configRef).toEqual({
      apiVersion: 'bootstrap.cluster.x-k8s.io/v1alpha2',
      kind: 'KubeadmConfig',
      name: 'prod-cp-0',
      namespace: 'ns',
    });
  });

  it('worker: a join configuration only', () => {
    const out = ok(convertAwsMachine(machineInput({ controlPlane: false })));
    const config = out.objects[1] as { spec: JsonObject };
    expect(Object.keys(config.spec)).toEqual(['joinConfiguration', 'files']);
  });

  it("warns when the control plane's Cluster is not among the objects converted", () => {
    const { cluster: _c, ...rest } = machineInput();
    const out = ok(convertAwsMachine(rest));
    expect(out.warnings.join('\n')).toContain('Cluster prod is not among the objects converted');
  });
});

describe('MachineSet / MachineDeployment templates', () => {
  it('AWSMachineTemplate and KubeadmConfigTemplate named after the owner, and referenced by that name', () => {
    const out = ok(
      convertAwsMachineTemplate(
        machineInput({
          owner: { kind: 'MachineDeployment', name: 'workers', namespace: 'ns' },
          controlPlane: false,
        }),
      ),
    );
    const [template, bootstrap] = out.objects as {
      kind: string;
      metadata: { name: string };
      spec: JsonObject;
    }[];
    expect(template!.kind).toBe('AWSMachineTemplate');
    expect(out.infrastructureRef.name).toBe(template!.metadata.name);
    expect(out.infrastructureRef.kind).toBe('AWSMachineTemplate');
    expect(bootstrap!.kind).toBe('KubeadmConfigTemplate');
    expect(out.bootstrap?.configRef.name).toBe(bootstrap!.metadata.name);
    expect((template!.spec.template as JsonObject).spec).toMatchObject({
      instanceType: 'm5.large',
      sshKeyName: 'ops',
    });
    // A template stamps out many machines: no providerID in it.
    expect((template!.spec.template as { spec: JsonObject }).spec.providerID).toBeUndefined();
  });
});

describe('AWSClusterProviderSpec → AWSCluster and certificate Secrets', () => {
  const out = ok(
    convertAwsCluster({
      owner: { kind: 'Cluster', name: 'prod', namespace: 'ns' },
      providerSpec: clusterSpec,
      providerSpecSource: 'spec.providerSpec.value',
    }),
  );
  it('moves networkSpec, region and sshKeyName', () => {
    expect(out.objects[0]).toEqual({
      apiVersion: 'infrastructure.cluster.x-k8s.io/v1alpha2',
      kind: 'AWSCluster',
      metadata: { name: 'prod', namespace: 'ns', labels: { 'cluster.x-k8s.io/cluster-name': 'prod' } },
      spec: { networkSpec: clusterSpec.networkSpec, region: 'eu-west-1', sshKeyName: 'ops' },
    });
  });
  it('key pairs become <cluster>-ca / -etcd Secrets with tls.crt and tls.key; an incomplete pair warns', () => {
    const secrets = out.objects.slice(1) as { metadata: { name: string }; data: JsonObject; type: string }[];
    expect(secrets.map((s) => s.metadata.name)).toEqual(['prod-ca', 'prod-etcd']);
    expect(secrets[0]!.data).toEqual({ 'tls.crt': 'Y2VydA==', 'tls.key': 'a2V5' });
    // The only warning: key pairs (and the fields the Machines take) are not "without a home".
    expect(out.warnings).toEqual([
      'frontProxyCAKeyPair needs both cert and key to become a Secret; kept only in the stash annotation',
    ]);
  });
  it('refuses a machine providerSpec on a Cluster', () => {
    const result = convertAwsCluster({
      owner: { kind: 'Cluster', name: 'prod' },
      providerSpec: machineSpec,
      providerSpecSource: 'spec.providerSpec.value',
    });
    expect(result).toEqual({
      _tag: 'Left',
      left: {
        code: 'plugin-refused',
        message: 'a Cluster needs an AWSClusterProviderSpec, not AWSMachineProviderSpec',
      },
    });
  });
});

describe('through a manifest', () => {
  it('an unknown providerSpec field is warned about and kept in the stash', () => {
    const text = `apiVersion: cluster.k8s.io/v1alpha1
kind: Machine
metadata: {name: m}
spec:
  providerSpec:
    value: {apiVersion: awsprovider.k8s.io/v1alpha1, kind: AWSMachineProviderSpec, instanceType: t3.small, spotPrice: "0.1"}
`;
    const result = convertManifest(text, { to: V1ALPHA2, plugins: [awsConversionPlugin] });
    if (result._tag === 'Left') throw new Error(result.left.map(formatConversionError).join('\n'));
    expect(result.right.report.warnings).toEqual([
      'document 1 (Machine m): spec.providerSpec.value.spotPrice has no v1alpha2 field; it is kept only in the stash annotation',
    ]);
    expect(result.right.text).toContain('"spotPrice":"0.1"');
  });
});

describe('generates', () => {
  it('names the kind of every object the hooks make (verify lists them when the plan has none)', () => {
    const made = [
      ...ok(
        convertAwsCluster({
          owner: { kind: 'Cluster', name: 'prod', namespace: 'ns' },
          providerSpec: clusterSpec,
          providerSpecSource: 'spec.providerSpec.value',
        }),
      ).objects,
      ...ok(convertAwsMachine(machineInput())).objects,
      ...ok(
        convertAwsMachineTemplate(
          machineInput({ owner: { kind: 'MachineSet', name: 'w', namespace: 'ns' }, controlPlane: false }),
        ),
      ).objects,
    ].map((o) => `${String(o.apiVersion)} ${String(o.kind)}`);
    const declared = (awsConversionPlugin.generates ?? []).map((k) => `${k.apiVersion} ${k.kind}`);
    expect(made).toContain('v1 Secret');
    expect([...new Set(made)].sort()).toEqual([...new Set(declared)].sort());
  });
});
