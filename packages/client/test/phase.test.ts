import type { LaterPhaseContext } from '@capi-kit/core/phases';
import { describe, expect, it } from 'vitest';
import { phaseOf as readPhase } from '../src/phase.js';

/** phaseOf on plain parsed JSON, as a caller holding served objects has it. */
const phaseOf = (object: object, context?: LaterPhaseContext) => readPhase(object as never, context);

// phaseOf reads each version with core's rules: computed from the object for Machines and
// Clusters (a phase the controller has not written yet shows), stored while paused and for
// MachineDeployments (whose phase upstream derives from their MachineSets).

const ready = {
  v1beta1: { phase: 'Provisioned', infrastructureReady: true, nodeRef: { kind: 'Node', name: 'n' } },
  v1beta2: {
    phase: 'Provisioned',
    initialization: { infrastructureProvisioned: true },
    nodeRef: { name: 'n' },
  },
};

describe('phaseOf on cluster.x-k8s.io v1alpha3 to v1beta2', () => {
  it.each([
    ['v1alpha3', ready.v1beta1],
    ['v1alpha4', ready.v1beta1],
    ['v1beta1', ready.v1beta1],
    ['v1beta2', ready.v1beta2],
  ])('%s Machine: computed, not stored; stored while paused', (version, status) => {
    const machine = {
      apiVersion: `cluster.x-k8s.io/${version}`,
      kind: 'Machine',
      metadata: { name: 'm' },
      spec: { providerID: 'p' },
      status,
    };
    expect(phaseOf(machine)).toBe('Running');
    expect(phaseOf(machine, { clusterPaused: true })).toBe('Provisioned');
    expect(phaseOf({ ...machine, metadata: { annotations: { 'cluster.x-k8s.io/paused': 'true' } } })).toBe(
      'Provisioned',
    );
  });

  it('v1beta2 Machine: Updating from the condition; never Failed', () => {
    const machine = {
      apiVersion: 'cluster.x-k8s.io/v1beta2',
      kind: 'Machine',
      spec: { providerID: 'p' },
      status: { ...ready.v1beta2, conditions: [{ type: 'Updating', status: 'True' }] },
    };
    expect(phaseOf(machine)).toBe('Updating');
    const failedV1beta1 = {
      apiVersion: 'cluster.x-k8s.io/v1beta1',
      kind: 'Machine',
      spec: { providerID: 'p' },
      status: { ...ready.v1beta1, failureReason: 'x' },
    };
    expect(phaseOf(failedV1beta1)).toBe('Failed');
    expect(
      phaseOf({ ...machine, status: { ...ready.v1beta2, deprecated: { v1beta1: { failureReason: 'x' } } } }),
    ).toBe('Running');
  });

  it('Cluster: the version decides whether a controlPlaneRef alone provisions; spec.paused keeps the stored phase', () => {
    const cluster = (version: string, spec: object) => ({
      apiVersion: `cluster.x-k8s.io/${version}`,
      kind: 'Cluster',
      spec,
      status: { phase: 'Pending' },
    });
    const ref = { kind: 'KubeadmControlPlane', name: 'cp', apiGroup: 'controlplane.cluster.x-k8s.io' };
    expect(phaseOf(cluster('v1alpha4', { controlPlaneRef: ref }))).toBe('Pending');
    expect(phaseOf(cluster('v1beta1', { controlPlaneRef: ref }))).toBe('Provisioning');
    expect(phaseOf(cluster('v1beta2', { controlPlaneRef: ref }))).toBe('Provisioning');
    expect(phaseOf(cluster('v1beta2', { controlPlaneRef: ref, paused: true }))).toBe('Pending');
  });

  it('MachineDeployment: the stored phase; other kinds and versions unknown', () => {
    expect(
      phaseOf({
        apiVersion: 'cluster.x-k8s.io/v1beta2',
        kind: 'MachineDeployment',
        status: { phase: 'ScalingUp' },
      }),
    ).toBe('ScalingUp');
    expect(phaseOf({ apiVersion: 'cluster.x-k8s.io/v1beta2', kind: 'MachineSet' })).toBe('');
    expect(phaseOf({ apiVersion: 'cluster.x-k8s.io/v9', kind: 'Machine' })).toBe('');
  });
});
