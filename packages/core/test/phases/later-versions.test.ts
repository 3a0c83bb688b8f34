import { describe, expect, it } from 'vitest';
import {
  explainLaterMachinePhase,
  isLaterClusterPaused,
  type LaterVersion,
  laterClusterPhase,
  laterClusterPhaseRules,
  laterMachinePhase,
  laterMachinePhaseRules,
} from '../../src/phases/index.js';

// The capitalised phases of v1alpha3 to v1beta2, one row per situation and version. Each
// expected value follows the reconcilePhase of the release named in the rule module
// (v0.3.25, v0.4.8, v1.10.10, v1.14.0); where versions differ, the row says why.

const deleted = { deletionTimestamp: '2026-01-01T00:00:00Z' };
const versions: readonly LaterVersion[] = ['v1alpha3', 'v1alpha4', 'v1beta1', 'v1beta2'];

/** A Machine of v1alpha3–v1beta1 shape (pointers, ObjectReference nodeRef, ready flags). */
const oldMachine = (spec: object, status: object, metadata: object = {}) => ({ metadata, spec, status });
/** A v1beta2 Machine (initialization, values, metav1 conditions). */
const newMachine = oldMachine;

describe('Machine phase by version', () => {
  const rows: Array<{
    what: string;
    old: ReturnType<typeof oldMachine>;
    v1beta2: ReturnType<typeof newMachine>;
    expected: Record<LaterVersion, string>;
  }> = [
    {
      what: 'a new Machine',
      old: oldMachine({}, {}),
      v1beta2: newMachine({}, {}),
      expected: { v1alpha3: 'Pending', v1alpha4: 'Pending', v1beta1: 'Pending', v1beta2: 'Pending' },
    },
    {
      what: 'bootstrap data secret named, infrastructure not ready',
      old: oldMachine({ bootstrap: { dataSecretName: 's' } }, { phase: 'Pending' }),
      v1beta2: newMachine({ bootstrap: { dataSecretName: 's' } }, { phase: 'Pending' }),
      expected: {
        v1alpha3: 'Provisioning',
        v1alpha4: 'Provisioning',
        v1beta1: 'Provisioning',
        v1beta2: 'Provisioning',
      },
    },
    {
      // v1alpha3 keys Provisioned on nodeRef; v1alpha4+ on providerID.
      what: 'providerID set, no nodeRef yet',
      old: oldMachine({ providerID: 'aws:///a/i-1' }, { phase: 'Provisioning', infrastructureReady: true }),
      v1beta2: newMachine(
        { providerID: 'aws:///a/i-1' },
        { phase: 'Provisioning', initialization: { infrastructureProvisioned: true } },
      ),
      expected: {
        v1alpha3: 'Provisioning',
        v1alpha4: 'Provisioned',
        v1beta1: 'Provisioned',
        v1beta2: 'Provisioned',
      },
    },
    {
      // An empty providerID is a set pointer in v1alpha4/v1beta1, but not "defined" in v1beta2.
      what: 'providerID is the empty string',
      old: oldMachine({ providerID: '' }, { phase: 'Pending' }),
      v1beta2: newMachine({ providerID: '' }, { phase: 'Pending' }),
      expected: { v1alpha3: 'Pending', v1alpha4: 'Provisioned', v1beta1: 'Provisioned', v1beta2: 'Pending' },
    },
    {
      what: 'nodeRef and infrastructure ready',
      old: oldMachine(
        { providerID: 'p' },
        { phase: 'Provisioned', infrastructureReady: true, nodeRef: { kind: 'Node', name: 'n' } },
      ),
      v1beta2: newMachine(
        { providerID: 'p' },
        { phase: 'Provisioned', initialization: { infrastructureProvisioned: true }, nodeRef: { name: 'n' } },
      ),
      expected: { v1alpha3: 'Running', v1alpha4: 'Running', v1beta1: 'Running', v1beta2: 'Running' },
    },
    {
      // v1beta2 has no Failed rule: a terminal failure is no longer a phase.
      what: 'running, then a failure message',
      old: oldMachine(
        { providerID: 'p' },
        { phase: 'Running', infrastructureReady: true, nodeRef: { name: 'n' }, failureMessage: 'boom' },
      ),
      v1beta2: newMachine(
        { providerID: 'p' },
        {
          phase: 'Running',
          initialization: { infrastructureProvisioned: true },
          nodeRef: { name: 'n' },
          deprecated: { v1beta1: { failureMessage: 'boom' } },
        },
      ),
      expected: { v1alpha3: 'Failed', v1alpha4: 'Failed', v1beta1: 'Failed', v1beta2: 'Running' },
    },
    {
      // Updating (v1.12+): only v1beta2 reads the Updating condition.
      what: 'running with the Updating condition True',
      old: oldMachine(
        { providerID: 'p' },
        {
          phase: 'Running',
          infrastructureReady: true,
          nodeRef: { name: 'n' },
          conditions: [{ type: 'Updating', status: 'True' }],
        },
      ),
      v1beta2: newMachine(
        { providerID: 'p' },
        {
          phase: 'Running',
          initialization: { infrastructureProvisioned: true },
          nodeRef: { name: 'n' },
          conditions: [{ type: 'Updating', status: 'True' }],
        },
      ),
      expected: { v1alpha3: 'Running', v1alpha4: 'Running', v1beta1: 'Running', v1beta2: 'Updating' },
    },
    {
      what: 'updating and deleted: deleting is the last rule',
      old: oldMachine({}, { phase: 'Running', failureReason: 'x' }, deleted),
      v1beta2: newMachine(
        {},
        { phase: 'Updating', conditions: [{ type: 'Updating', status: 'True' }] },
        deleted,
      ),
      expected: { v1alpha3: 'Deleting', v1alpha4: 'Deleting', v1beta1: 'Deleting', v1beta2: 'Deleting' },
    },
    {
      what: 'a stored phase no rule touches is written back',
      old: oldMachine({}, { phase: 'Whatever' }),
      v1beta2: newMachine({}, { phase: 'Provisioned' }),
      expected: { v1alpha3: 'Whatever', v1alpha4: 'Whatever', v1beta1: 'Whatever', v1beta2: 'Provisioned' },
    },
  ];

  it.each(rows.map((r) => [r.what, r] as const))('%s', (_what, row) => {
    for (const version of versions) {
      const machine = version === 'v1beta2' ? row.v1beta2 : row.old;
      expect(laterMachinePhase(version, machine), version).toBe(row.expected[version]);
    }
  });

  it('does not complete bootstrap readiness from the spec while deleting', () => {
    const deleting = oldMachine({ bootstrap: { dataSecretName: 's' } }, { phase: 'Pending' }, deleted);
    expect(explainLaterMachinePhase('v1beta1', deleting).facts.bootstrapReady).toBe(false);
  });

  it('has no Failed rule in v1beta2 and an Updating rule only there', () => {
    const phases = (v: LaterVersion) => laterMachinePhaseRules[v].map((r) => r.phase);
    expect(phases('v1beta2')).toEqual([
      'Pending',
      'Provisioning',
      'Provisioned',
      'Running',
      'Updating',
      'Deleting',
    ]);
    for (const v of ['v1alpha3', 'v1alpha4', 'v1beta1'] as const) {
      expect(phases(v)).toEqual(['Pending', 'Provisioning', 'Provisioned', 'Running', 'Failed', 'Deleting']);
    }
  });
});

