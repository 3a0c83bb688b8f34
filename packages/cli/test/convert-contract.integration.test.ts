import { type ControlPlane, startControlPlane } from '@capi-kit/envtest';
import { noControlPlane } from '@capi-kit/envtest/vitest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { ExitCode } from '../src/exit-codes.js';
import { runMain } from './helpers/capture-io.js';

// convert --to an older version than v1beta2 with --kubeconfig: a reference's apiVersion
// comes from the cluster.x-k8s.io/<contract> labels of its kind's CRD on a real API server,
// as Cluster API's conversion reads them (contract.GetAPIVersion).

/** A provider CRD serving `versions`, with contract labels. */
function providerCrd(
  group: string,
  kind: string,
  versions: readonly string[],
  labels: Record<string, string>,
) {
  const plural = `${kind.toLowerCase()}s`;
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `${plural}.${group}`, labels },
    spec: {
      group,
      scope: 'Namespaced',
      names: { kind, listKind: `${kind}List`, plural, singular: kind.toLowerCase() },
      versions: versions.map((name, i) => ({
        name,
        served: true,
        storage: i === versions.length - 1,
        schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } },
      })),
    },
  };
}

const manifest = `apiVersion: cluster.x-k8s.io/v1beta2
kind: Machine
metadata: {name: m-0, namespace: ns}
spec:
  clusterName: c1
  bootstrap:
    configRef: {apiGroup: bootstrap.example.com, kind: OldConfig, name: m-0}
  infrastructureRef: {apiGroup: infrastructure.example.com, kind: FooMachine, name: m-0}
---
apiVersion: cluster.x-k8s.io/v1beta2
kind: Cluster
metadata: {name: c1, namespace: ns}
spec:
  infrastructureRef: {apiGroup: infrastructure.example.com, kind: PlainCluster, name: c1}
`;

type Ref = Record<string, unknown>;
type Doc = { kind: string; spec: { infrastructureRef: Ref; bootstrap: { configRef: Ref } } };

describe.skipIf(noControlPlane('private-local'))('capi-kit convert with the contract lookup', () => {
  let plane: ControlPlane;

  beforeAll(async () => {
    plane = await startControlPlane({ backend: 'local', log: () => {} });
    await plane.installCRDs([
      providerCrd('infrastructure.example.com', 'FooMachine', ['v1beta1', 'v1beta2'], {
        'cluster.x-k8s.io/v1beta1': 'v1beta1',
        'cluster.x-k8s.io/v1beta2': 'v1beta2',
      }),
      providerCrd('bootstrap.example.com', 'OldConfig', ['v1alpha4', 'v1beta1'], {
        'cluster.x-k8s.io/v1beta1': 'v1alpha4_v1beta1',
      }),
      providerCrd('infrastructure.example.com', 'PlainCluster', ['v1'], {}),
    ]);
  });
  afterAll(async () => {
    await plane?.stop();
  });

  const convert = (...extra: string[]) =>
    runMain(['convert', '-f', '-', '--to', 'cluster.x-k8s.io/v1beta1', ...extra], manifest);
  const docs = (yaml: string): Doc[] =>
    yaml
      .split(/^---$/m)
      .filter((d) => d.trim() !== '')
      .map((d) => parse(d));

  it('fills each reference from its CRD: v1beta2 label first, else v1beta1; the newest version listed', async () => {
    const r = await convert('--kubeconfig', plane.kubeconfigPath);
    expect(r.code).toBe(ExitCode.ok);
    const [machine, cluster] = docs(r.stdout);
    expect(machine!.spec.infrastructureRef).toEqual({
      apiVersion: 'infrastructure.example.com/v1beta2',
      kind: 'FooMachine',
      name: 'm-0',
      namespace: 'ns',
    });
    expect(machine!.spec.bootstrap.configRef.apiVersion).toBe('bootstrap.example.com/v1beta1');
    // A CRD without contract labels answers nothing: kept without apiVersion, with a warning.
    expect(cluster!.spec.infrastructureRef).toEqual({ kind: 'PlainCluster', name: 'c1', namespace: 'ns' });
    expect(r.stderr).toMatch(
      /spec\.infrastructureRef: no apiVersion for infrastructure\.example\.com PlainCluster/,
    );
    expect(r.stderr).not.toMatch(/FooMachine|OldConfig/);
  });

  it('reads the CRDs as they are now: a contract label added later is used', async () => {
    await plane.installCRDs(
      providerCrd('infrastructure.example.com', 'PlainCluster', ['v1'], { 'cluster.x-k8s.io/v1beta2': 'v1' }),
    );
    const r = await convert('--kubeconfig', plane.kubeconfigPath);
    expect(r.code).toBe(ExitCode.ok);
    expect(docs(r.stdout)[1]!.spec.infrastructureRef.apiVersion).toBe('infrastructure.example.com/v1');
  });

  it('stays offline by default: references kept without apiVersion, one warning each', async () => {
    const r = await convert();
    expect(r.code).toBe(ExitCode.ok);
    const [machine] = docs(r.stdout);
    expect(machine!.spec.infrastructureRef.apiVersion).toBeUndefined();
    expect(r.stderr.match(/no contract lookup/g)).toHaveLength(3);
  });

  it('fails with exit 3 and nothing on stdout when the cluster cannot be read or the context is unknown', async () => {
    const unknownContext = await convert('--kubeconfig', plane.kubeconfigPath, '--context', 'nope');
    expect(unknownContext).toMatchObject({ code: ExitCode.cluster, stdout: '' });
    expect(unknownContext.stderr).toContain('no context "nope"');
    const missing = await convert('--kubeconfig', '/nonexistent/kubeconfig');
    expect(missing).toMatchObject({ code: ExitCode.cluster, stdout: '' });
  });
});
