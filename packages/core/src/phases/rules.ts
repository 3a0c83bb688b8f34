/**
 * The shape shared by the Machine and Cluster phase logic of every version's controllers:
 * an ordered list of rules, each of which, when its condition holds, overwrites the phase.
 * The last rule that holds wins; when none holds, the stored phase is written back as it
 * was. The rule tables themselves live in the *-rules.ts and *-rules-by-version.ts files.
 */

import { storedPhase } from './inputs.js';

/** Boolean inputs of the rules, computed from the object (see `*PhaseFacts`). */
export type PhaseFacts = Readonly<Record<string, boolean>>;

/**
 * A stored or computed `status.phase`: one of the typed values, or any other string,
 * because the controller writes back an unrecognised stored value when no rule fires.
 */
export type PhaseValue<Phase extends string> = Phase | (string & {});

export interface PhaseRule<Facts extends PhaseFacts, Phase extends string> {
  /** Stable name of the rule, e.g. `running`; also used in explanations. */
  readonly id: string;
  /** The phase the rule writes. */
  readonly phase: Phase;
  /** The condition in the words of the object's fields. */
  readonly condition: string;
  /** Whether the rule fires, given the inputs and the phase stored before this reconcile. */
  readonly holds: (facts: Facts, previous: string) => boolean;
}

/** What one pass over the rules did, for callers who want to know why. */
export interface PhaseDecision<Facts extends PhaseFacts, Phase extends string> {
  /** The phase stored before (`""` when absent). */
  readonly previous: string;
  /** The phase the controller writes. */
  readonly phase: PhaseValue<Phase>;
  /** The inputs the rules saw. */
  readonly facts: Facts;
  /** Every rule that held, in rule order; the last one decided. */
  readonly fired: readonly PhaseRule<Facts, Phase>[];
  /** The deciding rule, or undefined when none held and the previous phase was kept. */
  readonly decidedBy: PhaseRule<Facts, Phase> | undefined;
}

/**
 * The phase functions of one kind, from its rule table and how its inputs are read:
 * `decide` from a stored phase and inputs, `explain` an object as stored (the rules that
 * held, the decider), and just the `phase` its next reconcile writes.
 */
export function phaseLogic<
  Source extends { readonly status?: { readonly phase?: string | null | undefined } | null | undefined },
  Facts extends PhaseFacts,
  Phase extends string,
>(rules: readonly PhaseRule<Facts, Phase>[], factsOf: (source: Source) => Facts) {
  const decide = (previous: string, facts: Facts): PhaseDecision<Facts, Phase> =>
    applyPhaseRules(rules, previous, facts);
  const explain = (source: Source): PhaseDecision<Facts, Phase> =>
    decide(storedPhase(source.status?.phase), factsOf(source));
  const phase = (source: Source): PhaseValue<Phase> => explain(source).phase;
  return { decide, explain, phase };
}

/** Runs the rules in order; each rule that holds overwrites what earlier ones wrote. */
export function applyPhaseRules<Facts extends PhaseFacts, Phase extends string>(
  rules: readonly PhaseRule<Facts, Phase>[],
  previous: string,
  facts: Facts,
): PhaseDecision<Facts, Phase> {
  const fired = rules.filter((rule) => rule.holds(facts, previous));
  const decidedBy = fired.at(-1);
  return { previous, phase: decidedBy?.phase ?? previous, facts, fired, decidedBy };
}
