import { ClusterPhase } from './cluster-phase.js';
import { failedThenDeletingRules, pendingRule } from './common-rules.js';
import {
  type GoField,
  isDeletionRequested,
  isSetPointer,
  isTrue,
  type PhaseSourceMetadata,
} from './inputs.js';
import { type PhaseDecision, type PhaseRule, phaseLogic } from './rules.js';

/**
 * The fields of a v1alpha2 Cluster that decide its phase. Structural, so the decoded
 * `cluster.x-k8s.io/v1alpha2` Cluster type and plain parsed JSON are assignable.
 */
export interface ClusterPhaseSource {
  readonly metadata?: GoField<PhaseSourceMetadata>;
  readonly spec?: GoField<{ readonly infrastructureRef?: GoField<object> }>;
  readonly status?: GoField<{
    readonly phase?: GoField<string>;
    readonly infrastructureReady?: GoField<boolean>;
    readonly errorReason?: GoField<string>;
    readonly errorMessage?: GoField<string>;
  }>;
}

/** The inputs of the Cluster phase rules.
 * (A type alias rather than an interface: it needs the implicit index signature of `PhaseFacts`.)
 */
export type ClusterPhaseFacts = {
  readonly infrastructureRefSet: boolean;
  readonly infrastructureReady: boolean;
  readonly errorSet: boolean;
  readonly deletionRequested: boolean;
};

/**
 * Reads the rule inputs from a Cluster as stored. `status.infrastructureReady` and the
 * error fields come from the infrastructure cluster object, which this function cannot
 * see, so the result is the phase of a reconcile in which that object has no news.
 */
export function clusterPhaseFacts(cluster: ClusterPhaseSource): ClusterPhaseFacts {
  const status = cluster.status ?? {};
  return {
    infrastructureRefSet: isSetPointer(cluster.spec?.infrastructureRef),
    infrastructureReady: isTrue(status.infrastructureReady),
    errorSet: isSetPointer(status.errorReason) || isSetPointer(status.errorMessage),
    deletionRequested: isDeletionRequested(cluster.metadata?.deletionTimestamp),
  };
}

/**
 * `reconcilePhase` of `controllers/cluster_controller_phases.go` (CAPI v0.2.x), in its
 * order; later rules overwrite earlier ones and an untouched non-empty phase is kept.
 * A Cluster with an infrastructureRef is therefore never `pending` after its first reconcile.
 */
export const clusterPhaseRules: readonly PhaseRule<ClusterPhaseFacts, ClusterPhase>[] = [
  pendingRule(ClusterPhase.pending),
  {
    id: 'provisioning',
    phase: ClusterPhase.provisioning,
    condition: 'spec.infrastructureRef is set',
    holds: (f) => f.infrastructureRefSet,
  },
  {
    id: 'provisioned',
    phase: ClusterPhase.provisioned,
    condition: 'status.infrastructureReady',
    holds: (f) => f.infrastructureReady,
  },
  ...failedThenDeletingRules<ClusterPhaseFacts, ClusterPhase>(ClusterPhase.failed, ClusterPhase.deleting),
];

export type ClusterPhaseDecision = PhaseDecision<ClusterPhaseFacts, ClusterPhase>;

const logic = phaseLogic(clusterPhaseRules, clusterPhaseFacts);

/** The phase the rules write for a stored phase and a set of inputs. */
export const decideClusterPhase = logic.decide;

/** Why the next reconcile writes the phase it writes: inputs, rules that held, the decider. */
export const explainClusterPhase = logic.explain;

/** The `status.phase` the v1alpha2 Cluster controller writes on its next reconcile. */
export const clusterPhase = logic.phase;
