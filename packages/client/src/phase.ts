import {
  clusterPhase,
  type LaterPhaseContext,
  type LaterVersion,
  laterClusterPhase,
  laterMachinePhase,
  machinePhase,
  normalizeV1alpha1Phase,
} from '@capi-kit/core/phases';
import * as v1alpha1 from '@capi-kit/core/v1alpha1';
import * as v1alpha2 from '@capi-kit/core/v1alpha2';
import * as v1alpha3 from '@capi-kit/core/v1alpha3';
import * as v1alpha4 from '@capi-kit/core/v1alpha4';
import * as v1beta1 from '@capi-kit/core/v1beta1';
import * as v1beta2 from '@capi-kit/core/v1beta2';

type PhaseOf = (object: never, context: LaterPhaseContext) => string;

/** The stored `status.phase`, for what no single object decides. */
const storedPhase = (object: { status?: { phase?: unknown } }) =>
  typeof object.status?.phase === 'string' ? object.status.phase : '';

const LATER_VERSIONS: ReadonlyArray<readonly [string, LaterVersion]> = [
  [v1alpha3.APIVersion, 'v1alpha3'],
  [v1alpha4.APIVersion, 'v1alpha4'],
  [v1beta1.APIVersion, 'v1beta1'],
  [v1beta2.APIVersion, 'v1beta2'],
];

/**
 * How to read the phase of each kind at each version, with core's rules:
 * - v1alpha2 Machines and Clusters: the phase the v0.2 controllers compute (lowercase);
 * - v1alpha1: a Machine's free-text phase normalised; a Cluster has none (`""`, unknown);
 * - v1alpha3 … v1beta2 Machines and Clusters: the phase the version's `reconcilePhase`
 *   writes, computed from the object as the next reconcile sees it (core's per-version
 *   tables), so a reader never shows a phase the controller has not caught up with yet;
 *   except while reconciliation is paused, when the stored phase is what stands upstream;
 * - v1alpha3+ MachineDeployments: the stored phase. Upstream derives it from the owned
 *   MachineSets (replica sums, their failures), which one object cannot show.
 */
const PHASE_READERS: ReadonlyMap<string, PhaseOf> = new Map<string, PhaseOf>([
  [`${v1alpha2.APIVersion} Machine`, (m: v1alpha2.Machine) => machinePhase(m)],
  [`${v1alpha2.APIVersion} Cluster`, (c: v1alpha2.Cluster) => clusterPhase(c)],
  [`${v1alpha1.APIVersion} Machine`, (m: v1alpha1.Machine) => normalizeV1alpha1Phase(m.status?.phase).phase],
  [`${v1alpha1.APIVersion} Cluster`, () => ''],
  ...LATER_VERSIONS.flatMap(([apiVersion, version]): [string, PhaseOf][] => [
    [
      `${apiVersion} Machine`,
      (m: Parameters<typeof laterMachinePhase>[1], context) => laterMachinePhase(version, m, context),
    ],
    [`${apiVersion} Cluster`, (c: Parameters<typeof laterClusterPhase>[1]) => laterClusterPhase(version, c)],
    [`${apiVersion} MachineDeployment`, storedPhase],
  ]),
]);

/**
 * The phase of a decoded object of a known version and kind; `""` (unknown) otherwise.
 * `context.clusterPaused` says whether a Machine's Cluster is paused (v1alpha3+), which the
 * Machine alone cannot show: a paused Machine keeps its stored phase.
 */
export function phaseOf(
  object: { readonly apiVersion?: string; readonly kind?: string },
  context: LaterPhaseContext = {},
): string {
  const read = PHASE_READERS.get(`${object.apiVersion} ${object.kind}`);
  return read === undefined ? '' : read(object as never, context);
}
