import { describe, expect, it } from 'vitest';
import {
  ClusterPhase,
  clusterPhase,
  clusterPhaseRules,
  explainClusterPhase,
  typedClusterPhase,
} from '../../src/phases/index.js';
import { type ClusterShape, cluster, deletedAt } from './fixtures.js';

const err = { errorMessage: 'Failure detected from referenced resource' };

describe('clusterPhase: each rule on its own', () => {
  it.each<[string, ClusterShape, string]>([
    ['empty phase, no infrastructureRef', {}, 'pending'],
    ['infrastructureRef set', { infrastructureRef: true }, 'provisioning'],
    ['infrastructure ready', { infrastructureReady: true }, 'provisioned'],
    ['errorReason set', { errorReason: 'CreateError' }, 'failed'],
    ['errorMessage set', { errorMessage: 'boom' }, 'failed'],
    ['deletion requested', { deleting: true }, 'deleting'],
  ])('%s → %s', (_, shape, expected) => {
    expect(clusterPhase(cluster(shape))).toBe(expected);
  });
});

describe('clusterPhase: competing rules, later ones win', () => {
  it.each<[string, ClusterShape, string]>([
    ['provisioned beats provisioning', { infrastructureRef: true, infrastructureReady: true }, 'provisioned'],
    ['provisioning beats pending on the first reconcile', { infrastructureRef: true }, 'provisioning'],
    ['failed beats provisioning', { infrastructureRef: true, ...err }, 'failed'],
    ['failed beats provisioned', { infrastructureRef: true, infrastructureReady: true, ...err }, 'failed'],
    ['failed beats pending', { ...err }, 'failed'],
    ['deleting beats failed', { deleting: true, ...err }, 'deleting'],
    [
      'deleting beats provisioned',
      { deleting: true, infrastructureRef: true, infrastructureReady: true },
      'deleting',
    ],
    ['deleting beats provisioning', { deleting: true, infrastructureRef: true }, 'deleting'],
  ])('%s', (_, shape, expected) => {
    expect(clusterPhase(cluster(shape))).toBe(expected);
  });
});

describe('clusterPhase: a phase no rule touches is kept', () => {
  it.each<[string, ClusterShape, string]>([
    ['pending stays pending without an infrastructureRef', { phase: 'pending' }, 'pending'],
    ['failed stays failed after the errors are cleared (no ref)', { phase: 'failed' }, 'failed'],
    ['provisioned stays provisioned if the ref is removed', { phase: 'provisioned' }, 'provisioned'],
    ['an unrecognised value is kept', { phase: 'Ready' }, 'Ready'],
  ])('%s', (_, shape, expected) => {
    expect(clusterPhase(cluster(shape))).toBe(expected);
  });

  it('a Cluster with an infrastructureRef leaves pending on the next reconcile', () => {
    expect(clusterPhase(cluster({ phase: 'pending', infrastructureRef: true }))).toBe('provisioning');
    expect(clusterPhase(cluster({ phase: 'failed', infrastructureRef: true }))).toBe('provisioning');
  });
});

describe('clusterPhase: JSON field semantics', () => {
  it('counts an empty error string as set, as converted v1alpha1 Clusters carry', () => {
    expect(clusterPhase({ status: { errorReason: '', errorMessage: '' } })).toBe('failed');
  });

  it('treats null like absent', () => {
    expect(
      clusterPhase({ spec: { infrastructureRef: null }, status: { errorReason: null, phase: null } }),
    ).toBe('pending');
  });

  it('reads the deletion timestamp like the Machine rules', () => {
    expect(clusterPhase({ metadata: { deletionTimestamp: deletedAt } })).toBe('deleting');
    expect(clusterPhase({ metadata: { deletionTimestamp: '0001-01-01T00:00:00Z' } })).toBe('pending');
  });
});

describe('Cluster rules and values', () => {
  it('keep the upstream order', () => {
    expect(clusterPhaseRules.map((rule) => rule.phase)).toEqual([
      'pending',
      'provisioning',
      'provisioned',
      'failed',
      'deleting',
    ]);
  });

  it('explain the decision', () => {
    const decision = explainClusterPhase(cluster({ infrastructureRef: true, infrastructureReady: true }));
    expect(decision.fired.map((rule) => rule.id)).toEqual(['pending', 'provisioning', 'provisioned']);
    expect(decision.decidedBy?.condition).toBe('status.infrastructureReady');
  });

  it('have no running or deleted phase', () => {
    expect(Object.values(ClusterPhase)).toEqual([
      'pending',
      'provisioning',
      'provisioned',
      'deleting',
      'failed',
      '',
    ]);
    expect(typedClusterPhase('running')).toBe('');
    expect(typedClusterPhase('provisioned')).toBe('provisioned');
  });
});
