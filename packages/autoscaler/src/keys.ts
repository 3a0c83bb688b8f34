/**
 * The annotation and label keys cluster-autoscaler's clusterapi provider reads and writes,
 * and which of them each Cluster API version's controllers honour.
 */

/** The v0.2+ API group, `cluster.x-k8s.io`. */
export const capiGroup = 'cluster.x-k8s.io';
/** The v0.1 API group, `cluster.k8s.io`, whose keys CA 1.20 still reads as fallbacks. */
export const legacyCapiGroup = 'cluster.k8s.io';

/** The keys of one key group, as CA ≥ 1.23 derives them from `CAPI_GROUP`. */
export interface AutoscalerKeys {
  readonly minSizeAnnotation: string;
  readonly maxSizeAnnotation: string;
  readonly deleteMachineAnnotation: string;
  readonly machineAnnotation: string;
  readonly clusterNameLabel: string;
}

/** The keys under one group prefix (`cluster.x-k8s.io` unless given). */
export function autoscalerKeys(group: string = capiGroup): AutoscalerKeys {
  return {
    minSizeAnnotation: `${group}/cluster-api-autoscaler-node-group-min-size`,
    maxSizeAnnotation: `${group}/cluster-api-autoscaler-node-group-max-size`,
    deleteMachineAnnotation: `${group}/delete-machine`,
    machineAnnotation: `${group}/machine`,
    clusterNameLabel: `${group}/cluster-name`,
  };
}

const current = autoscalerKeys(capiGroup);
const legacy = autoscalerKeys(legacyCapiGroup);

/** Min size keys in the order CA 1.20 reads them: the first present one wins. */
export const minSizeAnnotations: readonly string[] = [current.minSizeAnnotation, legacy.minSizeAnnotation];
/** Max size keys in the order CA 1.20 reads them. */
export const maxSizeAnnotations: readonly string[] = [current.maxSizeAnnotation, legacy.maxSizeAnnotation];
/** Node annotations naming the Node's Machine, in the order they are read. */
export const machineAnnotations: readonly string[] = [current.machineAnnotation, legacy.machineAnnotation];
/** CAPI ≥ v0.3.15 writes only the Machine's name in `machine`; the namespace goes here. */
export const clusterNamespaceAnnotation = `${capiGroup}/cluster-namespace`;
/** Cluster-name labels in the order CA 1.20 reads them (`spec.clusterName` comes first). */
export const clusterNameLabels: readonly string[] = [current.clusterNameLabel, legacy.clusterNameLabel];

/**
 * Per served API version: the delete-mark keys that version's MachineSet controller reads
 * (reference §1.8). v0.1 and v0.2 read only `cluster.k8s.io/delete-machine` — v1alpha2's
 * godoc names `cluster.x-k8s.io/delete-machine`, but its delete policy never reads it — so
 * writing CA ≥ 1.23's key there lets CAPI pick a random victim after replicas drop. v0.3
 * reads either (v0.3.0–v0.3.3 only the old one), so both are written; v0.4+ reads the new
 * key only.
 */
export const deleteMachineAnnotationsByVersion: Readonly<Record<string, readonly string[]>> = {
  'cluster.k8s.io/v1alpha1': [legacy.deleteMachineAnnotation],
  'cluster.x-k8s.io/v1alpha2': [legacy.deleteMachineAnnotation],
  'cluster.x-k8s.io/v1alpha3': [current.deleteMachineAnnotation, legacy.deleteMachineAnnotation],
  'cluster.x-k8s.io/v1alpha4': [current.deleteMachineAnnotation],
  'cluster.x-k8s.io/v1beta1': [current.deleteMachineAnnotation],
  'cluster.x-k8s.io/v1beta2': [current.deleteMachineAnnotation],
};

/** Every delete-mark key any version reads: all of them are removed when unmarking. */
export const allDeleteMachineAnnotations: readonly string[] = [
  current.deleteMachineAnnotation,
  legacy.deleteMachineAnnotation,
];

/** The prefix of the instance ID given to a failed Machine without a providerID. */
export const failedMachinePrefix = 'failed-machine-';
