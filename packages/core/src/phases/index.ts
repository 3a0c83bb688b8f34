/**
 * `@capi-kit/core/phases`: the v1alpha2 Machine and Cluster phase logic of CAPI v0.2.x,
 * with its exact rule precedence, a state-machine view derived from the rules, transition
 * checks, and the v1alpha1 free-text phase normaliser; and the capitalised phases of
 * v1alpha3, v1alpha4, v1beta1 and v1beta2, one rule table per version
 * (`laterMachinePhaseRules[version]`, `laterMachinePhase(version, machine)`, ...).
 * See docs/phases.md.
 */
export { ClusterPhase, clusterPhases, isClusterPhase, typedClusterPhase } from './cluster-phase.js';
export {
  type ClusterPhaseDecision,
  type ClusterPhaseFacts,
  type ClusterPhaseSource,
  clusterPhase,
  clusterPhaseFacts,
  clusterPhaseRules,
  decideClusterPhase,
  explainClusterPhase,
} from './cluster-rules.js';
export {
  decideLaterClusterPhase,
  explainLaterClusterPhase,
  isLaterClusterPaused,
  type LaterClusterPhase,
  type LaterClusterPhaseDecision,
  type LaterClusterPhaseFacts,
  type LaterClusterPhaseSource,
  laterClusterPhase,
  laterClusterPhaseFacts,
  laterClusterPhaseRules,
  laterClusterPhases,
} from './cluster-rules-by-version.js';
export {
  type ClusterEvent,
  checkClusterTransition,
  clusterEvents,
  clusterPhaseModel,
  clusterStateMachine,
} from './cluster-state-machine.js';
export { phaseDiagram } from './diagram.js';
export { isMachinePhase, MachinePhase, machinePhases, typedMachinePhase } from './machine-phase.js';
export {
  decideMachinePhase,
  explainMachinePhase,
  type MachinePhaseDecision,
  type MachinePhaseFacts,
  type MachinePhaseSource,
  machinePhase,
  machinePhaseFacts,
  machinePhaseRules,
} from './machine-rules.js';
export {
  decideLaterMachinePhase,
  explainLaterMachinePhase,
  type LaterMachinePhase,
  type LaterMachinePhaseDecision,
  type LaterMachinePhaseFacts,
  type LaterMachinePhaseSource,
  type LaterVersion,
  laterMachinePhase,
  laterMachinePhaseFacts,
  laterMachinePhaseRules,
  laterMachinePhases,
} from './machine-rules-by-version.js';
export {
  checkMachineTransition,
  type MachineEvent,
  machineEvents,
  machinePhaseModel,
  machineStateMachine,
} from './machine-state-machine.js';
export type { LaterPhaseContext } from './paused.js';
export type { PhaseDecision, PhaseFacts, PhaseRule, PhaseValue } from './rules.js';
export type {
  FactDescription,
  PhaseEvent,
  PhaseModel,
  PhaseStateMachine,
  PhaseTransition,
  TransitionCheck,
  TransitionCheckOptions,
  TransitionHistory,
} from './state-machine.js';
export {
  type NormalizedV1alpha1Phase,
  normalizeV1alpha1Phase,
  v1alpha1PhaseSpellings,
} from './v1alpha1-phase.js';
