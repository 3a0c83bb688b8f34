import { normalizeV1alpha1Phase } from '@capi-kit/core/phases';
import type { Json } from './path.js';

/**
 * v1alpha1 `status.phase` was free text; v1alpha2 has a lowercase vocabulary. Going up the
 * core normaliser maps known words; anything else is dropped and left for the v1alpha2
 * controller to recompute (an unrecognised value would otherwise stick: `reconcilePhase`
 * only fills an empty phase). The original text survives in the stash.
 */
export function phaseUp(value: Json | undefined): Json | undefined {
  if (typeof value !== 'string') return undefined;
  const { phase } = normalizeV1alpha1Phase(value);
  return phase === '' ? undefined : phase;
}

/** Going down: the v1alpha2 word capitalised, as v1alpha1 providers wrote it ("Running"). */
export function phaseDown(value: Json | undefined): Json | undefined {
  if (typeof value !== 'string' || value === '') return undefined;
  return /^[a-z]+$/.test(value) ? `${value[0]!.toUpperCase()}${value.slice(1)}` : value;
}

/** True when a v1alpha1 phase will be dropped going up (the report warns about it). */
export function isUnknownV1alpha1Phase(value: unknown): boolean {
  return typeof value === 'string' && !normalizeV1alpha1Phase(value).recognised;
}
