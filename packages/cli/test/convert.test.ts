import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ExitCode } from '../src/exit-codes.js';
import { runMain } from './helpers/capture-io.js';

async function convert(stdin: string, ...flags: string[]) {
  return runMain(['convert', ...flags], stdin);
}

const example = (name: string) => readFileSync(new URL(`../../../examples/${name}`, import.meta.url), 'utf8');
const examplePath = (name: string) => new URL(`../../../examples/${name}`, import.meta.url).pathname;

const machine = `apiVersion: cluster.k8s.io/v1alpha1
kind: Machine
metadata:
  name: web-0
  namespace: shop
  labels: {cluster.k8s.io/cluster-name: shop}
spec:
  versions: {kubelet: v1.14.4}
  providerSpec:
    value:
      apiVersion: awsprovider/v1alpha1
      kind: AWSMachineProviderSpec
      instanceType: t3.large
      keyName: ops
`;

describe('capi-kit convert (in process)', () => {
  it('converts a file to v1alpha2 YAML on stdout, with the plug-in objects after the Machine', async () => {
    const { code, stdout, stderr } = await convert('', '-f', examplePath('aws-v1alpha1.yaml'));
    expect(code).toBe(ExitCode.ok);
    expect(stderr).toBe('');
    const kinds = [...stdout.matchAll(/^kind: (\w+)$/gm)].map((m) => m[1]);
    expect(kinds).toEqual([
      'Cluster',
      'AWSCluster',
      'MachineList',
      'AWSMachine',
      'KubeadmConfig',
      'AWSMachine',
      'KubeadmConfig',
      'MachineDeployment',
      'AWSMachineTemplate',
      'KubeadmConfigTemplate',
    ]);
    expect(stdout).toContain('apiVersion: cluster.x-k8s.io/v1alpha2');
    expect(stdout).not.toContain('cluster.k8s.io/cluster-name');
  });

  it('converts to any later version with --to, and back to the very same manifest', async () => {
    const v1alpha3 = `apiVersion: cluster.x-k8s.io/v1alpha3
kind: Machine
metadata:
  name: web-0
  namespace: shop
spec:
  clusterName: shop
  bootstrap: {data: IyEvYmluL3No}
  nodeDrainTimeout: 1m30.5s
`;
    const up = await convert(v1alpha3, '-f', '-', '--to', 'cluster.x-k8s.io/v1beta2', '-o', 'json');
    expect(up.code).toBe(ExitCode.ok);
    const machineV1beta2 = JSON.parse(up.stdout);
    expect(machineV1beta2.apiVersion).toBe('cluster.x-k8s.io/v1beta2');
    expect(machineV1beta2.spec.deletion).toEqual({ nodeDrainTimeoutSeconds: 90 });
    const down = await convert(up.stdout, '-f', '-', '--to', 'cluster.x-k8s.io/v1alpha3', '-o', 'json');
    expect(down.code).toBe(ExitCode.ok);
    expect(JSON.parse(down.stdout)).toStrictEqual({
      apiVersion: 'cluster.x-k8s.io/v1alpha3',
      kind: 'Machine',
      metadata: { name: 'web-0', namespace: 'shop' },
      spec: { clusterName: 'shop', bootstrap: { data: 'IyEvYmluL3No' }, nodeDrainTimeout: '1m30.5s' },
    });
  });

  it('a MachineHealthCheck has no v1alpha2 kind: exit 1, nothing written', async () => {
    const mhc =
      'apiVersion: cluster.x-k8s.io/v1beta1\nkind: MachineHealthCheck\nmetadata: {name: h}\nspec: {clusterName: c}\n';
    const { code, stdout, stderr } = await convert(mhc, '-f', '-');
    expect(code).toBe(ExitCode.input);
    expect(stdout).toBe('');
    expect(stderr).toContain('MachineHealthCheck exists only from cluster.x-k8s.io/v1alpha3 on');
  });

  it('reads stdin with -f - and writes JSON with -o json', async () => {
    const { code, stdout } = await convert(machine, '-f', '-', '-o', 'json');
    expect(code).toBe(ExitCode.ok);
    const list = JSON.parse(stdout);
    expect(list.kind).toBe('List');
    expect(list.items.map((i: { kind: string }) => i.kind)).toEqual([
      'Machine',
      'AWSMachine',
      'KubeadmConfig',
    ]);
    expect(list.items[1].spec).toEqual({ instanceType: 't3.large', sshKeyName: 'ops' });
  });

  it('converts back with --to cluster.k8s.io/v1alpha1, restoring the input', async () => {
    const up = await convert(machine, '-f', '-', '-o', 'json');
    const down = await convert(up.stdout, '-f', '-', '--to', 'cluster.k8s.io/v1alpha1', '-o', 'json');
    expect(down.code).toBe(ExitCode.ok);
    const [restored] = JSON.parse(down.stdout).items;
    expect(restored).toEqual({
      apiVersion: 'cluster.k8s.io/v1alpha1',
      kind: 'Machine',
      metadata: { name: 'web-0', namespace: 'shop', labels: { 'cluster.k8s.io/cluster-name': 'shop' } },
      spec: {
        versions: { kubelet: 'v1.14.4' },
        providerSpec: {
          value: {
            apiVersion: 'awsprovider/v1alpha1',
            kind: 'AWSMachineProviderSpec',
            instanceType: 't3.large',
            keyName: 'ops',
          },
        },
      },
    });
  });

  it('prints warnings on stderr and still converts', async () => {
    const { code, stdout, stderr } = await convert(example('vsphere-v1alpha1.yaml'), '-f', '-');
    expect(code).toBe(ExitCode.ok);
    expect(stdout).toContain('kind: VSphereMachine');
    expect(stderr).toContain(
      'capi-kit convert: warning: document 1 (Cluster default/lab): username went into Secret default/lab-vsphere-credentials only for the way back: no v1alpha2 object reads it',
    );
  });

  it('writes the report to a file, as JSON for a .json name', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'capi-kit-convert-'));
    const file = join(dir, 'report.json');
    const { code } = await convert(example('machineclass-v1alpha1.yaml'), '-f', '-', '--report', file);
    expect(code).toBe(ExitCode.ok);
    const report = JSON.parse(readFileSync(file, 'utf8'));
    expect(report.to).toBe('cluster.x-k8s.io/v1alpha2');
    expect(report.documents[0].objects[0]).toMatchObject({ kind: 'MachineClass', action: 'removed' });
  });

  it('writes the report as text to a file whose name does not end in .json', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'capi-kit-convert-'));
    const file = join(dir, 'report.txt');
    const { code, stdout } = await convert(machine, '-f', '-', '--report', file);
    expect(code).toBe(ExitCode.ok);
    expect(stdout).toContain('kind: AWSMachine');
    const text = readFileSync(file, 'utf8');
    expect(text).toContain(
      'document 1: Machine shop/web-0: converted (cluster.k8s.io/v1alpha1 -> cluster.x-k8s.io/v1alpha2)',
    );
    expect(() => JSON.parse(text)).toThrow();
  });

  it('a report that cannot be written: exit 1, the reason, and no manifest on stdout', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'capi-kit-convert-'));
    const file = join(dir, 'no-such-dir', 'report.json');
    const { code, stdout, stderr } = await convert(machine, '-f', '-', '--report', file);
    expect(code).toBe(ExitCode.input);
    expect(stdout).toBe('');
    expect(stderr).toBe(`capi-kit convert: cannot write report ${file}: ENOENT; nothing written\n`);
  });

  it('--report - writes the report on stderr', async () => {
    const { code, stderr } = await convert(machine, '-f', '-', '--report', '-');
    expect(code).toBe(ExitCode.ok);
    expect(stderr).toContain(
      'document 1: Machine shop/web-0: converted (cluster.k8s.io/v1alpha1 -> cluster.x-k8s.io/v1alpha2)',
    );
    expect(stderr).toContain(
      'moved   spec.providerSpec.value.keyName -> AWSMachine shop/web-0 spec.sshKeyName',
    );
    expect(stderr).toContain('stashed spec.providerSpec.value');
  });

  it('on a failing document: the error on stderr, nothing on stdout, exit 1', async () => {
    const bad = machine.replace('awsprovider/v1alpha1', 'gceproviderconfig/v1alpha1');
    const { code, stdout, stderr } = await convert(
      `${machine}---\n${bad.replace('web-0', 'web-1')}`,
      '-f',
      '-',
    );
    expect(code).toBe(ExitCode.input);
    expect(stdout).toBe('');
    expect(stderr).toBe(
      'capi-kit convert: <stdin>: document 2 (Machine shop/web-1, line 16): spec.providerSpec.value: no conversion plug-in handles providerSpec apiVersion "gceproviderconfig/v1alpha1" kind "AWSMachineProviderSpec" (loaded: aws, vsphere)\n' +
        'capi-kit convert: 1 error; nothing written\n',
    );
  });

  it('malformed YAML is an input error', async () => {
    const { code, stdout, stderr } = await convert('kind: [Machine\n', '-f', '-');
    expect(code).toBe(ExitCode.input);
    expect(stdout).toBe('');
    expect(stderr).toMatch(/^capi-kit convert: <stdin>: document 1: line \d+, column \d+: /);
  });

  it('a missing file is an input error', async () => {
    const { code, stderr } = await convert('', '-f', '/nonexistent/x.yaml');
    expect(code).toBe(ExitCode.input);
    expect(stderr).toContain('cannot read /nonexistent/x.yaml: no such file');
  });

  it.each([
    [
      ['-f', '-', '--to', 'v1alpha3'],
      '--to must be one of cluster.k8s.io/v1alpha1, cluster.x-k8s.io/v1alpha2, cluster.x-k8s.io/v1alpha3, cluster.x-k8s.io/v1alpha4, cluster.x-k8s.io/v1beta1, cluster.x-k8s.io/v1beta2',
    ],
    [['-f', '-', '-o', 'xml'], '-o must be one of yaml, json'],
    [[], 'missing -f FILE'],
    [['-f', '-', 'extra'], "unexpected argument 'extra'"],
  ])('usage error %j', async (flags, message) => {
    const { code, stdout, stderr } = await convert(machine, ...flags);
    expect(code).toBe(ExitCode.usage);
    expect(stdout).toBe('');
    expect(stderr).toContain(message);
  });
});

