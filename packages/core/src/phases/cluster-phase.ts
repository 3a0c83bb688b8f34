import { phaseValues } from './phase-values.js';

/**
 * The v1alpha2 Cluster phase values (`api/v1alpha2/cluster_phase_types.go`, CAPI v0.2.x).
 *
 * Unlike a Machine, a Cluster has no `running` or `deleted` phase. `unknown` is the empty
 * string, as upstream `Cluster.Status.GetTypedPhase()` returns for anything unrecognised.
 */
export const ClusterPhase = {
  pending: 'pending',
  provisioning: 'provisioning',
  provisioned: 'provisioned',
  deleting: 'deleting',
  failed: 'failed',
  unknown: '',
} as const;
export type ClusterPhase = (typeof ClusterPhase)[keyof typeof ClusterPhase];

const values = phaseValues<ClusterPhase>(ClusterPhase, ClusterPhase.unknown);

/** Every ClusterPhase value, in the order the upstream file declares them. */
export const clusterPhases = values.all;

export const isClusterPhase = values.is;

/** The typed view of a stored Cluster `status.phase`: unrecognised values become `unknown`. */
export const typedClusterPhase = values.typed;
