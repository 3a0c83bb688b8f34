import {
  errorMoves,
  labelsMove,
  ownerAndFinalizerMoves,
  selectorMove,
  templateMoves,
} from './common-moves.js';
import type { KindTable } from './kind-table-type.js';

export const machineSetTable: KindTable = {
  kind: 'MachineSet',
  groups: [
    {
      at: '',
      moves: [
        labelsMove,
        ...ownerAndFinalizerMoves,
        selectorMove,
        ...errorMoves('an empty error string would read as an error in v1alpha2'),
        { v1alpha2: 'status.selector', note: 'no v1alpha1 field; the v1alpha2 controller sets it' },
      ],
    },
    // The machine template converts like a Machine: the same rows, one level down.
    { at: 'spec.template', moves: templateMoves },
  ],
  infrastructure: { role: 'template', at: 'spec.template', required: true },
};
