import { join } from 'node:path';
import { CustomObjectsApi } from '@kubernetes/client-node';
import { beforeAll, describe, expect, it } from 'vitest';
import type { InstalledCrd } from '../src/index.js';
import { noControlPlane, useControlPlane } from '../src/vitest/index.js';

// The Cluster API CRDs of the v1alpha1 (v0.1.10) and v1alpha2 (v0.2.11) releases are
// apiextensions.k8s.io/v1beta1 manifests; installCRDs converts them to v1.
const crdRoot = join(import.meta.dirname, '../../../testdata/crds');

const cp = useControlPlane();

type Obj = Record<string, unknown> & { metadata: { name: string; labels?: Record<string, string> } };

const providerSpec = {
  value: {
    apiVersion: 'awsprovider/v1alpha1',
    kind: 'AWSMachineProviderSpec',
    instanceType: 't3.large',
    nested: { deep: ['a', { b: 1 }] },
  },
};
const selector = { matchLabels: { set: 'a' } };
const v1alpha1Objects: Record<string, Obj> = {
  clusters: {
    kind: 'Cluster',
    metadata: { name: 'c1' },
    spec: {
      clusterNetwork: {
        services: { cidrBlocks: ['10.96.0.0/12'] },
        pods: { cidrBlocks: ['192.168.0.0/16'] },
        serviceDomain: 'cluster.local',
      },
      providerSpec,
    },
  },
  machines: {
    kind: 'Machine',
    metadata: { name: 'm1', labels: { set: 'a' } },
    spec: {
      providerSpec,
      versions: { kubelet: '1.15.3', controlPlane: '1.15.3' },
      providerID: 'aws:///us-east-1a/i-0123',
    },
  },
  machinesets: {
    kind: 'MachineSet',
    metadata: { name: 'ms1' },
    spec: { replicas: 2, selector, template: { metadata: { labels: { set: 'a' } }, spec: { providerSpec } } },
  },
  machinedeployments: {
    kind: 'MachineDeployment',
    metadata: { name: 'md1' },
    spec: {
      replicas: 3,
      selector,
      strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1, maxUnavailable: '25%' } },
      template: { metadata: { labels: { set: 'a' } }, spec: { providerSpec } },
    },
  },
  machineclasses: {
    kind: 'MachineClass',
    metadata: { name: 'mc1' },
    providerSpec: { instanceType: 'm5.xlarge', keyName: 'k' },
  },
};

const bootstrap = {
  configRef: { apiVersion: 'bootstrap.cluster.x-k8s.io/v1alpha2', kind: 'KubeadmConfig', name: 'b' },
};
const infrastructureRef = {
  apiVersion: 'infrastructure.cluster.x-k8s.io/v1alpha2',
  kind: 'AWSMachine',
  name: 'i',
};
const v1alpha2Objects: Record<string, Obj> = {
  clusters: {
    kind: 'Cluster',
    metadata: { name: 'c2' },
    spec: {
      clusterNetwork: {
        services: { cidrBlocks: ['10.96.0.0/12'] },
        pods: { cidrBlocks: ['192.168.0.0/16'] },
      },
      infrastructureRef: {
        apiVersion: 'infrastructure.cluster.x-k8s.io/v1alpha2',
        kind: 'AWSCluster',
        name: 'c2',
      },
    },
  },
  machines: {
    kind: 'Machine',
    metadata: { name: 'm2' },
    spec: { bootstrap, infrastructureRef, version: 'v1.16.2', providerID: 'aws:///us-east-1a/i-0456' },
  },
  machinesets: {
    kind: 'MachineSet',
    metadata: { name: 'ms2' },
    spec: {
      replicas: 1,
      selector,
      template: { metadata: { labels: { set: 'a' } }, spec: { bootstrap, infrastructureRef } },
    },
  },
  machinedeployments: {
    kind: 'MachineDeployment',
    metadata: { name: 'md2' },
    spec: {
      replicas: 1,
      selector,
      strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: '50%', maxUnavailable: 0 } },
      template: { metadata: { labels: { set: 'a' } }, spec: { bootstrap, infrastructureRef } },
    },
  },
};

