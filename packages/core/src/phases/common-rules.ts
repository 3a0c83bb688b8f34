import type { PhaseFacts, PhaseRule } from './rules.js';
import type { FactDescription, PhaseEvent } from './state-machine.js';

/*
 * What the phase rule tables have in common, defined once so the tables cannot drift. In
 * every version both kinds' tables start with the same pending rule and end with the same
 * deleting rule, which, being last, beats everything; v1alpha3 to v1beta1 put the same
 * failed rule before it. In v1alpha2 both controllers also read the same error and deletion
 * inputs and copy infrastructure readiness the same way.
 */

/** The v1alpha2 inputs both kinds read the same way. */
export type CommonPhaseFacts = {
  readonly infrastructureReady: boolean;
  readonly errorSet: boolean;
  readonly deletionRequested: boolean;
};

/** The first rule of every table, in every version: an object with no stored phase is pending. */
export function pendingRule<Facts extends PhaseFacts, Phase extends string>(
  pending: Phase,
): PhaseRule<Facts, Phase> {
  return {
    id: 'pending',
    phase: pending,
    condition: 'status.phase is empty',
    holds: (_, previous) => previous === '',
  };
}

/** A rule that holds when the fact `fact` is true, for whichever table's phase it writes. */
function whenFact<Fact extends string>(id: string, fact: Fact, condition: string) {
  return <Facts extends PhaseFacts & { readonly [K in Fact]: boolean }, Phase extends string>(
    phase: Phase,
  ): PhaseRule<Facts, Phase> => ({ id, phase, condition, holds: (f) => f[fact] });
}

/**
 * The last rule of every table, in every version: a deletion timestamp means deleting and,
 * being last, beats everything.
 */
export const deletingRule = whenFact('deleting', 'deletionRequested', 'metadata.deletionTimestamp is set');

/** The failed rule of v1alpha2: an error reason or message is set. */
const errorRule = whenFact('failed', 'errorSet', 'status.errorReason or status.errorMessage is set');

/**
 * The failed rule of v1alpha3 to v1beta1, where v1alpha2's error fields are named failure
 * (v1beta2 has no terminal failure, hence no such rule).
 */
export const failureRule = whenFact(
  'failed',
  'failureSet',
  'status.failureReason or status.failureMessage is set',
);

/** The last two rules of both v1alpha2 tables, in upstream order: failed, then deleting. */
export function failedThenDeletingRules<Facts extends PhaseFacts & CommonPhaseFacts, Phase extends string>(
  failed: Phase,
  deleting: Phase,
): PhaseRule<Facts, Phase>[] {
  return [errorRule(failed), deletingRule(deleting)];
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
