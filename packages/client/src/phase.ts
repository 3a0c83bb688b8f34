import { clusterPhase, machinePhase, normalizeV1alpha1Phase } from '@capi-kit/core/phases';
import * as v1alpha1 from '@capi-kit/core/v1alpha1';
import * as v1alpha2 from '@capi-kit/core/v1alpha2';
import { API_VERSIONS } from './resources.js';

type PhaseOf = (object: never) => string;

/** Later versions: core has no phase rules for them yet, so the stored `status.phase` as written. */
const storedPhase = (object: { status?: { phase?: unknown } }) =>
  typeof object.status?.phase === 'string' ? object.status.phase : '';
const LATER_VERSIONS = API_VERSIONS.map((row) => row.apiVersion).filter(
  (v) => v !== v1alpha1.APIVersion && v !== v1alpha2.APIVersion,
);

/**
 * How to read the phase of a Machine or Cluster at each version, with core's rules:
 * v1alpha2 phases as the v0.2 controllers compute them (lowercase); a v1alpha1 Machine's
 * free-text phase normalised; a v1alpha1 Cluster has none (`""`, unknown); later versions
 * (v1alpha3 … v1beta2) their stored phase, until core has their rules.
 */
const PHASE_READERS: ReadonlyMap<string, PhaseOf> = new Map<string, PhaseOf>([
  [`${v1alpha2.APIVersion} Machine`, (m: v1alpha2.Machine) => machinePhase(m)],
  [`${v1alpha2.APIVersion} Cluster`, (c: v1alpha2.Cluster) => clusterPhase(c)],
  [`${v1alpha1.APIVersion} Machine`, (m: v1alpha1.Machine) => normalizeV1alpha1Phase(m.status?.phase).phase],
  [`${v1alpha1.APIVersion} Cluster`, () => ''],
  ...LATER_VERSIONS.flatMap((v): [string, PhaseOf][] => [
    [`${v} Machine`, storedPhase],
    [`${v} Cluster`, storedPhase],
  ]),
]);

/** The phase of a decoded Machine or Cluster of a known version; `""` (unknown) otherwise. */
export function phaseOf(object: { readonly apiVersion?: string; readonly kind?: string }): string {
  const read = PHASE_READERS.get(`${object.apiVersion} ${object.kind}`);
  return read === undefined ? '' : read(object as never);
}
