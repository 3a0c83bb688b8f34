import { failedMachinePrefix } from './keys.js';
import { type KubeObject, nameOf, namespaceOf } from './objects.js';

/**
 * The instance ID cluster-autoscaler gives a Machine that failed before it got a
 * providerID, so the failure is visible to CA core (which then deletes it):
 * `failed-machine-<namespace>_<name>`.
 */
export function failedMachineProviderID(machine: KubeObject): string {
  return `${failedMachinePrefix}${namespaceOf(machine)}_${nameOf(machine)}`;
}

export function isFailedMachineProviderID(id: string): boolean {
  return id.startsWith(failedMachinePrefix);
}

/**
 * The `namespace/name` key of the Machine a placeholder stands for. Namespaces cannot
 * contain `_`, so the first one separates them; a name may (upstream's own test has one).
 */
export function machineKeyFromFailedProviderID(id: string): string {
  return id.slice(failedMachinePrefix.length).replace('_', '/');
}