describe.skipIf(noControlPlane())('Cluster API CRDs (v1beta1 manifests) on a real apiserver', () => {
  let installed: InstalledCrd[] = [];
  beforeAll(async () => {
    installed = [
      ...(await cp.installCRDs(join(crdRoot, 'v1alpha1'))),
      ...(await cp.installCRDs(join(crdRoot, 'v1alpha2'))),
    ];
  });

  it('installs all nine CRDs as established apiextensions.k8s.io/v1', () => {
    expect(installed.map((c) => c.name).sort()).toEqual([
      'clusters.cluster.k8s.io',
      'clusters.cluster.x-k8s.io',
      'machineclasses.cluster.k8s.io',
      'machinedeployments.cluster.k8s.io',
      'machinedeployments.cluster.x-k8s.io',
      'machines.cluster.k8s.io',
      'machines.cluster.x-k8s.io',
      'machinesets.cluster.k8s.io',
      'machinesets.cluster.x-k8s.io',
    ]);
    for (const crd of installed) {
      expect(crd.crd.apiVersion).toBe('apiextensions.k8s.io/v1');
      expect(crd.changes.length).toBeGreaterThan(0);
    }
  });

  for (const [group, version, objects] of [
    ['cluster.k8s.io', 'v1alpha1', v1alpha1Objects],
    ['cluster.x-k8s.io', 'v1alpha2', v1alpha2Objects],
  ] as const) {
    for (const [plural, object] of Object.entries(objects)) {
      it(`creates and reads back a ${group}/${version} ${object.kind}`, async () => {
        const api = cp.kubeConfig.makeApiClient(CustomObjectsApi);
        const body = { apiVersion: `${group}/${version}`, ...object };
        const namespace = cp.namespace;
        await api.createNamespacedCustomObject({ group, version, namespace, plural, body });
        const read = (await api.getNamespacedCustomObject({
          group,
          version,
          namespace,
          plural,
          name: object.metadata.name,
        })) as Obj;
        expect(read.kind).toBe(object.kind);
        expect(read.apiVersion).toBe(`${group}/${version}`);
        const { metadata: _sent, kind: _k, ...sentRest } = object;
        const { metadata, kind: _rk, apiVersion: _av, ...readRest } = read;
        // Everything sent comes back unchanged, including the untyped providerSpec values
        // that v1beta1 preserved and int-or-string fields.
        expect(readRest).toEqual(sentRest);
        expect((metadata as { labels?: unknown }).labels).toEqual(object.metadata.labels);
      });
    }
  }

  it("installs the providers' v1beta1 CRDs of the same era too", async () => {
    // Not the v0.2.11 deprecated copy of v1alpha1: it has the same names as the v0.1.10
    // CRDs the other tests use, and would replace them.
    const dirs = [
      'providers/aws/v1alpha1',
      'providers/aws/v1alpha2',
      'providers/vsphere/v1alpha1/vsphere-v0.4.2',
      'providers/vsphere/v1alpha1/vsphereproviderconfig-v0.3.0',
      'providers/vsphere/v1alpha2',
      'providers/kubeadm-bootstrap/v1alpha2',
    ];
    const providers = await cp.installCRDs(dirs.map((d) => join(crdRoot, d)));
    expect(providers.length).toBeGreaterThanOrEqual(20);
    expect(providers.map((c) => c.name)).toContain('awsmachines.infrastructure.cluster.x-k8s.io');
    expect(providers.map((c) => c.name)).toContain('kubeadmconfigs.bootstrap.cluster.x-k8s.io');
    const api = cp.kubeConfig.makeApiClient(CustomObjectsApi);
    const created = (await api.createNamespacedCustomObject({
      group: 'infrastructure.cluster.x-k8s.io',
      version: 'v1alpha2',
      namespace: cp.namespace,
      plural: 'awsmachines',
      body: {
        apiVersion: 'infrastructure.cluster.x-k8s.io/v1alpha2',
        kind: 'AWSMachine',
        metadata: { name: 'i' },
        spec: { instanceType: 't3.large', iamInstanceProfile: 'nodes', sshKeyName: 'default' },
      },
    })) as { spec: Record<string, unknown> };
    expect(created.spec).toMatchObject({ instanceType: 't3.large', sshKeyName: 'default' });
  });

  it('keeps v1beta1 semantics for unknown fields: kept in v1alpha1, pruned in v1alpha2', async () => {
    const api = cp.kubeConfig.makeApiClient(CustomObjectsApi);
    const namespace = cp.namespace;
    const v1 = (await api.createNamespacedCustomObject({
      group: 'cluster.k8s.io',
      version: 'v1alpha1',
      namespace,
      plural: 'machineclasses',
      body: {
        apiVersion: 'cluster.k8s.io/v1alpha1',
        kind: 'MachineClass',
        metadata: { name: 'unknown-fields' },
        providerSpec: {},
        notInSchema: { kept: true },
      },
    })) as Record<string, unknown>;
    expect(v1.notInSchema).toEqual({ kept: true });

    const v2 = (await api.createNamespacedCustomObject({
      group: 'cluster.x-k8s.io',
      version: 'v1alpha2',
      namespace,
      plural: 'machines',
      body: {
        apiVersion: 'cluster.x-k8s.io/v1alpha2',
        kind: 'Machine',
        metadata: { name: 'unknown-fields' },
        spec: { bootstrap, infrastructureRef, notInSchema: 'dropped' },
      },
    })) as { spec: Record<string, unknown> };
    expect(v2.spec).not.toHaveProperty('notInSchema');
    expect(v2.spec.bootstrap).toEqual(bootstrap);
  });

  it('serves the status and scale subresources the manifests declare', async () => {
    const api = cp.kubeConfig.makeApiClient(CustomObjectsApi);
    const namespace = cp.namespace;
    const scale = (await api.getNamespacedCustomObjectScale({
      group: 'cluster.k8s.io',
      version: 'v1alpha1',
      namespace,
      plural: 'machinedeployments',
      name: 'md1',
    })) as { spec: { replicas: number } };
    expect(scale.spec.replicas).toBe(3);

    const machine = (await api.getNamespacedCustomObject({
      group: 'cluster.x-k8s.io',
      version: 'v1alpha2',
      namespace,
      plural: 'machines',
      name: 'm2',
    })) as Obj;
    const updated = (await api.replaceNamespacedCustomObjectStatus({
      group: 'cluster.x-k8s.io',
      version: 'v1alpha2',
      namespace,
      plural: 'machines',
      name: 'm2',
      body: { ...machine, status: { phase: 'Running', bootstrapReady: true } },
    })) as { status: Record<string, unknown> };
    expect(updated.status).toMatchObject({ phase: 'Running', bootstrapReady: true });
  });
});
