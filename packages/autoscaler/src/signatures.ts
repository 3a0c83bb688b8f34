/**
 * The fields of each cached kind that the node-group view depends on. Caches compare an
 * update's signature with the old one and leave the view alone when it is unchanged: Node
 * heartbeats and Machine status churn arrive by the thousand in a large cluster, and a
 * rebuild per heartbeat would cost more than every question asked of the view.
 */
import { field, type KubeObject } from './objects.js';
import { failureFields } from './placeholders.js';

type Kind = 'Node' | 'Machine' | 'MachineSet' | 'MachineDeployment';

const metadata = [
  ['metadata', 'labels'],
  ['metadata', 'annotations'],
  ['metadata', 'ownerReferences'],
  ['metadata', 'uid'],
] as const;

/** Per kind, the field paths read by the Snapshot, resolveNode and the eligibility rules. */
const relevantFields: Readonly<Record<Kind, readonly (readonly string[])[]>> = {
  Node: [
    ['spec', 'providerID'],
    ['metadata', 'annotations'],
  ],
  Machine: [
    ...metadata,
    ['spec', 'providerID'],
    ['spec', 'clusterName'],
    ['status', 'nodeRef'],
    ...failureFields,
  ],
  MachineSet: [
    ...metadata,
    ['spec', 'replicas'],
    ['spec', 'clusterName'],
    ['spec', 'template', 'metadata', 'labels'],
  ],
  MachineDeployment: [
    ...metadata,
    ['spec', 'replicas'],
    ['spec', 'clusterName'],
    ['spec', 'template', 'metadata', 'labels'],
  ],
};

/** A string that changes whenever a field the view reads changes. */
export function signatureOf(kind: Kind, object: KubeObject): string {
  return JSON.stringify(relevantFields[kind].map((path) => field(object, ...path) ?? null));
}
