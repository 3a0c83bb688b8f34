import { labelsMove, ownerAndFinalizerMoves, selectorMove, templateMoves } from './common-moves.js';
import type { KindTable } from './kind-table-type.js';

/** MachineDeployment: spec and status have the same JSON in both versions but for these rows. */
export const machineDeploymentTable: KindTable = {
  kind: 'MachineDeployment',
  groups: [
    {
      at: '',
      moves: [
        labelsMove,
        ...ownerAndFinalizerMoves,
        selectorMove,
        { v1alpha2: 'status.selector', note: 'no v1alpha1 field; the v1alpha2 controller sets it' },
      ],
    },
    { at: 'spec.template', moves: templateMoves },
  ],
  infrastructure: { role: 'template', at: 'spec.template', required: true },
};
