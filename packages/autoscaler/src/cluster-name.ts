import { isPlainObject } from '@capi-kit/core/objects';
import { clusterNameLabels, legacyCapiGroup } from './keys.js';
import { field, goStringMap, type KubeObject } from './objects.js';

const legacyClusterNameLabel = `${legacyCapiGroup}/cluster-name`;

/**
 * The cluster a MachineSet or MachineDeployment of any version belongs to, as
 * cluster-autoscaler 1.20 finds it: `spec.clusterName` (v1alpha3+) when present, else the
 * `cluster.x-k8s.io/cluster-name` label, else `cluster.k8s.io/cluster-name`, else that
 * label on the machine template (v1alpha1 linked clusters that way). `''` when none.
 * Mistyped fields read as upstream's unstructured accessors read them: a spec that is no
 * object, or a `spec.clusterName` that is no string, gives `''`; labels with a value that
 * is no string are no labels.
 */
export function clusterNameOf(resource: KubeObject): string {
  // A spec that is there but no object (null is "not there"): upstream's NestedString fails
  // on it and gives up with ''.
  const spec = field(resource, 'spec');
  if (spec !== undefined && spec !== null && !isPlainObject(spec)) return '';
  const specName = field(resource, 'spec', 'clusterName');
  // Present but not a string: upstream's NestedString fails and it gives up with ''.
  if (specName !== undefined) return typeof specName === 'string' ? specName : '';
  // (as upstream's GetLabels and NestedStringMap: labels with a value that is not a string
  // are no labels)
  const labels = goStringMap(field(resource, 'metadata', 'labels'));
  for (const label of clusterNameLabels) if (Object.hasOwn(labels, label)) return labels[label]!;
  const templateLabels = goStringMap(field(resource, 'spec', 'template', 'metadata', 'labels'));
  return Object.hasOwn(templateLabels, legacyClusterNameLabel) ? templateLabels[legacyClusterNameLabel]! : '';
}