describe('Cluster phase by version', () => {
  const endpoint = { host: 'api.example', port: 6443 };
  const rows: Array<{ what: string; old: object; v1beta2: object; expected: Record<LaterVersion, string> }> =
    [
      {
        what: 'a new Cluster',
        old: { spec: {} },
        v1beta2: { spec: {} },
        expected: { v1alpha3: 'Pending', v1alpha4: 'Pending', v1beta1: 'Pending', v1beta2: 'Pending' },
      },
      {
        // v1.8+ (our v1beta1 and v1beta2) also count a controlPlaneRef.
        what: 'only a controlPlaneRef',
        old: {
          spec: { controlPlaneRef: { kind: 'KubeadmControlPlane', name: 'cp' } },
          status: { phase: 'Pending' },
        },
        v1beta2: {
          spec: {
            controlPlaneRef: {
              apiGroup: 'controlplane.cluster.x-k8s.io',
              kind: 'KubeadmControlPlane',
              name: 'cp',
            },
          },
          status: { phase: 'Pending' },
        },
        expected: {
          v1alpha3: 'Pending',
          v1alpha4: 'Pending',
          v1beta1: 'Provisioning',
          v1beta2: 'Provisioning',
        },
      },
      {
        what: 'infrastructure ready but no endpoint yet',
        old: {
          spec: { infrastructureRef: { name: 'i' } },
          status: { phase: 'Provisioning', infrastructureReady: true },
        },
        v1beta2: {
          spec: { infrastructureRef: { apiGroup: 'g', kind: 'K', name: 'i' } },
          status: { phase: 'Provisioning', initialization: { infrastructureProvisioned: true } },
        },
        expected: {
          v1alpha3: 'Provisioning',
          v1alpha4: 'Provisioning',
          v1beta1: 'Provisioning',
          v1beta2: 'Provisioning',
        },
      },
      {
        what: 'infrastructure ready with a valid endpoint',
        old: {
          spec: { infrastructureRef: { name: 'i' }, controlPlaneEndpoint: endpoint },
          status: { phase: 'Provisioning', infrastructureReady: true },
        },
        v1beta2: {
          spec: {
            infrastructureRef: { apiGroup: 'g', kind: 'K', name: 'i' },
            controlPlaneEndpoint: endpoint,
          },
          status: { phase: 'Provisioning', initialization: { infrastructureProvisioned: true } },
        },
        expected: {
          v1alpha3: 'Provisioned',
          v1alpha4: 'Provisioned',
          v1beta1: 'Provisioned',
          v1beta2: 'Provisioned',
        },
      },
      {
        what: 'a failure reason (v1beta2 has no Failed)',
        old: { spec: {}, status: { phase: 'Provisioned', failureReason: 'x' } },
        v1beta2: {
          spec: {},
          status: { phase: 'Provisioned', deprecated: { v1beta1: { failureReason: 'x' } } },
        },
        expected: { v1alpha3: 'Failed', v1alpha4: 'Failed', v1beta1: 'Failed', v1beta2: 'Provisioned' },
      },
      {
        what: 'deleted',
        old: { metadata: deleted, spec: {}, status: { phase: 'Failed', failureReason: 'x' } },
        v1beta2: { metadata: deleted, spec: {}, status: { phase: 'Provisioned' } },
        expected: { v1alpha3: 'Deleting', v1alpha4: 'Deleting', v1beta1: 'Deleting', v1beta2: 'Deleting' },
      },
    ];

  it.each(rows.map((r) => [r.what, r] as const))('%s', (_what, row) => {
    for (const version of versions) {
      expect(laterClusterPhase(version, version === 'v1beta2' ? row.v1beta2 : row.old), version).toBe(
        row.expected[version],
      );
    }
  });

  it('has no Failed rule in v1beta2', () => {
    expect(laterClusterPhaseRules.v1beta2.map((r) => r.phase)).toEqual([
      'Pending',
      'Provisioning',
      'Provisioned',
      'Deleting',
    ]);
  });
});

