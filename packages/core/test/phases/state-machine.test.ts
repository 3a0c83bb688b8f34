import { describe, expect, it } from 'vitest';
import {
  checkClusterTransition,
  checkMachineTransition,
  clusterPhases,
  clusterStateMachine,
  machinePhases,
  machineStateMachine,
} from '../../src/phases/index.js';

/** Written out by hand from the rules, as an independent statement of what they allow. */
const expectedMachineSteps = [
  '"" → pending',
  '"" → provisioning',
  '"" → provisioned',
  '"" → running',
  '"" → deleting',
  '"" → failed',
  'pending → pending',
  'pending → provisioning',
  'pending → provisioned',
  'pending → running',
  'pending → deleting',
  'pending → failed',
  'provisioning → provisioning',
  'provisioning → provisioned',
  'provisioning → running',
  'provisioning → deleting',
  'provisioning → failed',
  'provisioned → provisioned',
  'provisioned → running',
  'provisioned → deleting',
  'provisioned → failed',
  'running → running',
  'running → deleting',
  'running → failed',
  'deleting → deleting',
  'failed → provisioning',
  'failed → provisioned',
  'failed → running',
  'failed → deleting',
  'failed → failed',
];

const expectedClusterSteps = [
  '"" → pending',
  '"" → provisioning',
  '"" → provisioned',
  '"" → deleting',
  '"" → failed',
  'pending → pending',
  'pending → provisioning',
  'pending → provisioned',
  'pending → deleting',
  'pending → failed',
  'provisioning → provisioning',
  'provisioning → provisioned',
  'provisioning → deleting',
  'provisioning → failed',
  'provisioned → provisioned',
  'provisioned → deleting',
  'provisioned → failed',
  'deleting → deleting',
  'failed → provisioning',
  'failed → provisioned',
  'failed → deleting',
  'failed → failed',
];

const step = ({ from, to }: { from: string; to: string }) => `${from === '' ? '""' : from} → ${to}`;

describe('the Machine state machine', () => {
  it('reaches exactly the steps the rules allow from a new Machine', () => {
    expect(machineStateMachine.transitions.map(step).sort()).toEqual([...expectedMachineSteps].sort());
  });

  it('never reaches deleted', () => {
    expect(machineStateMachine.reachablePhases).not.toContain('deleted');
    expect(machineStateMachine.reachablePhases).toEqual([
      '',
      'pending',
      'provisioning',
      'provisioned',
      'running',
      'deleting',
      'failed',
    ]);
  });

  it('labels steps with the smallest sets of events', () => {
    const triggers = (from: string, to: string) =>
      machineStateMachine.transitions.find((t) => t.from === from && t.to === to)?.triggers;
    expect(triggers('', 'pending')).toEqual([[]]);
    expect(triggers('', 'running')).toEqual([['infrastructureReady', 'nodeRefSet']]);
    expect(triggers('provisioned', 'running')).toEqual([['nodeRefSet']]);
    expect(triggers('running', 'deleting')).toEqual([['deletionRequested']]);
    // A failed Machine whose infrastructure was already ready needs only the errors cleared.
    expect(triggers('failed', 'provisioned')).toEqual([['infrastructureReady'], ['errorCleared']]);
  });

  it('accepts every step it lists, with the same triggers', () => {
    for (const t of machineStateMachine.transitions) {
      const result = checkMachineTransition(t.from, t.to);
      expect(result).toEqual({ ok: true, from: t.from, to: t.to, triggers: t.triggers });
    }
  });

  it('rejects every other step between phase values, each with a specific reason', () => {
    const listed = new Set(machineStateMachine.transitions.map(step));
    for (const from of machinePhases.filter((p) => p !== 'deleted')) {
      for (const to of machinePhases) {
        const result = checkMachineTransition(from, to);
        expect(result.ok, `${from} → ${to}`).toBe(listed.has(step({ from, to })));
        if (!result.ok) expect(result.reason).not.toMatch(/^no inputs/);
      }
    }
  });

  it.each([
    ['deleting', 'running', /deletion timestamp/],
    ['deleting', 'failed', /deletionTimestamp set/],
    ['running', 'provisioned', /nodeRef/],
    ['running', 'provisioning', /infrastructureReady/],
    ['provisioned', 'provisioning', /never sets status\.infrastructureReady back to false/],
    ['running', 'pending', /only when status\.phase is empty/],
    ['failed', 'pending', /only when status\.phase is empty/],
    ['running', 'deleted', /no rule writes it/],
    ['running', '', /never write an empty phase/],
    ['running', 'Running', /not a v1alpha2 Machine phase/],
  ])('explains why %s → %s cannot happen', (from, to, reason) => {
    const result = checkMachineTransition(from, to);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.reason).toMatch(reason);
  });

  it('with history "any", allows what only the inputs history forbade', () => {
    expect(checkMachineTransition('deleting', 'running', { history: 'any' }).ok).toBe(true);
    expect(checkMachineTransition('running', 'provisioned', { history: 'any' }).ok).toBe(true);
    // The rules alone still forbid these.
    expect(checkMachineTransition('running', 'pending', { history: 'any' }).ok).toBe(false);
    expect(checkMachineTransition('running', 'deleted', { history: 'any' }).ok).toBe(false);
  });

  it('checks an old phase the rules never write as coming from anywhere', () => {
    expect(checkMachineTransition('Running', 'provisioning').ok).toBe(true);
    expect(checkMachineTransition('Running', 'Running').ok).toBe(true);
    expect(checkMachineTransition('deleted', 'running').ok).toBe(true);
    const changed = checkMachineTransition('Running', 'Creating');
    expect(changed.ok).toBe(false);
    expect(!changed.ok && changed.reason).toContain('"Creating" is not a v1alpha2 Machine phase');
    expect(checkMachineTransition('Running', 'pending').ok).toBe(false);
  });

  it('treats absent phases as empty', () => {
    expect(checkMachineTransition(undefined, 'pending').ok).toBe(true);
    expect(checkMachineTransition(null, null).ok).toBe(false);
  });
});

describe('the Cluster state machine', () => {
  it('reaches exactly the steps the rules allow from a new Cluster', () => {
    expect(clusterStateMachine.transitions.map(step).sort()).toEqual([...expectedClusterSteps].sort());
  });

  it('rejects every other step with a specific reason', () => {
    const listed = new Set(clusterStateMachine.transitions.map(step));
    for (const from of clusterPhases) {
      for (const to of [...clusterPhases, 'running']) {
        const result = checkClusterTransition(from, to);
        expect(result.ok, `${from} → ${to}`).toBe(listed.has(step({ from, to })));
        if (!result.ok) expect(result.reason).not.toMatch(/^no inputs/);
      }
    }
  });

  it.each([
    ['deleting', 'provisioned', /deletion timestamp/],
    ['provisioned', 'provisioning', /infrastructureReady/],
    ['provisioning', 'pending', /only when status\.phase is empty/],
    ['provisioned', 'running', /not a v1alpha2 Cluster phase/],
  ])('explains why %s → %s cannot happen', (from, to, reason) => {
    const result = checkClusterTransition(from, to);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.reason).toMatch(reason);
  });

  it('needs an infrastructureRef before the infrastructure can be ready', () => {
    const triggers = clusterStateMachine.transitions.find(
      (t) => t.from === 'pending' && t.to === 'provisioned',
    );
    expect(triggers?.triggers).toEqual([['infrastructureRefSet', 'infrastructureReady']]);
  });
});
