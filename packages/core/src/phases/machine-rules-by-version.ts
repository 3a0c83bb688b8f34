import { MachinePhases as v1beta1MachinePhases } from '../api/v1beta1/constants.js';
import { MachinePhases as v1beta2MachinePhases } from '../api/v1beta2/constants.js';
import { deletingRule, failureRule, pendingRule } from './common-rules.js';
import {
  type GoField,
  isDeletionRequested,
  isSetPointer,
  isTrue,
  type PhaseSourceMetadata,
  storedPhase,
} from './inputs.js';
import { isReconcilePaused, type LaterPhaseContext, type PausableDecision, unlessPaused } from './paused.js';
import { applyPhaseRules, type PhaseRule, type PhaseValue } from './rules.js';

/**
 * The Machine phase of `cluster.x-k8s.io` v1alpha3, v1alpha4, v1beta1 and v1beta2: one rule
 * table per version, each the `reconcilePhase` (later `setMachinePhaseAndLastUpdated`) of the
 * release whose CRDs capi-kit types that version from, in upstream order. As in v1alpha2,
 * every rule that holds overwrites the phase, so the last one wins, and when none holds the
 * stored phase is written back.
 *
 * - v1alpha3 (v0.3.25): Provisioned keys on `status.nodeRef`.
 * - v1alpha4 (v0.4.8) and v1beta1 (v1.10.10): Provisioned keys on `spec.providerID`.
 * - v1beta2 (v1.14.0): readiness comes from `status.initialization`; there is no Failed
 *   rule (terminal failures are gone); `Updating` (v1.12+) when the Updating condition is
 *   True, after Running and before Deleting.
 */

/** The versions with capitalised Machine phases. */
export type LaterVersion = 'v1alpha3' | 'v1alpha4' | 'v1beta1' | 'v1beta2';

/** The Machine phase values of v1alpha3 to v1beta1 (`Unknown` is what GetTypedPhase gives for anything else). */
export type LaterMachinePhase = (typeof v1beta2MachinePhases)[number];

/** The typed Machine phases of each version. */
export const laterMachinePhases: Readonly<Record<LaterVersion, readonly LaterMachinePhase[]>> = {
  v1alpha3: v1beta1MachinePhases,
  v1alpha4: v1beta1MachinePhases,
  v1beta1: v1beta1MachinePhases,
  v1beta2: v1beta2MachinePhases,
};

/** A condition as both CAPI's and metav1's shapes carry it: only type and status are read. */
interface ConditionLike {
  readonly type?: unknown;
  readonly status?: unknown;
}

/**
 * The fields of a v1alpha3–v1beta2 Machine that decide its phase. Structural: the decoded
 * types of every one of these versions, and plain parsed JSON, are assignable.
 */
export interface LaterMachinePhaseSource {
  readonly metadata?: GoField<PhaseSourceMetadata>;
  readonly spec?: GoField<{
    readonly bootstrap?: GoField<{ readonly dataSecretName?: GoField<string> }>;
    readonly providerID?: GoField<string>;
  }>;
  readonly status?: GoField<{
    readonly phase?: GoField<string>;
    readonly bootstrapReady?: GoField<boolean>;
    readonly infrastructureReady?: GoField<boolean>;
    readonly initialization?: GoField<{
      readonly bootstrapDataSecretCreated?: GoField<boolean>;
      readonly infrastructureProvisioned?: GoField<boolean>;
    }>;
    readonly nodeRef?: GoField<{ readonly name?: GoField<string> }>;
    readonly failureReason?: GoField<string>;
    readonly failureMessage?: GoField<string>;
    readonly conditions?: GoField<readonly ConditionLike[]>;
  }>;
}

/** The inputs of the later Machine phase rules (a type alias: `PhaseFacts` needs its index signature). */
export type LaterMachinePhaseFacts = {
  readonly bootstrapReady: boolean;
  readonly infrastructureReady: boolean;
  readonly nodeRefSet: boolean;
  readonly providerIDSet: boolean;
  readonly failureSet: boolean;
  readonly updating: boolean;
  readonly deletionRequested: boolean;
};

function conditionIsTrue(conditions: GoField<readonly ConditionLike[]>, type: string): boolean {
  return (conditions ?? []).some((c) => c?.type === type && c.status === 'True');
}

/**
 * Reads the rule inputs as they stand when the phase step of the next reconcile runs. As for
 * v1alpha2, one input is completed from the Machine itself: outside deletion,
 * `reconcileBootstrap` runs first and marks bootstrap ready as soon as
 * `spec.bootstrap.dataSecretName` is set. Everything that comes from other objects
 * (bootstrap config, infrastructure machine, Node) is taken as stored.
 */
