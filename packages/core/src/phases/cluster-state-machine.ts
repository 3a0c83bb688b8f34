import { type ClusterPhase, clusterPhases } from './cluster-phase.js';
import { type ClusterPhaseFacts, clusterPhaseRules } from './cluster-rules.js';
import { commonFactDescriptions, deletionRequestedEvent, errorClearedEvent } from './common-rules.js';
import type { PhaseValue } from './rules.js';
import {
  buildPhaseStateMachine,
  type PhaseEvent,
  type PhaseModel,
  type TransitionCheck,
  type TransitionCheckOptions,
} from './state-machine.js';

/** The things that happen to a Cluster and change what its phase rules see. */
export type ClusterEvent =
  | 'infrastructureRefSet'
  | 'infrastructureRefRemoved'
  | 'infrastructureReady'
  | 'errorSet'
  | 'errorCleared'
  | 'deletionRequested';

export const clusterEvents: readonly PhaseEvent<ClusterPhaseFacts, ClusterEvent>[] = [
  {
    name: 'infrastructureRefSet',
    description: 'spec.infrastructureRef is set (at creation or by an update)',
    by: 'the Cluster author',
    fact: 'infrastructureRefSet',
    value: true,
  },
  {
    name: 'infrastructureRefRemoved',
    description: 'spec.infrastructureRef is removed (v1alpha2 has no webhook that forbids it)',
    by: 'the Cluster author',
    fact: 'infrastructureRefSet',
    value: false,
  },
  {
    name: 'infrastructureReady',
    description: 'the infrastructure cluster reports status.ready',
    by: 'Cluster controller (reconcileInfrastructure)',
    fact: 'infrastructureReady',
    value: true,
    // Only a referenced infrastructure cluster is read.
    requires: { infrastructureRefSet: true },
  },
  {
    name: 'errorSet',
    description: 'the infrastructure cluster reports an errorReason or errorMessage',
    by: 'Cluster controller (copied from the infrastructure cluster)',
    fact: 'errorSet',
    value: true,
  },
  errorClearedEvent('errorCleared'),
  deletionRequestedEvent('deletionRequested', 'Cluster'),
];

export const clusterPhaseModel: PhaseModel<ClusterPhaseFacts, ClusterPhase, ClusterEvent> = {
  kind: 'Cluster',
  phases: clusterPhases,
  rules: clusterPhaseRules,
  initialFacts: {
    infrastructureRefSet: false,
    infrastructureReady: false,
    errorSet: false,
    deletionRequested: false,
  },
  facts: {
    infrastructureRefSet: { whenTrue: 'spec.infrastructureRef set', whenFalse: 'no spec.infrastructureRef' },
    infrastructureReady: commonFactDescriptions.infrastructureReady,
    errorSet: commonFactDescriptions.errorSet,
    deletionRequested: commonFactDescriptions.deletionRequested,
  },
  events: clusterEvents,
};

/** The v1alpha2 Cluster phase state machine, derived from `clusterPhaseRules`. */
export const clusterStateMachine = buildPhaseStateMachine(clusterPhaseModel);

/** Whether the v1alpha2 Cluster rules can produce an observed phase change, and why not. */
export function checkClusterTransition(
  from: PhaseValue<ClusterPhase> | null | undefined,
  to: PhaseValue<ClusterPhase> | null | undefined,
  options?: TransitionCheckOptions,
): TransitionCheck<ClusterEvent> {
  return clusterStateMachine.check(from, to, options);
}
