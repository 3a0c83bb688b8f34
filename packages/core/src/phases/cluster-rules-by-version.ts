import { ClusterPhases } from '../api/v1beta2/constants.js';
import { deletingRule, failureRule, pendingRule } from './common-rules.js';
import {
  type GoField,
  isDeletionRequested,
  isSetPointer,
  isTrue,
  type PhaseSourceMetadata,
  storedPhase,
} from './inputs.js';
import type { LaterVersion } from './machine-rules-by-version.js';
import { isReconcilePaused, type PausableDecision, unlessPaused } from './paused.js';
import { applyPhaseRules, type PhaseRule, type PhaseValue } from './rules.js';

/**
 * The Cluster phase of `cluster.x-k8s.io` v1alpha3 to v1beta2, one rule table per version
 * (the `reconcilePhase`/`setPhase` of the release whose CRDs give the version's schema):
 *
 * - v1alpha3 (v0.3.25) and v1alpha4 (v0.4.8): Provisioning once `spec.infrastructureRef` is
 *   set; Provisioned once infrastructure is ready and `spec.controlPlaneEndpoint` is valid
 *   (host not empty, port not 0); Failed on a failure reason or message; Deleting last.
 * - v1beta1 (v1.10.10): Provisioning when either `infrastructureRef` or `controlPlaneRef`
 *   is set (v1.8+).
 * - v1beta2 (v1.14.0): readiness is `status.initialization.infrastructureProvisioned`; a
 *   reference counts when any of its fields is non-empty; there is no Failed rule.
 */

/** The Cluster phase values of v1alpha3 to v1beta2 (the set never changed). */
export type LaterClusterPhase = (typeof ClusterPhases)[number];
export const laterClusterPhases: readonly LaterClusterPhase[] = ClusterPhases;

/** A reference of any version's shape (ObjectReference, ContractVersionedObjectReference). */
type Reference = object;

/** The fields of a v1alpha3–v1beta2 Cluster that decide its phase (structural, as for Machines). */
export interface LaterClusterPhaseSource {
  readonly metadata?: GoField<PhaseSourceMetadata>;
  readonly spec?: GoField<{
    readonly paused?: GoField<boolean>;
    readonly infrastructureRef?: GoField<Reference>;
    readonly controlPlaneRef?: GoField<Reference>;
    readonly controlPlaneEndpoint?: GoField<{
      readonly host?: GoField<string>;
      readonly port?: GoField<number>;
    }>;
  }>;
  readonly status?: GoField<{
    readonly phase?: GoField<string>;
    readonly infrastructureReady?: GoField<boolean>;
    readonly initialization?: GoField<{ readonly infrastructureProvisioned?: GoField<boolean> }>;
    readonly failureReason?: GoField<string>;
    readonly failureMessage?: GoField<string>;
  }>;
}

/** The inputs of the later Cluster phase rules. */
export type LaterClusterPhaseFacts = {
  readonly infrastructureRefSet: boolean;
  readonly controlPlaneRefSet: boolean;
  readonly infrastructureReady: boolean;
  readonly controlPlaneEndpointValid: boolean;
  readonly failureSet: boolean;
  readonly deletionRequested: boolean;
};

/** `ContractVersionedObjectReference.IsDefined()`: any of apiGroup, kind, name non-empty. */
function isDefinedReference(ref: GoField<Reference>): boolean {
  const fields = (ref ?? {}) as Readonly<Record<string, unknown>>;
  return ['apiGroup', 'kind', 'name'].some((key) => typeof fields[key] === 'string' && fields[key] !== '');
}

/**
 * Reads the rule inputs from a Cluster as stored. Readiness and failures come from the
 * infrastructure and control-plane objects, which this function cannot see.
 */
