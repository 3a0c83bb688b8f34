import { failedThenDeletingRules, pendingRule } from './common-rules.js';
import {
  type GoField,
  isDeletionRequested,
  isSetPointer,
  isTrue,
  type PhaseSourceMetadata,
} from './inputs.js';
import { MachinePhase } from './machine-phase.js';
import { type PhaseDecision, type PhaseRule, phaseLogic } from './rules.js';

/**
 * The fields of a v1alpha2 Machine that decide its phase. Structural on purpose: the
 * decoded `cluster.x-k8s.io/v1alpha2` Machine type, and plain parsed JSON, are assignable.
 */
export interface MachinePhaseSource {
  readonly metadata?: GoField<PhaseSourceMetadata>;
  readonly spec?: GoField<{
    readonly bootstrap?: GoField<{ readonly data?: GoField<string> }>;
  }>;
  readonly status?: GoField<{
    readonly phase?: GoField<string>;
    readonly bootstrapReady?: GoField<boolean>;
    readonly infrastructureReady?: GoField<boolean>;
    readonly nodeRef?: GoField<object>;
    readonly errorReason?: GoField<string>;
    readonly errorMessage?: GoField<string>;
  }>;
}

/** The inputs of the Machine phase rules, as the controller sees them when it computes the phase.
 * (A type alias rather than an interface: it needs the implicit index signature of `PhaseFacts`.)
 */
export type MachinePhaseFacts = {
  readonly bootstrapReady: boolean;
  readonly infrastructureReady: boolean;
  readonly nodeRefSet: boolean;
  readonly errorSet: boolean;
  readonly deletionRequested: boolean;
};

/**
 * Reads the rule inputs from a Machine, as they stand when the deferred phase step of the
 * next reconcile runs.
 *
 * One input is completed from the Machine itself: in the normal (not deleting) path,
 * `reconcileBootstrap` runs before the phase step and sets `status.bootstrapReady` as soon
 * as `spec.bootstrap.data` is non-nil (even `""`). The other inputs depend on objects this
 * function cannot see (bootstrap config, infrastructure machine, workload-cluster Node), so
 * they are taken as stored: the result is the phase of a reconcile in which none of those
 * objects has news.
 */
export function machinePhaseFacts(machine: MachinePhaseSource): MachinePhaseFacts {
  const status = machine.status ?? {};
  const deletionRequested = isDeletionRequested(machine.metadata?.deletionTimestamp);
  return {
    bootstrapReady:
      isTrue(status.bootstrapReady) || (!deletionRequested && isSetPointer(machine.spec?.bootstrap?.data)),
    infrastructureReady: isTrue(status.infrastructureReady),
    nodeRefSet: isSetPointer(status.nodeRef),
    errorSet: isSetPointer(status.errorReason) || isSetPointer(status.errorMessage),
    deletionRequested,
  };
}

/**
 * `reconcilePhase` of `controllers/machine_controller_phases.go` (CAPI v0.2.0 to v0.2.11),
 * in its order. Each rule that holds overwrites the earlier ones, so deleting beats failed,
 * which beats everything else; when no rule holds a non-empty stored phase is kept.
 */
export const machinePhaseRules: readonly PhaseRule<MachinePhaseFacts, MachinePhase>[] = [
  pendingRule(MachinePhase.pending),
  {
    id: 'provisioning',
    phase: MachinePhase.provisioning,
    condition: 'status.bootstrapReady and not status.infrastructureReady',
    holds: (f) => f.bootstrapReady && !f.infrastructureReady,
  },
  {
    id: 'provisioned',
    phase: MachinePhase.provisioned,
    condition: 'status.infrastructureReady',
    holds: (f) => f.infrastructureReady,
  },
  {
    id: 'running',
    phase: MachinePhase.running,
    condition: 'status.nodeRef is set and status.infrastructureReady',
    holds: (f) => f.nodeRefSet && f.infrastructureReady,
  },
  ...failedThenDeletingRules<MachinePhaseFacts, MachinePhase>(MachinePhase.failed, MachinePhase.deleting),
];

export type MachinePhaseDecision = PhaseDecision<MachinePhaseFacts, MachinePhase>;

const logic = phaseLogic(machinePhaseRules, machinePhaseFacts);

/** The phase the rules write for a stored phase and a set of inputs. */
export const decideMachinePhase = logic.decide;

/** Why the next reconcile writes the phase it writes: inputs, rules that held, the decider. */
export const explainMachinePhase = logic.explain;

/**
 * The `status.phase` the v1alpha2 Machine controller writes on its next reconcile. It is a
 * typed phase, or an unrecognised stored value written back because no rule fired.
 */
export const machinePhase = logic.phase;
