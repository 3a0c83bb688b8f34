import { describe, expect, it } from 'vitest';
import {
  explainMachinePhase,
  MachinePhase,
  type MachinePhaseSource,
  machinePhase,
  machinePhaseFacts,
  machinePhaseRules,
  typedMachinePhase,
} from '../../src/phases/index.js';
import { deletedAt, type MachineShape, machine } from './fixtures.js';

const err = { errorReason: 'CreateError' };

describe('machinePhase: each rule on its own', () => {
  it.each<[string, MachineShape, string]>([
    ['empty phase, nothing ready', {}, 'pending'],
    ['bootstrap ready, infrastructure not', { bootstrapReady: true }, 'provisioning'],
    ['infrastructure ready', { infrastructureReady: true }, 'provisioned'],
    ['infrastructure ready and a nodeRef', { infrastructureReady: true, nodeRef: true }, 'running'],
    ['errorReason set', { errorReason: 'CreateError' }, 'failed'],
    ['errorMessage set', { errorMessage: 'boom' }, 'failed'],
    ['both error fields set', { errorReason: 'CreateError', errorMessage: 'boom' }, 'failed'],
    ['deletion requested', { deleting: true }, 'deleting'],
  ])('%s → %s', (_, shape, expected) => {
    expect(machinePhase(machine(shape))).toBe(expected);
  });
});

describe('machinePhase: competing rules, later ones win', () => {
  it.each<[string, MachineShape, string]>([
    // provisioning needs infrastructure NOT ready, so provisioned takes over
    [
      'bootstrap and infrastructure ready',
      { bootstrapReady: true, infrastructureReady: true },
      'provisioned',
    ],
    [
      'bootstrap, infrastructure and nodeRef',
      { bootstrapReady: true, infrastructureReady: true, nodeRef: true },
      'running',
    ],
    // running needs infrastructureReady as well as the nodeRef
    ['nodeRef without infrastructure ready', { nodeRef: true }, 'pending'],
    ['nodeRef and bootstrap, no infrastructure', { nodeRef: true, bootstrapReady: true }, 'provisioning'],
    ['failed beats provisioning', { bootstrapReady: true, ...err }, 'failed'],
    ['failed beats provisioned', { infrastructureReady: true, ...err }, 'failed'],
    ['failed beats running', { infrastructureReady: true, nodeRef: true, ...err }, 'failed'],
    ['failed beats pending', { ...err }, 'failed'],
    ['deleting beats failed', { deleting: true, ...err }, 'deleting'],
    ['deleting beats running', { deleting: true, infrastructureReady: true, nodeRef: true }, 'deleting'],
    ['deleting beats provisioned', { deleting: true, infrastructureReady: true }, 'deleting'],
    ['deleting beats provisioning', { deleting: true, bootstrapReady: true }, 'deleting'],
    ['deleting beats pending', { deleting: true }, 'deleting'],
    [
      'deleting beats everything at once',
      { deleting: true, bootstrapReady: true, infrastructureReady: true, nodeRef: true, ...err },
      'deleting',
    ],
  ])('%s → %s', (_, shape, expected) => {
    expect(machinePhase(machine(shape))).toBe(expected);
  });
});

describe('machinePhase: a phase no rule touches is kept', () => {
  it.each<[string, MachineShape, string]>([
    ['failed stays failed after the errors are cleared', { phase: 'failed' }, 'failed'],
    ['running stays running with nothing ready (e.g. imported)', { phase: 'running' }, 'running'],
    ['an unrecognised value is written back as is', { phase: 'Running' }, 'Running'],
    ['any free text is kept', { phase: 'Creating VM' }, 'Creating VM'],
    [
      'provisioning with a nodeRef but no infrastructure',
      { phase: 'provisioning', nodeRef: true },
      'provisioning',
    ],
    ['deleting stays deleting without a deletion timestamp', { phase: 'deleting' }, 'deleting'],
    ['deleted is kept, never written', { phase: 'deleted' }, 'deleted'],
    ['pending stays pending', { phase: 'pending' }, 'pending'],
  ])('%s', (_, shape, expected) => {
    expect(machinePhase(machine(shape))).toBe(expected);
  });

  it.each<[string, MachineShape, string]>([
    [
      'failed → provisioned when errors are cleared and infrastructure is ready',
      { phase: 'failed', infrastructureReady: true },
      'provisioned',
    ],
    [
      'an unrecognised value is replaced once a rule fires',
      { phase: 'Running', infrastructureReady: true, nodeRef: true },
      'running',
    ],
    ['running → failed', { phase: 'running', infrastructureReady: true, nodeRef: true, ...err }, 'failed'],
    [
      'running → provisioned if nodeRef is removed by hand',
      { phase: 'running', infrastructureReady: true },
      'provisioned',
    ],
    [
      'deleting → provisioning if the timestamp is gone',
      { phase: 'deleting', bootstrapReady: true },
      'provisioning',
    ],
  ])('a rule that fires replaces the stored phase: %s', (_, shape, expected) => {
    expect(machinePhase(machine(shape))).toBe(expected);
  });
});

