import {
  errorMoves,
  machineSpecMoves,
  ownerAndFinalizerMoves,
  versionsDown,
  versionsUp,
} from './common-moves.js';
import type { KindTable } from './kind-table-type.js';
import type { FieldMove } from './moves.js';
import { phaseDown, phaseUp } from './phase.js';

/** Machine status rows. */
export const machineStatusMoves: readonly FieldMove[] = [
  {
    v1alpha1: 'status.versions',
    v1alpha2: 'status.version',
    up: versionsUp,
    down: versionsDown,
    note: 'observed versions.controlPlane (else kubelet) becomes version',
  },
  ...errorMoves('an empty error string would mark the Machine failed in v1alpha2'),
  {
    v1alpha1: 'status.phase',
    v1alpha2: 'status.phase',
    up: phaseUp,
    down: phaseDown,
    note: 'free-text phase mapped to the v1alpha2 vocabulary; unknown words are left for the controller',
  },
  { v1alpha1: 'status.providerStatus', note: 'no v1alpha2 field (the infrastructure object has its status)' },
  { v1alpha1: 'status.conditions', note: 'no v1alpha2 field (Node conditions live on the Node)' },
  { v1alpha1: 'status.lastOperation', note: 'no v1alpha2 field' },
  { v1alpha2: 'status.bootstrapReady', note: 'no v1alpha1 field; the v1alpha2 controller sets it' },
  { v1alpha2: 'status.infrastructureReady', note: 'no v1alpha1 field; the v1alpha2 controller sets it' },
];

export const machineTable: KindTable = {
  kind: 'Machine',
  groups: [{ at: '', moves: [...ownerAndFinalizerMoves, ...machineSpecMoves, ...machineStatusMoves] }],
  infrastructure: { role: 'machine', at: '', required: true },
};
