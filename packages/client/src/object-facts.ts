import * as v1alpha1 from '@capi-kit/core/v1alpha1';
import * as v1alpha2 from '@capi-kit/core/v1alpha2';

// Facts read off Cluster API objects of any version, for indexes and describe. The label
// keys come from core's constants of each version: the cluster-name label moved group.

/** The cluster-name label of every version, newest first. */
export const CLUSTER_NAME_LABELS: readonly string[] = [
  v1alpha2.Labels.clusterName,
  v1alpha1.Labels.clusterName,
];

/** What every Kubernetes object has, as far as these helpers read it. */
export interface ObjectWithMeta {
  readonly apiVersion?: string;
  readonly kind?: string;
  readonly metadata?: {
    readonly name?: string;
    readonly namespace?: string;
    readonly uid?: string;
    readonly resourceVersion?: string;
    readonly labels?: Readonly<Record<string, string>> | null;
    readonly ownerReferences?: ReadonlyArray<{
      readonly apiVersion: string;
      readonly kind: string;
      readonly name: string;
      readonly uid: string;
      readonly controller?: boolean;
    }> | null;
  } | null;
}

/** `namespace/name`, the cache key of a namespaced object. */
export function objectKey(object: ObjectWithMeta): string {
  return `${object.metadata?.namespace ?? ''}/${object.metadata?.name ?? ''}`;
}

/**
 * The Cluster an object belongs to: a Cluster's own name; else `spec.clusterName` (later
 * versions); else the cluster-name label of either version.
 */
export function clusterNameOf(object: ObjectWithMeta): string | undefined {
  if (object.kind === 'Cluster') return object.metadata?.name;
  const spec = (object as { spec?: { clusterName?: unknown } }).spec;
  if (typeof spec?.clusterName === 'string' && spec.clusterName !== '') return spec.clusterName;
  const labels = object.metadata?.labels ?? {};
  for (const label of CLUSTER_NAME_LABELS) {
    const value = labels[label];
    if (typeof value === 'string' && value !== '') return value;
  }
  return undefined;
}

/** The UIDs of an object's owners. */
export function ownerUIDsOf(object: ObjectWithMeta): string[] {
  return (object.metadata?.ownerReferences ?? []).map((ref) => ref.uid).filter((uid) => uid !== '');
}

/** A Machine's `spec.providerID` (any version), when set. */
export function providerIDOf(object: unknown): string | undefined {
  const spec = (object as { spec?: { providerID?: unknown } } | undefined)?.spec;
  return typeof spec?.providerID === 'string' && spec.providerID !== '' ? spec.providerID : undefined;
}
