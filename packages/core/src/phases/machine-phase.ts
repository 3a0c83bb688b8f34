/**
 * The v1alpha2 Machine phase values (`api/v1alpha2/machine_phase_types.go`, CAPI v0.2.x).
 *
 * All lowercase. `unknown` is the empty string: that is what upstream `GetTypedPhase()`
 * returns for a value it does not recognise, and what a new Machine carries before its
 * first reconcile.
 */
export const MachinePhase = {
  pending: 'pending',
  provisioning: 'provisioning',
  provisioned: 'provisioned',
  running: 'running',
  deleting: 'deleting',
  /** Defined upstream but never written by a v0.2 controller. */
  deleted: 'deleted',
  failed: 'failed',
  unknown: '',
} as const;
export type MachinePhase = (typeof MachinePhase)[keyof typeof MachinePhase];

/** Every MachinePhase value, in the order the upstream file declares them. */
export const machinePhases: readonly MachinePhase[] = Object.values(MachinePhase);

export function isMachinePhase(value: unknown): value is MachinePhase {
  return typeof value === 'string' && (machinePhases as readonly string[]).includes(value);
}

/**
 * The typed view of a stored `status.phase`, as upstream `Machine.Status.GetTypedPhase()`:
 * a recognised value as is, anything else (another spelling, another case, absent) as
 * `unknown`.
 */
export function typedMachinePhase(value: string | null | undefined): MachinePhase {
  return isMachinePhase(value) ? value : MachinePhase.unknown;
}