export function laterClusterPhaseFacts(
  version: LaterVersion,
  cluster: LaterClusterPhaseSource,
): LaterClusterPhaseFacts {
  const spec = cluster.spec ?? {};
  const status = cluster.status ?? {};
  const endpoint = spec.controlPlaneEndpoint;
  const controlPlaneEndpointValid =
    typeof endpoint?.host === 'string' &&
    endpoint.host !== '' &&
    typeof endpoint.port === 'number' &&
    endpoint.port !== 0;
  const deletionRequested = isDeletionRequested(cluster.metadata?.deletionTimestamp);
  if (version === 'v1beta2') {
    return {
      infrastructureRefSet: isDefinedReference(spec.infrastructureRef),
      controlPlaneRefSet: isDefinedReference(spec.controlPlaneRef),
      infrastructureReady: isTrue(status.initialization?.infrastructureProvisioned),
      controlPlaneEndpointValid,
      failureSet: false,
      deletionRequested,
    };
  }
  return {
    infrastructureRefSet: isSetPointer(spec.infrastructureRef),
    controlPlaneRefSet: isSetPointer(spec.controlPlaneRef),
    infrastructureReady: isTrue(status.infrastructureReady),
    controlPlaneEndpointValid,
    failureSet: isSetPointer(status.failureReason) || isSetPointer(status.failureMessage),
    deletionRequested,
  };
}

type Rule = PhaseRule<LaterClusterPhaseFacts, LaterClusterPhase>;

const pending: Rule = pendingRule('Pending');
const provisioningByInfrastructure: Rule = {
  id: 'provisioning',
  phase: 'Provisioning',
  condition: 'spec.infrastructureRef is set',
  holds: (f) => f.infrastructureRefSet,
};
const provisioningByEitherRef: Rule = {
  id: 'provisioning',
  phase: 'Provisioning',
  condition: 'spec.infrastructureRef or spec.controlPlaneRef is set',
  holds: (f) => f.infrastructureRefSet || f.controlPlaneRefSet,
};
const provisioned: Rule = {
  id: 'provisioned',
  phase: 'Provisioned',
  condition: 'status.infrastructureReady and spec.controlPlaneEndpoint has a host and a port',
  holds: (f) => f.infrastructureReady && f.controlPlaneEndpointValid,
};
const failed: Rule = failureRule('Failed');
const deleting: Rule = deletingRule('Deleting');

/** The rule table of each version, in upstream order. */
export const laterClusterPhaseRules: Readonly<Record<LaterVersion, readonly Rule[]>> = {
  v1alpha3: [pending, provisioningByInfrastructure, provisioned, failed, deleting],
  v1alpha4: [pending, provisioningByInfrastructure, provisioned, failed, deleting],
  v1beta1: [pending, provisioningByEitherRef, provisioned, failed, deleting],
  v1beta2: [
    pending,
    provisioningByEitherRef,
    {
      ...provisioned,
      condition:
        'status.initialization.infrastructureProvisioned and spec.controlPlaneEndpoint has a host and a port',
    },
    deleting,
  ],
};

/** A decision, and whether reconciliation is paused (then no rule ran and the stored phase stands). */
export type LaterClusterPhaseDecision = PausableDecision<LaterClusterPhaseFacts, LaterClusterPhase>;

export function decideLaterClusterPhase(
  version: LaterVersion,
  previous: string,
  facts: LaterClusterPhaseFacts,
): LaterClusterPhaseDecision {
  return { ...applyPhaseRules(laterClusterPhaseRules[version], previous, facts), paused: false };
}

/** Why the next reconcile writes the phase it writes; a paused Cluster keeps its stored phase. */
export function explainLaterClusterPhase(
  version: LaterVersion,
  cluster: LaterClusterPhaseSource,
): LaterClusterPhaseDecision {
  return unlessPaused(
    isLaterClusterPaused(cluster),
    storedPhase(cluster.status?.phase),
    laterClusterPhaseFacts(version, cluster),
    (previous, facts) => decideLaterClusterPhase(version, previous, facts),
  );
}

/** Whether a Cluster pauses its own reconcile and its Machines' (`spec.paused` or the annotation). */
export function isLaterClusterPaused(cluster: LaterClusterPhaseSource): boolean {
  return isReconcilePaused(cluster.metadata, cluster.spec?.paused, {});
}

/** The `status.phase` the version's Cluster controller writes on its next reconcile. */
export function laterClusterPhase(
  version: LaterVersion,
  cluster: LaterClusterPhaseSource,
): PhaseValue<LaterClusterPhase> {
  return explainLaterClusterPhase(version, cluster).phase;
}
