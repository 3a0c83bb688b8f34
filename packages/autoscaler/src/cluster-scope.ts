/**
 * With several workload clusters (`'from-secret'`), which cluster a Node was read from and
 * which cluster a Machine's Node must live in. A Node is matched only to Machines of its own
 * cluster: the Nodes of one workload cluster are written by whoever administers it, and a
 * Node there that copies another cluster's providerID, or names another cluster's Machine in
 * its annotation, must not lead to that Machine (and so to scaling it down).
 */
import { type KubeObject, nameOf, uidOf } from './objects.js';

export interface ClusterScope {
  /** The cluster a Node was read from; undefined for a Node of no cached cluster. */
  nodeCluster(node: KubeObject): string | undefined;
  /** The cluster a Machine's Node lives in. */
  machineCluster(machine: KubeObject): string;
  /** The clusters that have a cached Node of this name (to explain a Node of no cluster). */
  clustersWithNodeNamed(name: string): readonly string[];
}

/**
 * The scope of the cached Nodes (`cluster` is their workload cluster's key). A Node object
 * the caller holds (not the cached one) is recognised by its UID; one that matches no cached
 * Node, or several, belongs to no cluster, and so matches no Machine.
 */
export function clusterScope(
  nodes: readonly { readonly node: KubeObject; readonly cluster: string }[],
  machineCluster: (machine: KubeObject) => string,
): ClusterScope {
  const byObject = new Map<KubeObject, string>();
  const byUid = new Map<string, string | undefined>();
  const byName = new Map<string, string[]>();
  for (const { node, cluster } of nodes) {
    byObject.set(node, cluster);
    const name = nameOf(node);
    const clusters = byName.get(name);
    if (clusters === undefined) byName.set(name, [cluster]);
    else if (!clusters.includes(cluster)) clusters.push(cluster);
    const uid = uidOf(node);
    if (uid !== '') byUid.set(uid, byUid.has(uid) ? undefined : cluster);
  }
  return {
    nodeCluster: (node) => byObject.get(node) ?? (uidOf(node) === '' ? undefined : byUid.get(uidOf(node))),
    machineCluster,
    clustersWithNodeNamed: (name) => byName.get(name) ?? [],
  };
}

/** Whether `machine` may be `node`'s Machine: always, with one workload cluster (no scope). */
export function inNodeCluster(
  scope: ClusterScope | undefined,
  node: KubeObject,
  machine: KubeObject,
): boolean {
  if (scope === undefined) return true;
  const cluster = scope.nodeCluster(node);
  return cluster !== undefined && cluster === scope.machineCluster(machine);
}
