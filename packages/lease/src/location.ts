/**
 * Where a node's maintenance lease lives: its namespace and its name. The two presets are
 * the Node Maintenance Lease KEP's layout (namespace `kube-node-maintenance`, lease named
 * after the node) and medik8s' layout (`medik8s-leases`, lease `node-<node>`), so a process
 * using the medik8s preset coordinates with node-maintenance-operator and
 * node-healthcheck-operator on the same objects.
 */
export interface LeaseLocation {
  readonly namespace: string;
  /** The lease name for a node. */
  leaseName(node: string): string;
  /** The node a lease name belongs to, or undefined for a lease that is not a node lease. */
  nodeOf(leaseName: string): string | undefined;
}

export const defaultLeaseNamespace = 'kube-node-maintenance';
export const medik8sLeaseNamespace = 'medik8s-leases';
/**
 * Where kubelets keep their heartbeat Leases, one per node, named after the node: never a
 * maintenance lease namespace (the clients refuse it).
 */
export const kubeletHeartbeatNamespace = 'kube-node-lease';

/** The KEP layout: one lease per node, named after the node. */
export function nodeNamedLeases(namespace: string = defaultLeaseNamespace): LeaseLocation {
  return { namespace, leaseName: (node) => node, nodeOf: (name) => name };
}

/**
 * medik8s' layout: `strings.ToLower("node-" + name)` in `medik8s-leases`. Node names are
 * already lower-case DNS names, so lower-casing only matters for odd inputs.
 */
export function medik8sLeases(namespace: string = medik8sLeaseNamespace): LeaseLocation {
  return {
    namespace,
    leaseName: (node) => `node-${node}`.toLowerCase(),
    nodeOf: (name) => (name.startsWith('node-') ? name.slice('node-'.length) : undefined),
  };
}

const DNS1123_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;

/** A namespace name as the API server checks it (a DNS-1123 label). */
export function isDnsLabel(name: string): boolean {
  return name.length <= 63 && DNS1123_LABEL.test(name);
}

/** A node (or lease) name as the API server checks it (a DNS-1123 subdomain). */
export function isDnsSubdomain(name: string): boolean {
  return name.length <= 253 && name.split('.').every((part) => DNS1123_LABEL.test(part));
}