describe('machinePhase: how the Go controller reads the JSON fields', () => {
  const base = machine();
  const withStatus = (status: Record<string, unknown>): MachinePhaseSource => ({ ...base, status });

  it('treats an empty error string as set (a non-nil pointer)', () => {
    expect(machinePhase(withStatus({ errorReason: '' }))).toBe('failed');
    expect(machinePhase(withStatus({ errorMessage: '' }))).toBe('failed');
  });

  it('treats null like an absent field (a nil pointer)', () => {
    expect(
      machinePhase(withStatus({ errorReason: null, errorMessage: null, nodeRef: null, phase: null })),
    ).toBe('pending');
    expect(machinePhase({ metadata: { deletionTimestamp: null } })).toBe('pending');
  });

  it('treats any nodeRef object as set, even an empty one', () => {
    expect(machinePhase(withStatus({ infrastructureReady: true, nodeRef: {} }))).toBe('running');
  });

  it("treats Go's zero time as no deletion timestamp", () => {
    expect(machinePhase({ metadata: { deletionTimestamp: '0001-01-01T00:00:00Z' } })).toBe('pending');
    expect(machinePhase({ metadata: { deletionTimestamp: '' } })).toBe('pending');
    expect(machinePhase({ metadata: { deletionTimestamp: deletedAt } })).toBe('deleting');
    expect(machinePhase({ metadata: { deletionTimestamp: new Date(deletedAt) } })).toBe('deleting');
  });

  it('counts only a JSON true as ready', () => {
    const loose = { bootstrapReady: 'true', infrastructureReady: 1 } as unknown as Record<string, unknown>;
    expect(machinePhase(withStatus(loose))).toBe('pending');
  });

  it('handles a Machine with no status, spec or metadata', () => {
    expect(machinePhase({})).toBe('pending');
    expect(machinePhase({ metadata: null, spec: null, status: null })).toBe('pending');
  });

  it('marks bootstrap ready when spec.bootstrap.data is set, as reconcileBootstrap does first', () => {
    expect(machinePhase(machine({ bootstrapData: 'I2Nsb3VkLWNvbmZpZw==' }))).toBe('provisioning');
    expect(machinePhase(machine({ bootstrapData: '' }))).toBe('provisioning');
    expect(machinePhase({ spec: { bootstrap: { data: null } } })).toBe('pending');
    expect(machinePhaseFacts(machine({ bootstrapData: '' })).bootstrapReady).toBe(true);
    // The delete path does not run reconcileBootstrap.
    expect(machinePhaseFacts(machine({ bootstrapData: '', deleting: true })).bootstrapReady).toBe(false);
  });
});

describe('explainMachinePhase', () => {
  it('lists the rules that held in order and names the deciding one', () => {
    const decision = explainMachinePhase(
      machine({ bootstrapReady: true, infrastructureReady: true, nodeRef: true, ...err }),
    );
    expect(decision.fired.map((rule) => rule.id)).toEqual(['pending', 'provisioned', 'running', 'failed']);
    expect(decision.decidedBy?.id).toBe('failed');
    expect(decision.phase).toBe('failed');
    expect(decision.previous).toBe('');
  });

  it('has no deciding rule when the stored phase is kept', () => {
    const decision = explainMachinePhase(machine({ phase: 'failed' }));
    expect(decision.fired).toEqual([]);
    expect(decision.decidedBy).toBeUndefined();
    expect(decision.phase).toBe('failed');
  });

  it('keeps the upstream rule order', () => {
    expect(machinePhaseRules.map((rule) => rule.phase)).toEqual([
      'pending',
      'provisioning',
      'provisioned',
      'running',
      'failed',
      'deleting',
    ]);
  });
});

describe('MachinePhase values', () => {
  it('are the lowercase v1alpha2 strings, unknown being empty', () => {
    expect(MachinePhase).toEqual({
      pending: 'pending',
      provisioning: 'provisioning',
      provisioned: 'provisioned',
      running: 'running',
      deleting: 'deleting',
      deleted: 'deleted',
      failed: 'failed',
      unknown: '',
    });
  });

  it('type a stored value like GetTypedPhase', () => {
    expect(typedMachinePhase('running')).toBe('running');
    expect(typedMachinePhase('Running')).toBe('');
    expect(typedMachinePhase(undefined)).toBe('');
    expect(typedMachinePhase('deleted')).toBe('deleted');
  });
});