describe('pause keeps the stored phase (the reconcilers return before their phase step)', () => {
  const paused = { annotations: { 'cluster.x-k8s.io/paused': '' } };
  const deleting = { ...deleted };

  it.each(versions)('%s Machine: the paused annotation (any value) or a paused Cluster', (version) => {
    const status =
      version === 'v1beta2'
        ? {
            phase: 'Provisioning',
            initialization: { infrastructureProvisioned: true },
            nodeRef: { name: 'n' },
          }
        : { phase: 'Provisioning', infrastructureReady: true, nodeRef: { name: 'n' } };
    const active = oldMachine({ providerID: 'p' }, status, deleting);
    expect(laterMachinePhase(version, active)).toBe('Deleting');
    expect(laterMachinePhase(version, { ...active, metadata: { ...deleting, ...paused } })).toBe(
      'Provisioning',
    );
    const decision = explainLaterMachinePhase(version, active, { clusterPaused: true });
    expect(decision).toMatchObject({ phase: 'Provisioning', paused: true, fired: [] });
    expect(laterMachinePhase(version, oldMachine({}, {}, paused))).toBe('');
    // Another annotation pauses nothing.
    expect(laterMachinePhase(version, { ...active, metadata: { annotations: { other: '' } } })).not.toBe(
      'Provisioning',
    );
  });

  it.each(versions)(
    '%s Cluster: spec.paused true or the annotation; spec.paused false is not paused',
    (version) => {
      const base = { metadata: deleted, spec: {}, status: { phase: 'Provisioned' } };
      expect(laterClusterPhase(version, base)).toBe('Deleting');
      expect(laterClusterPhase(version, { ...base, spec: { paused: true } })).toBe('Provisioned');
      expect(laterClusterPhase(version, { ...base, spec: { paused: false } })).toBe('Deleting');
      expect(laterClusterPhase(version, { ...base, metadata: { ...deleted, ...paused } })).toBe(
        'Provisioned',
      );
      expect(isLaterClusterPaused({ spec: { paused: true } })).toBe(true);
      expect(isLaterClusterPaused({ spec: {} })).toBe(false);
    },
  );
});
