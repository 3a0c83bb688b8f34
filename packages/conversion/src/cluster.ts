import { errorMoves, labelsMove, ownerAndFinalizerMoves } from './common-moves.js';
import type { KindTable } from './kind-table.js';

/**
 * Cluster. `spec.clusterNetwork` has the same JSON in both versions, `serviceDomain`
 * included: upstream's generated conversion dropped it, this table keeps it by not moving it.
 */
export const clusterTable: KindTable = {
  kind: 'Cluster',
  groups: [
    {
      at: '',
      moves: [
        labelsMove,
        ...ownerAndFinalizerMoves,
        {
          v1alpha1: 'spec.providerSpec',
          note: 'replaced by spec.infrastructureRef, made by a provider plug-in',
        },
        { v1alpha2: 'spec.infrastructureRef', note: 'no v1alpha1 field (v1alpha1 used spec.providerSpec)' },
        { v1alpha2: 'spec.clusterNetwork.apiServerPort', note: 'no v1alpha1 field' },
        ...errorMoves(
          'an empty error string is "no error" in v1alpha1 but marks the Cluster failed in v1alpha2',
        ),
        {
          v1alpha1: 'status.providerStatus',
          note: 'no v1alpha2 field (the infrastructure object has its status)',
        },
        { v1alpha2: 'status.phase', note: 'no v1alpha1 field; the v1alpha2 controller computes it' },
        {
          v1alpha2: 'status.infrastructureReady',
          note: 'no v1alpha1 field; the v1alpha2 controller sets it',
        },
        {
          v1alpha2: 'status.controlPlaneInitialized',
          note: 'no v1alpha1 field; the v1alpha2 controller sets it',
        },
      ],
    },
  ],
  infrastructure: { role: 'cluster', at: '', required: false },
};
