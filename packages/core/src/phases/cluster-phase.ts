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

/** Every ClusterPhase value, in the order the upstream file declares them. */
export const clusterPhases: readonly ClusterPhase[] = Object.values(ClusterPhase);

export function isClusterPhase(value: unknown): value is ClusterPhase {
  return typeof value === 'string' && (clusterPhases as readonly string[]).includes(value);
}

/** The typed view of a stored Cluster `status.phase`: unrecognised values become `unknown`. */
export function typedClusterPhase(value: string | null | undefined): ClusterPhase {
  return isClusterPhase(value) ? value : ClusterPhase.unknown;
}
