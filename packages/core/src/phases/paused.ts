import { Annotations } from '../api/v1beta2/constants.js';
import type { PhaseSourceMetadata } from './inputs.js';
import type { PhaseDecision, PhaseFacts } from './rules.js';

/**
 * Pause, for the v1alpha3+ controllers: the Machine and Cluster reconcilers return before
 * their phase step when the Cluster is paused (`spec.paused`) or the object itself carries
 * the `cluster.x-k8s.io/paused` annotation (any value; `annotations.IsPaused` in v0.3–v1.8,
 * `paused.EnsurePausedCondition` from v1.9, both ahead of the deferred status update). The
 * stored phase then stands, whatever the rules would say.
 */

/** What the object alone cannot show: whether the Cluster it belongs to is paused. */
export interface LaterPhaseContext {
  readonly clusterPaused?: boolean | undefined;
}

const pausedAnnotation = Annotations.paused;

/** Whether the reconciler skips the object: its Cluster paused, or the annotation present. */
export function isReconcilePaused(
  metadata: PhaseSourceMetadata | null | undefined,
  ownSpecPaused: unknown,
  context: LaterPhaseContext,
): boolean {
  const annotations = metadata?.annotations;
  const annotated =
    annotations !== null && annotations !== undefined && Object.hasOwn(annotations, pausedAnnotation);
  return ownSpecPaused === true || context.clusterPaused === true || annotated;
}

/** A later phase decision: the rules' verdict, or, while paused, the stored phase untouched. */
export type PausableDecision<Facts extends PhaseFacts, Phase extends string> = PhaseDecision<Facts, Phase> & {
  readonly paused: boolean;
};

/** The stored phase with no rule run when `paused`, else what `decide` gives. */
export function unlessPaused<Facts extends PhaseFacts, Phase extends string>(
  paused: boolean,
  previous: string,
  facts: Facts,
  decide: (previous: string, facts: Facts) => PausableDecision<Facts, Phase>,
): PausableDecision<Facts, Phase> {
  return paused
    ? { previous, phase: previous, facts, fired: [], decidedBy: undefined, paused: true }
    : decide(previous, facts);
}