export function laterMachinePhaseFacts(
  version: LaterVersion,
  machine: LaterMachinePhaseSource,
): LaterMachinePhaseFacts {
  const status = machine.status ?? {};
  const deletionRequested = isDeletionRequested(machine.metadata?.deletionTimestamp);
  const bootstrapDataSet = !deletionRequested && isSetPointer(machine.spec?.bootstrap?.dataSecretName);
  if (version === 'v1beta2') {
    const initialization = status.initialization ?? {};
    return {
      bootstrapReady: isTrue(initialization.bootstrapDataSecretCreated) || bootstrapDataSet,
      infrastructureReady: isTrue(initialization.infrastructureProvisioned),
      // v1beta2 references are values: "defined" means a non-empty name / providerID.
      nodeRefSet: typeof status.nodeRef?.name === 'string' && status.nodeRef.name !== '',
      providerIDSet: typeof machine.spec?.providerID === 'string' && machine.spec.providerID !== '',
      failureSet: false,
      updating: conditionIsTrue(status.conditions, 'Updating'),
      deletionRequested,
    };
  }
  return {
    bootstrapReady: isTrue(status.bootstrapReady) || bootstrapDataSet,
    infrastructureReady: isTrue(status.infrastructureReady),
    nodeRefSet: isSetPointer(status.nodeRef),
    providerIDSet: isSetPointer(machine.spec?.providerID),
    failureSet: isSetPointer(status.failureReason) || isSetPointer(status.failureMessage),
    updating: false,
    deletionRequested,
  };
}

type Rule = PhaseRule<LaterMachinePhaseFacts, LaterMachinePhase>;

const pending: Rule = pendingRule('Pending');
const provisioning: Rule = {
  id: 'provisioning',
  phase: 'Provisioning',
  condition: 'status.bootstrapReady and not status.infrastructureReady',
  holds: (f) => f.bootstrapReady && !f.infrastructureReady,
};
const running: Rule = {
  id: 'running',
  phase: 'Running',
  condition: 'status.nodeRef is set and status.infrastructureReady',
  holds: (f) => f.nodeRefSet && f.infrastructureReady,
};
const failed: Rule = failureRule('Failed');
const deleting: Rule = deletingRule('Deleting');
const provisionedByProviderID: Rule = {
  id: 'provisioned',
  phase: 'Provisioned',
  condition: 'spec.providerID is set',
  holds: (f) => f.providerIDSet,
};

/** The rule table of each version, in upstream order. */
export const laterMachinePhaseRules: Readonly<Record<LaterVersion, readonly Rule[]>> = {
  v1alpha3: [
    pending,
    provisioning,
    {
      id: 'provisioned',
      phase: 'Provisioned',
      condition: 'status.nodeRef is set',
      holds: (f) => f.nodeRefSet,
    },
    running,
    failed,
    deleting,
  ],
  v1alpha4: [pending, provisioning, provisionedByProviderID, running, failed, deleting],
  v1beta1: [pending, provisioning, provisionedByProviderID, running, failed, deleting],
  v1beta2: [
    pending,
    {
      ...provisioning,
      condition:
        'status.initialization.bootstrapDataSecretCreated and not status.initialization.infrastructureProvisioned',
    },
    { ...provisionedByProviderID, condition: 'spec.providerID is not empty' },
    {
      ...running,
      condition: 'status.nodeRef.name is not empty and status.initialization.infrastructureProvisioned',
    },
    {
      id: 'updating',
      phase: 'Updating',
      condition: 'the Updating condition is True',
      holds: (f) => f.updating,
    },
    deleting,
  ],
};

/** A decision, and whether reconciliation is paused (then no rule ran and the stored phase stands). */
export type LaterMachinePhaseDecision = PausableDecision<LaterMachinePhaseFacts, LaterMachinePhase>;

/** The phase the version's rules write for a stored phase and a set of inputs. */
export function decideLaterMachinePhase(
  version: LaterVersion,
  previous: string,
  facts: LaterMachinePhaseFacts,
): LaterMachinePhaseDecision {
  return { ...applyPhaseRules(laterMachinePhaseRules[version], previous, facts), paused: false };
}

/**
 * Why the next reconcile writes the phase it writes. `context.clusterPaused` says whether the
 * Machine's Cluster is paused, which the Machine cannot show; a paused Machine keeps its
 * stored phase (see paused.ts).
 */
export function explainLaterMachinePhase(
  version: LaterVersion,
  machine: LaterMachinePhaseSource,
  context: LaterPhaseContext = {},
): LaterMachinePhaseDecision {
  return unlessPaused(
    isReconcilePaused(machine.metadata, undefined, context),
    storedPhase(machine.status?.phase),
    laterMachinePhaseFacts(version, machine),
    (previous, facts) => decideLaterMachinePhase(version, previous, facts),
  );
}

/** The `status.phase` the version's Machine controller writes on its next reconcile. */
export function laterMachinePhase(
  version: LaterVersion,
  machine: LaterMachinePhaseSource,
  context: LaterPhaseContext = {},
): PhaseValue<LaterMachinePhase> {
  return explainLaterMachinePhase(version, machine, context).phase;
}
