import type { PhaseFacts, PhaseRule } from './rules.js';
import type { FactDescription, PhaseEvent } from './state-machine.js';

/**
 * What the Machine and Cluster phase logic have in common: both controllers end their rule
 * list with the same two rules (an error means failed; a deletion timestamp means deleting,
 * and, being last, beats everything), read the same error and deletion inputs, and copy
 * infrastructure readiness the same way. Kept in one place so the two tables cannot drift.
 */
export type CommonPhaseFacts = {
  readonly infrastructureReady: boolean;
  readonly errorSet: boolean;
  readonly deletionRequested: boolean;
};

/** The last two rules of both tables, in upstream order: failed, then deleting. */
export function failedThenDeletingRules<Facts extends PhaseFacts & CommonPhaseFacts, Phase extends string>(
  failed: Phase,
  deleting: Phase,
): PhaseRule<Facts, Phase>[] {
  return [
    {
      id: 'failed',
      phase: failed,
      condition: 'status.errorReason or status.errorMessage is set',
      holds: (f) => f.errorSet,
    },
    {
      id: 'deleting',
      phase: deleting,
      condition: 'metadata.deletionTimestamp is set',
      holds: (f) => f.deletionRequested,
    },
  ];
}

/** How the common inputs read, for the state-machine views of both kinds. */
export const commonFactDescriptions: { readonly [K in keyof CommonPhaseFacts]: FactDescription } = {
  infrastructureReady: {
    whenTrue: 'status.infrastructureReady true',
    whenFalse: 'status.infrastructureReady false',
    sticky: 'the controller never sets status.infrastructureReady back to false',
  },
  errorSet: {
    whenTrue: 'status.errorReason or status.errorMessage set',
    whenFalse: 'neither status.errorReason nor status.errorMessage set',
  },
  deletionRequested: {
    whenTrue: 'metadata.deletionTimestamp set',
    whenFalse: 'no metadata.deletionTimestamp',
    sticky: 'the API server never removes a deletion timestamp',
  },
};

/** Another client removing the error fields: the v0.2 controllers never do it themselves. */
export function errorClearedEvent<Facts extends PhaseFacts & CommonPhaseFacts, Event extends string>(
  name: Event,
): PhaseEvent<Facts, Event> {
  return {
    name,
    description: 'status.errorReason and status.errorMessage are removed',
    by: 'another client (the v0.2 controllers never clear them)',
    fact: 'errorSet',
    value: false,
  };
}

/** The API server setting metadata.deletionTimestamp when the object is deleted. */
export function deletionRequestedEvent<Facts extends PhaseFacts & CommonPhaseFacts, Event extends string>(
  name: Event,
  kind: 'Machine' | 'Cluster',
): PhaseEvent<Facts, Event> {
  return {
    name,
    description: `the ${kind} is deleted and the API server sets metadata.deletionTimestamp`,
    by: 'API server',
    fact: 'deletionRequested',
    value: true,
  };
}