describe('capi-kit convert: a hostile conversion stash (issue #12)', () => {
  const hostile = (patch: unknown) => `apiVersion: cluster.x-k8s.io/v1alpha2
kind: Machine
metadata:
  name: web-0
  namespace: shop
  annotations:
    conversion.capi-kit.dev/data: '${JSON.stringify({ restores: 'cluster.k8s.io/v1alpha1', patch })}'
spec:
  bootstrap: {configRef: {apiVersion: bootstrap.cluster.x-k8s.io/v1alpha2, kind: KubeadmConfig, name: web-0}}
  infrastructureRef: {apiVersion: infrastructure.cluster.x-k8s.io/v1alpha2, kind: AWSMachine, name: web-0}
`;
  it('refuses a stash that turns the Machine into a ClusterRoleBinding: exit 1, document and path named, no stdout', async () => {
    const { code, stdout, stderr } = await convert(
      hostile([
        { p: ['kind'], v: 'ClusterRoleBinding', b: 'Machine' },
        { p: ['roleRef'], v: { kind: 'ClusterRole', name: 'cluster-admin' } },
      ]),
      '-f',
      '-',
      '--to',
      'cluster.k8s.io/v1alpha1',
    );
    expect(code).toBe(ExitCode.input);
    expect(stdout).toBe('');
    expect(stderr).toContain('document 1 (Machine shop/web-0, line 1): kind: conversion stash');
    expect(stderr).toContain('refused');
  });
});

