import { describe, expect, it } from 'vitest';
import { ExitCode } from '../src/exit-codes.js';
import { runMain } from './helpers/capture-io.js';

// validate and phase on cluster.x-k8s.io v1alpha3 to v1beta2 objects.

const v1beta2Machine = (name: string, status: string) => `apiVersion: cluster.x-k8s.io/v1beta2
kind: Machine
metadata: {name: ${name}, namespace: ns}
spec:
  clusterName: c1
  bootstrap: {dataSecretName: ${name}-bootstrap}
  infrastructureRef: {apiGroup: infrastructure.cluster.x-k8s.io, kind: DockerMachine, name: ${name}}
  providerID: docker:////${name}
status: ${status}
`;

const v1alpha3Machine = `apiVersion: cluster.x-k8s.io/v1alpha3
kind: Machine
metadata: {name: old, namespace: ns}
spec:
  clusterName: c1
  bootstrap: {dataSecretName: old-bootstrap}
  infrastructureRef: {kind: AWSMachine, name: old}
  providerID: aws:///a/i-1
status: {phase: Provisioning, infrastructureReady: true, failureReason: CreateError}
`;

const v1beta1Cluster = `apiVersion: cluster.x-k8s.io/v1beta1
kind: Cluster
metadata: {name: c1, namespace: ns}
spec:
  controlPlaneRef: {kind: KubeadmControlPlane, name: c1}
status: {phase: Pending}
`;

const classAndPool = `apiVersion: cluster.x-k8s.io/v1beta1
kind: ClusterClass
metadata: {name: quick-start}
spec: {}
---
apiVersion: cluster.x-k8s.io/v1beta2
kind: MachinePool
metadata: {name: pool}
spec: {}
`;

/** `capi-kit phase --json` on a manifest: its lines, parsed (exit 0 expected). */
async function phaseLines(manifest: string): Promise<Array<Record<string, string>>> {
  const r = await runMain(['phase', '-f', '-', '--json'], manifest);
  expect(r.code).toBe(ExitCode.ok);
  return r.stdout
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line));
}

describe('capi-kit phase on later versions', () => {
  it("uses each version's rules: Updating in v1beta2, Failed in v1alpha3, controlPlaneRef in v1beta1", async () => {
    const manifest = [
      v1beta2Machine(
        'updating',
        "{phase: Running, initialization: {infrastructureProvisioned: true}, nodeRef: {name: n1}, conditions: [{type: Updating, status: 'True', reason: InPlaceUpdate, message: '', lastTransitionTime: '2026-01-01T00:00:00Z'}]}",
      ),
      v1alpha3Machine,
      v1beta1Cluster,
    ].join('---\n');
    expect(await phaseLines(manifest)).toEqual([
      { kind: 'Machine', name: 'updating', namespace: 'ns', phase: 'Updating' },
      { kind: 'Machine', name: 'old', namespace: 'ns', phase: 'Failed' },
      { kind: 'Cluster', name: 'c1', namespace: 'ns', phase: 'Provisioning' },
    ]);
  });

  it('keeps the stored phase of paused objects: the annotation, spec.paused, or a paused Cluster in the manifest', async () => {
    // Ready with a Node, so the rules would write Running; paused, the stored phase stands.
    const machine = (name: string, cluster: string, annotations = '{}') =>
      v1beta2Machine(
        name,
        '{phase: Provisioned, initialization: {infrastructureProvisioned: true}, nodeRef: {name: n1}}',
      )
        .replace('clusterName: c1', `clusterName: ${cluster}`)
        .replace(
          `metadata: {name: ${name}, namespace: ns}`,
          `metadata: {name: ${name}, namespace: ns, annotations: ${annotations}}`,
        );
    const cluster = (name: string, paused: boolean) => `apiVersion: cluster.x-k8s.io/v1beta2
kind: ClusterList
items:
- metadata: {name: ${name}, namespace: ns}
  spec: {paused: ${paused}, infrastructureRef: {apiGroup: g, kind: K, name: i}}
  status: {phase: Pending}
`;
    const manifest = [
      machine('free', 'running'),
      machine('annotated', 'running', "{cluster.x-k8s.io/paused: ''}"),
      machine('in-paused', 'held'),
      cluster('running', false),
      cluster('held', true),
    ].join('---\n');
    expect((await phaseLines(manifest)).map((line) => line.phase)).toEqual([
      'Running',
      'Provisioned',
      'Provisioned',
      'Provisioning',
      'Pending',
    ]);
  });

  it('rejects an invalid v1beta2 Machine with the JSON path, printing nothing', async () => {
    const r = await runMain(['phase', '-f', '-'], v1beta2Machine('bad', '{phase: Broken}'));
    expect(r.code).toBe(ExitCode.input);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('status.phase');
  });
});

describe('capi-kit validate on later versions', () => {
  it('accepts valid objects of every later version', async () => {
    const r = await runMain(
      ['validate', '-f', '-'],
      [v1beta2Machine('ok', '{phase: Running}'), v1alpha3Machine, v1beta1Cluster].join('---\n'),
    );
    expect(r.stderr).not.toContain('error');
    expect(r.code).toBe(ExitCode.ok);
  });

  it('reports CRD constraints of v1beta2: empty status, duplicate list-map keys', async () => {
    const duplicate = v1beta2Machine('dup', '{}').replace(
      '  providerID:',
      '  readinessGates: [{conditionType: A}, {conditionType: A}]\n  providerID:',
    );
    const r = await runMain(['validate', '-f', '-'], duplicate);
    expect(r.code).toBe(ExitCode.input);
    expect(r.stdout).toContain('spec.readinessGates[1]');
    expect(r.stdout).toContain('status');
  });

  it('skips ClusterClass and MachinePool as kinds no package types (and fails on them with --strict)', async () => {
    const lenient = await runMain(['validate', '-f', '-'], classAndPool);
    expect(lenient.code).toBe(ExitCode.ok);
    expect(lenient.stderr).toContain('ClusterClass');
    expect(lenient.stderr).toContain('MachinePool');
    const strict = await runMain(['validate', '-f', '-', '--strict'], classAndPool);
    expect(strict.code).toBe(ExitCode.input);
  });
});
