import { phaseValues } from './phase-values.js';

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

const values = phaseValues<MachinePhase>(MachinePhase, MachinePhase.unknown);

/** Every MachinePhase value, in the order the upstream file declares them. */
export const machinePhases = values.all;

export const isMachinePhase = values.is;

/**
 * The typed view of a stored `status.phase`, as upstream `Machine.Status.GetTypedPhase()`:
 * a recognised value as is, anything else (another spelling, another case, absent) as
 * `unknown`.
 */
export const typedMachinePhase = values.typed;