describe('capi-kit convert: what clusterctl v0.1 / CAPA v0.3 manifests hold (issue #12)', () => {
  it('names a Machine with only generateName, and its generated objects, and says so on stderr', async () => {
    const worker = machine.replace('  name: web-0\n', '  generateName: web-\n');
    const { code, stdout, stderr } = await convert(worker, '-f', '-');
    expect(code).toBe(ExitCode.ok);
    const names = [...stdout.matchAll(/^ {2}name: (\S+)$/gm)].map((m) => m[1]);
    expect(names).toHaveLength(3);
    expect(names[0]).toMatch(/^web-[0-9a-f]{8}$/);
    expect(new Set(names)).toEqual(new Set([names[0]]));
    expect(stdout.match(new RegExp(`^ {4,6}name: ${names[0]}$`, 'gm'))).toHaveLength(2);
    expect(stderr).toContain(`generateName "web-": named "${names[0]}"`);
  });
});

describe('capi-kit convert refuses what validate refuses (issue #12)', () => {
  for (const [what, text, where] of [
    ['a List whose items is not a list', 'apiVersion: v1\nkind: List\nitems: {a: 1}\n', 'items:'],
    ['a boolean name', machine.replace('name: web-0', 'name: true'), 'metadata.name:'],
    ['a label that is not a string', machine.replace('labels: {', 'labels: {x: 1, '), 'metadata.labels.x:'],
  ] as const) {
    it(`${what}: exit 1, the document and path named, nothing on stdout`, async () => {
      const { code, stdout, stderr } = await convert(text, '-f', '-');
      expect(code).toBe(ExitCode.input);
      expect(stdout).toBe('');
      expect(stderr).toMatch(new RegExp(`document 1 .*${where.replace('.', '\\.')}`));
    });
  }
});

