import { clusterNameLabels, legacyCapiGroup } from './keys.js';
import { field, type KubeObject, labelsOf, stringMap } from './objects.js';

const legacyClusterNameLabel = `${legacyCapiGroup}/cluster-name`;

/**
 * The cluster a MachineSet or MachineDeployment of any version belongs to, as
 * cluster-autoscaler 1.20 finds it: `spec.clusterName` (v1alpha3+) when present, else the
 * `cluster.x-k8s.io/cluster-name` label, else `cluster.k8s.io/cluster-name`, else that
 * label on the machine template (v1alpha1 linked clusters that way). `''` when none.
 */
export function clusterNameOf(resource: KubeObject): string {
  const specName = field(resource, 'spec', 'clusterName');
  // Present but not a string: upstream's NestedString fails and it gives up with ''.
  if (specName !== undefined) return typeof specName === 'string' ? specName : '';
  const labels = labelsOf(resource);
  for (const label of clusterNameLabels) if (Object.hasOwn(labels, label)) return labels[label]!;
  const templateLabels = stringMap(field(resource, 'spec', 'template', 'metadata', 'labels'));
  return Object.hasOwn(templateLabels, legacyClusterNameLabel) ? templateLabels[legacyClusterNameLabel]! : '';
}
