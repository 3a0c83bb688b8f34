import { commonFactDescriptions, deletionRequestedEvent, errorClearedEvent } from './common-rules.js';
import { type MachinePhase, machinePhases } from './machine-phase.js';
import { type MachinePhaseFacts, machinePhaseRules } from './machine-rules.js';
import type { PhaseValue } from './rules.js';
import {
  buildPhaseStateMachine,
  type PhaseEvent,
  type PhaseModel,
  type TransitionCheck,
  type TransitionCheckOptions,
} from './state-machine.js';

/** The things that happen to a Machine and change what its phase rules see. */
export type MachineEvent =
  | 'bootstrapReady'
  | 'infrastructureReady'
  | 'nodeRefSet'
  | 'errorSet'
  | 'errorCleared'
  | 'deletionRequested';

export const machineEvents: readonly PhaseEvent<MachinePhaseFacts, MachineEvent>[] = [
  {
    name: 'bootstrapReady',
    description:
      'bootstrap data becomes available: spec.bootstrap.data is set, or the bootstrap config reports status.ready with bootstrapData',
    by: 'Machine controller (reconcileBootstrap)',
    fact: 'bootstrapReady',
    value: true,
  },
  {
    name: 'infrastructureReady',
    description: 'the infrastructure machine reports status.ready with a spec.providerID',
    by: 'Machine controller (reconcileInfrastructure)',
    fact: 'infrastructureReady',
    value: true,
  },
  {
    name: 'nodeRefSet',
    description: 'a Node with the same providerID appears in the workload cluster',
    by: 'Machine controller (reconcileNodeRef)',
    fact: 'nodeRefSet',
    value: true,
    // reconcileNodeRef belongs to the normal path, which a deleting Machine no longer takes.
    requires: { deletionRequested: false },
  },
  {
    name: 'errorSet',
    description:
      'the bootstrap config or the infrastructure machine reports an errorReason or errorMessage, or the ready infrastructure machine is deleted',
    by: 'Machine controller (copied from the referenced objects)',
    fact: 'errorSet',
    value: true,
  },
  errorClearedEvent('errorCleared'),
  deletionRequestedEvent('deletionRequested', 'Machine'),
];

export const machinePhaseModel: PhaseModel<MachinePhaseFacts, MachinePhase, MachineEvent> = {
  kind: 'Machine',
  phases: machinePhases,
  rules: machinePhaseRules,
  initialFacts: {
    bootstrapReady: false,
    infrastructureReady: false,
    nodeRefSet: false,
    errorSet: false,
    deletionRequested: false,
  },
  facts: {
    bootstrapReady: {
      whenTrue: 'status.bootstrapReady true',
      whenFalse: 'status.bootstrapReady false',
      sticky: 'the controller never sets status.bootstrapReady back to false',
    },
    infrastructureReady: commonFactDescriptions.infrastructureReady,
    nodeRefSet: {
      whenTrue: 'status.nodeRef set',
      whenFalse: 'no status.nodeRef',
      sticky: 'the v0.2 controller never removes status.nodeRef',
    },
    errorSet: commonFactDescriptions.errorSet,
    deletionRequested: commonFactDescriptions.deletionRequested,
  },
  events: machineEvents,
};

/** The v1alpha2 Machine phase state machine, derived from `machinePhaseRules`. */
export const machineStateMachine = buildPhaseStateMachine(machinePhaseModel);

/**
 * Whether the v1alpha2 Machine rules can produce an observed phase change (old → new), with
 * the reason when they cannot. See `TransitionHistory` for what the old phase is taken to imply.
 */
export function checkMachineTransition(
  from: PhaseValue<MachinePhase> | null | undefined,
  to: PhaseValue<MachinePhase> | null | undefined,
  options?: TransitionCheckOptions,
): TransitionCheck<MachineEvent> {
  return machineStateMachine.check(from, to, options);
}
