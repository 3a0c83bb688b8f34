import { MachinePhase } from './machine-phase.js';

/**
 * v1alpha1 `Machine.status.phase` was free text (PR #531 removed the typed constants before
 * merging) and no v0.1 core controller wrote it; providers chose their own words. This table
 * maps the spellings in use to v1alpha2 values. It is a recommendation, not upstream
 * behaviour: the upstream conversion copied the string verbatim.
 */
export const v1alpha1PhaseSpellings: readonly { readonly spelling: string; readonly phase: MachinePhase }[] =
  [
    { spelling: 'pending', phase: MachinePhase.pending },
    { spelling: 'provisioning', phase: MachinePhase.provisioning },
    { spelling: 'creating', phase: MachinePhase.provisioning },
    { spelling: 'provisioned', phase: MachinePhase.provisioned },
    { spelling: 'running', phase: MachinePhase.running },
    { spelling: 'deleting', phase: MachinePhase.deleting },
    { spelling: 'terminating', phase: MachinePhase.deleting },
    { spelling: 'failed', phase: MachinePhase.failed },
  ];

export interface NormalizedV1alpha1Phase {
  /** The v1alpha2 value; `unknown` (`""`) when there was no phase or it was not recognised. */
  readonly phase: MachinePhase;
  /**
   * False only when a non-blank value had no v1alpha2 meaning and was mapped to `unknown`,
   * i.e. when the value is lost; an absent or blank phase has nothing to lose and is true.
   */
  readonly recognised: boolean;
  /** The v1alpha1 value as given (undefined when absent). */
  readonly from: string | undefined;
}

const bySpelling = new Map(v1alpha1PhaseSpellings.map(({ spelling, phase }) => [spelling, phase]));

/**
 * Maps a v1alpha1 `status.phase` to a v1alpha2 Machine phase: case-insensitive, surrounding
 * white space ignored, anything not in `v1alpha1PhaseSpellings` becomes `unknown`.
 */
export function normalizeV1alpha1Phase(value: string | null | undefined): NormalizedV1alpha1Phase {
  const from = value ?? undefined;
  const word = (from ?? '').trim().toLowerCase();
  if (word === '') return { phase: MachinePhase.unknown, recognised: true, from };
  const phase = bySpelling.get(word);
  return phase === undefined
    ? { phase: MachinePhase.unknown, recognised: false, from }
    : { phase, recognised: true, from };
}
