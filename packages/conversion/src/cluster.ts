import { errorMoves, labelsMove, ownerAndFinalizerMoves } from './common-moves.js';
import type { KindTable } from './kind-table-type.js';
import { isObject, type Json } from './path.js';

/**
 * v1alpha1 requires `spec.clusterNetwork` with `services`, `pods` and `serviceDomain`
 * (Go always wrote the value struct); v1alpha2 made all of it optional. Going down, missing
 * parts are written empty. Lossless all the same: the stash records they were absent.
 */
function requiredClusterNetwork(value: Json | undefined): Json {
  const network = isObject(value) ? value : {};
  const ranges = (r: Json | undefined): Json =>
    isObject(r) ? (r.cidrBlocks === undefined ? { ...r, cidrBlocks: [] } : r) : { cidrBlocks: [] };
  return {
    ...network,
    services: ranges(network.services),
    pods: ranges(network.pods),
    serviceDomain: network.serviceDomain ?? '',
  };
}

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
        {
          v1alpha1: 'spec.clusterNetwork',
          v1alpha2: 'spec.clusterNetwork',
          evenIfAbsent: 'down',
          down: requiredClusterNetwork,
          note: 'v1alpha1 requires services, pods and serviceDomain; missing parts are written empty',
        },
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
