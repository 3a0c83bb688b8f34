import { failedMachinePrefix } from './keys.js';
import { type KubeObject, nameOf, namespaceOf, stringField } from './objects.js';

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

// Failure fields: v1alpha3–v1beta1, then v1alpha1/v1alpha2's names for the same thing,
// then v1beta2's (moved under status.deprecated.v1beta1).
export const failureFields: readonly (readonly string[])[] = [
  ['status', 'failureMessage'],
  ['status', 'failureReason'],
  ['status', 'errorMessage'],
  ['status', 'errorReason'],
  ['status', 'deprecated', 'v1beta1', 'failureMessage'],
  ['status', 'deprecated', 'v1beta1', 'failureReason'],
];
/** Whether a Machine reports a failure: it then gets a placeholder when it has no providerID. */
export const hasFailed = (machine: KubeObject) =>
  failureFields.some((path) => (stringField(machine, ...path) ?? '') !== '');
