/**
 * Where a Node leads: its Machine (by providerID identity, the failed-machine placeholder,
 * or the Node annotation), the MachineSet or MachineDeployment it scales with, and the
 * node group, with the reason when there is none. Pure: reads one Snapshot.
 */
import type { NodeGroup, NodeLike, NodeResolution } from './node-group.js';
import { type KubeObject, nameOf, namespaceOf, stringField, uidOf } from './objects.js';
import type { Snapshot } from './snapshot.js';

export function resolveNode(
  snapshot: Snapshot,
  groups: ReadonlyMap<string, NodeGroup>,
  input: NodeLike,
): NodeResolution {
  const nodeObject = typeof input === 'string' ? snapshot.nodeNamed(input) : input;
  const node = typeof input === 'string' ? input : nameOf(input);
  const providerID = stringField(nodeObject, 'spec', 'providerID') ?? '';
  const base = {
    node,
    nodeObject,
    providerID,
    machine: null,
    machineObject: undefined,
    matchedBy: null,
    owner: null,
    group: null,
    problems: [],
    ambiguous: [],
  };
  if (nodeObject === undefined)
    return {
      ...base,
      reason: snapshot.nodeNameIsAmbiguous(node)
        ? `Nodes of several workload clusters are named ${node}: ask with the Node object`
        : snapshot.scope === undefined
          ? `no Node named ${node} in the workload cluster`
          : `no Node named ${node} in the workload clusters reached (those of the node groups in scope)`,
    };
  const found = snapshot.machineOfNode(nodeObject);
  if (found.machine === undefined) {
    const ambiguous = (found.ambiguous ?? []).map((m) => `${namespaceOf(m)}/${nameOf(m)}`);
    return {
      ...base,
      ambiguous,
      reason:
        ambiguous.length > 0
          ? `providerID ${providerID} denotes ${ambiguous.length} machines`
          : (ofNoCluster(snapshot, node, nodeObject) ??
            found.refused ??
            (providerID.trim() === ''
              ? 'the Node has no providerID: as in cluster-autoscaler, it is no Machine’s (its annotations are not read)'
              : 'no Machine has this providerID (or one of the same instance), and no Machine annotation names one')),
    };
  }
  const machine = found.machine;
  const owner = snapshot.ownerOf(machine);
  const withMachine = {
    ...base,
    machine: { namespace: namespaceOf(machine), name: nameOf(machine) },
    machineObject: machine,
    matchedBy: found.matchedBy,
    problems: owner.problems,
  };
  if (owner.kind === undefined) return { ...withMachine, reason: 'the Machine belongs to no MachineSet' };
  const id = owner.groupId!;
  const ownerRef = { kind: owner.kind, namespace: owner.namespace!, name: owner.name! };
  const group = groups.get(id) ?? null;
  return {
    ...withMachine,
    owner: ownerRef,
    group,
    reason:
      group !== null
        ? null
        : `${owner.kind} ${owner.namespace}/${owner.name} is not a node group (no room to scale between ` +
          'its min and max annotations, 0 replicas, excluded by auto-discovery, or invalid bounds)',
  };
}

/**
 * Why a Node object of no reached workload cluster matched nothing, naming the clusters that
 * have a Node of its name; undefined when the Node is of one (or there is one cluster). A
 * Node matches only Machines of the cluster it was read from, and an object the caller
 * holds is known as that cluster's by its UID alone: by name, a Node of another cluster (or
 * one made up) would pass for it.
 */
function ofNoCluster(snapshot: Snapshot, node: string, nodeObject: KubeObject): string | undefined {
  const scope = snapshot.scope;
  if (scope === undefined || scope.nodeCluster(nodeObject) !== undefined) return undefined;
  const uid = uidOf(nodeObject);
  const what =
    uid === ''
      ? `Node ${node} was given without a uid, so which workload cluster it is of is unknown`
      : `Node ${node} (uid ${uid}) is not a Node read from one of the workload clusters`;
  const clusters = scope.clustersWithNodeNamed(node);
  const where =
    clusters.length === 0
      ? `no workload cluster reached has a Node named ${node}`
      : clusters.length === 1
        ? `the Node named ${node} is of workload cluster ${clusters[0]}: ask by name, or with the object read from it`
        : `Nodes named ${node} are of workload clusters ${clusters.join(', ')}: ask with the object read from one of them`;
  return `${what}, and a Node matches only Machines of its own cluster; ${where}`;
}

/** `groupOfNode`'s answer when the Node's providerID denotes several Machines. */
export const AMBIGUOUS_NODE: unique symbol = Symbol('ambiguous node');

/**
 * `resolveNode(...).group`, without the explanation: cluster-autoscaler asks for the group of
 * every Node on every loop, and the explanation (three objects and a reason string) cost
 * more than the lookups. The same steps in the same order as `resolveNode`; a test holds
 * the two to the same answer for every kind of Node.
 */
export function groupOfNode(
  snapshot: Snapshot,
  groups: ReadonlyMap<string, NodeGroup>,
  input: NodeLike,
): NodeGroup | null | typeof AMBIGUOUS_NODE {
  const nodeObject = typeof input === 'string' ? snapshot.nodeNamed(input) : input;
  if (nodeObject === undefined) return null;
  const found = snapshot.machineOfNode(nodeObject);
  if (found.machine === undefined) return (found.ambiguous?.length ?? 0) > 0 ? AMBIGUOUS_NODE : null;
  const groupId = snapshot.ownerOf(found.machine).groupId;
  return groupId === undefined ? null : (groups.get(groupId) ?? null);
}