describe('capi-kit convert keeps private keys out of the stash annotation', () => {
  const key = Buffer.from('-----BEGIN RSA PRIVATE KEY----- secret').toString('base64');
  const cert = Buffer.from('-----BEGIN CERTIFICATE----- public').toString('base64');
  const cluster = `apiVersion: cluster.k8s.io/v1alpha1
kind: Cluster
metadata: {name: shop, namespace: shop}
spec:
  providerSpec:
    value:
      apiVersion: awsprovider/v1alpha1
      kind: AWSClusterProviderSpec
      region: eu-west-1
      caKeyPair: {cert: ${cert}, key: ${key}}
`;

  it('writes the key only into the Secret, and reads it back from there going down', async () => {
    const up = await convert(cluster, '-f', '-');
    expect(up.code).toBe(ExitCode.ok);
    const [clusterDoc, ...rest] = up.stdout.split(/^---$/m);
    expect(clusterDoc).toContain('conversion.capi-kit.dev/data');
    expect(clusterDoc).not.toContain(key);
    expect(rest.join('---')).toContain(`tls.key: ${key}`);
    const down = await convert(up.stdout, '-f', '-', '--to', 'cluster.k8s.io/v1alpha1');
    expect(down.code).toBe(ExitCode.ok);
    expect(down.stdout).toContain(`key: ${key}`);
  });

  it('converting the Cluster down without its Secret fails, naming the Secret, with nothing on stdout', async () => {
    const up = await convert(cluster, '-f', '-');
    const [clusterDoc] = up.stdout.split(/^---$/m);
    const down = await convert(clusterDoc!, '-f', '-', '--to', 'cluster.k8s.io/v1alpha1');
    expect(down.code).toBe(ExitCode.input);
    expect(down.stdout).toBe('');
    expect(down.stderr).toContain(
      'spec.providerSpec.value.caKeyPair: the private key is kept in Secret shop/shop-ca',
    );
  });
});

describe('capi-kit convert keeps vCenter credentials out of the stash annotation', () => {
  const password = 'Tr0ub4dor&3 vCenter';
  const cluster = `apiVersion: cluster.k8s.io/v1alpha1
kind: Cluster
metadata: {name: lab, namespace: vs}
spec:
  providerSpec:
    value:
      apiVersion: vsphere.cluster.k8s.io/v1alpha1
      kind: VsphereClusterProviderSpec
      server: vc.example.com
      username: administrator@vsphere.local
      password: '${password}'
`;
  const encoded = Buffer.from(password).toString('base64');

  it('writes them only into the Secret, as base64, and reads them back from there going down', async () => {
    const up = await convert(cluster, '-f', '-');
    expect(up.code).toBe(ExitCode.ok);
    const [clusterDoc, ...rest] = up.stdout.split(/^---$/m);
    expect(clusterDoc).toContain('conversion.capi-kit.dev/data');
    expect(clusterDoc).not.toContain(password);
    expect(clusterDoc).not.toContain('administrator');
    expect(rest.join('---')).toContain(`password: ${encoded}`);
    expect(rest.join('---')).not.toContain(password);
    const down = await convert(up.stdout, '-f', '-', '--to', 'cluster.k8s.io/v1alpha1');
    expect(down.code).toBe(ExitCode.ok);
    expect(down.stdout).toContain(`password: ${password}`);
  });

  it('converting the Cluster down without its Secret fails, naming the Secret, with nothing on stdout', async () => {
    const up = await convert(cluster, '-f', '-');
    const [clusterDoc] = up.stdout.split(/^---$/m);
    const down = await convert(clusterDoc!, '-f', '-', '--to', 'cluster.k8s.io/v1alpha1');
    expect(down.code).toBe(ExitCode.input);
    expect(down.stdout).toBe('');
    expect(down.stderr).toContain(
      'spec.providerSpec.value.username: the value is kept in Secret vs/lab-vsphere-credentials (username)',
    );
  });
});
