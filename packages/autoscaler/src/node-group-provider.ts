/**
 * `createNodeGroupProvider`: cluster-autoscaler's clusterapi CloudProvider as a library.
 * Caches Machines, MachineSets and MachineDeployments of the management cluster and the
 * Nodes of the workload cluster(s); answers which node groups exist and which group a
 * Node is in from those caches; reads and writes replicas and machines on the server.
 */

import { type LeaseLocation, medik8sLeases, nodeNamedLeases } from '@capi-kit/lease';
import { type ProviderIDRegistry, providerIDRegistry } from '@capi-kit/providerid';
import type { KubeConfig } from '@kubernetes/client-node';
import { type AutoDiscoverySpec, parseAutoDiscovery } from './auto-discovery.js';
import type { TemplateStatus } from './capacity.js';
import { forEachAtMost } from './concurrency.js';
import { NodeGroupError } from './errors.js';
import { type ResourceCache, startCapiCache } from './informer.js';
import { infrastructureRefOf, templateKeyOf } from './infrastructure-template.js';
import { deleteMachineAnnotationsByVersion, legacyCapiGroup } from './keys.js';
import { type CapiApi, ManagementApi, resolveCapiApi, statusOf } from './management-api.js';
import {
  NodeGroup,
  type NodeGroupContext,
  type NodeLike,
  type NodeResolution,
  readTemplateStatus,
  type TemplateRead,
} from './node-group.js';
import { type KubeObject, nameOf, namespaceOf } from './objects.js';
import { AMBIGUOUS_NODE, groupOfNode, resolveNode } from './resolve-node.js';
import { type Problem, Snapshot } from './snapshot.js';
import { type WorkloadOption, Workloads } from './workloads.js';

export interface LeaseGuardOptions {
  /** The lease namespace (default: the layout's, `kube-node-maintenance` for the KEP layout). */
  readonly namespace?: string;
  /** Lease names: `kep` (named after the node, default), `medik8s` (`node-<node>`), or your own. */
  readonly layout?: 'kep' | 'medik8s' | LeaseLocation;
}

export interface NodeGroupProviderOptions {
  /** The management cluster: where the Machines, MachineSets and MachineDeployments are. */
  readonly management: KubeConfig;
  /**
   * Where the Nodes are: the management cluster when omitted (a joined cluster), this
   * cluster, or `'from-secret'` for each Cluster's own, read from its `<cluster>-kubeconfig`
   * Secret (key `value`) in the management cluster.
   */
  readonly workload?: WorkloadOption;
  /** `clusterapi:namespace=…,clusterName=…,label=value` specs, OR-ed; none admits everything. */
  readonly autoDiscovery?: readonly string[];
  /**
   * The maintenance-lease guard, on by default: a node whose lease (read in the node's own
   * cluster) is held or reserved is never deleted, and `nodes()` reports it.
   */
  readonly leaseGuard?: boolean | LeaseGuardOptions;
  /** Pin the Cluster API version (`cluster.x-k8s.io/v1alpha2`, `cluster.k8s.io/v1alpha1`, …). */
  readonly apiVersion?: string;
  /** The providerID grammars that decide instance identity (default: every cloud). */
  readonly registry?: ProviderIDRegistry;
}

export interface NodeGroupProvider {
  /** The Cluster API version in use, e.g. `cluster.x-k8s.io/v1alpha2`. */
  readonly apiVersion: string;
  /** Whether that version serves MachineDeployments (otherwise only MachineSets are groups). */
  readonly machineDeployments: boolean;
  /**
   * Every node group. Throws a NodeGroupError (`invalid-scaling-bounds`) when a candidate
   * resource's bounds do not parse, as cluster-autoscaler refuses to list groups then.
   */
  nodeGroups(): NodeGroup[];
  /** The group of a Node (object or name), or null. Throws when its ID denotes several machines. */
  nodeGroupForNode(node: NodeLike): NodeGroup | null;
  /** How a Node was resolved: machine, match rule, owner, group, problems on the way. */
  explainNode(node: NodeLike): NodeResolution;
  /** Stale owner UIDs, missing owners, invalid bounds, unreachable workload clusters. */
  problems(): Problem[];
  /** Rebuilds the view from the caches (and, with `'from-secret'`, reaches new clusters). */
  refresh(): Promise<void>;
  stop(): Promise<void>;
}

function leaseLocationOf(guard: NodeGroupProviderOptions['leaseGuard']): LeaseLocation | undefined {
  if (guard === false) return undefined;
  const options = guard === true || guard === undefined ? {} : guard;
  const layout = options.layout ?? 'kep';
  if (typeof layout !== 'string') return layout;
  return layout === 'medik8s' ? medik8sLeases(options.namespace) : nodeNamedLeases(options.namespace);
}

/** The delete keys of a version; an unknown later version of the new group reads the new key. */
function deleteAnnotationsFor(capi: CapiApi): readonly string[] {
  return (
    deleteMachineAnnotationsByVersion[capi.apiVersion] ??
    (capi.group === legacyCapiGroup
      ? deleteMachineAnnotationsByVersion['cluster.k8s.io/v1alpha1']!
      : deleteMachineAnnotationsByVersion['cluster.x-k8s.io/v1beta1']!)
  );
}

class Provider implements NodeGroupProvider {
  #snapshot: Snapshot | undefined;
  #groups = new Map<string, NodeGroup>();
  #queue: Promise<unknown> = Promise.resolve();
  readonly #context: NodeGroupContext;
  /** The infrastructure templates of the groups at zero that need one, as the last refresh read them. */
  #templates = new Map<string, { readonly object: string; readonly read: TemplateRead }>();

  constructor(
    readonly capi: CapiApi,
    readonly api: ManagementApi,
    readonly caches: {
      machines: ResourceCache<KubeObject>;
      machineSets: ResourceCache<KubeObject>;
      machineDeployments: ResourceCache<KubeObject> | undefined;
    },
    readonly workloads: Workloads,
    readonly autoDiscovery: readonly AutoDiscoverySpec[],
    readonly registry: ProviderIDRegistry,
  ) {
    this.#context = {
      api,
      deleteAnnotations: deleteAnnotationsFor(capi),
      snapshot: () => this.#current(),
      resolve: (node) => this.explainNode(node),
      leasesFor: (machine) => this.workloads.forMachine(machine)?.leases,
      exclusive: (work) => {
        const run = this.#queue.then(work, work);
        this.#queue = run.catch(() => {});
        return run;
      },
    };
  }

  get apiVersion() {
    return this.capi.apiVersion;
  }

  get machineDeployments() {
    return this.capi.machineDeployments;
  }

  /** Marks the view stale; it is rebuilt on the next question. */
  invalidate(): void {
    this.#snapshot = undefined;
  }

  #current(): Snapshot {
    if (this.#snapshot !== undefined) return this.#snapshot;
    const snapshot = new Snapshot({
      machines: this.caches.machines.list(),
      machineSets: this.caches.machineSets.list(),
      machineDeployments: this.caches.machineDeployments?.list(),
      autoDiscovery: this.autoDiscovery,
      registry: this.registry,
      nodes: this.workloads.all().flatMap((w) => w.nodes.list()),
      scope: this.workloads.scope(),
      templateStatus: (resource) => this.#templateStatusOf(resource),
    });
    // Keep a group's object across rebuilds while its bounds are unchanged.
    const groups = new Map<string, NodeGroup>();
    for (const [id, entry] of snapshot.groups) {
      const old = this.#groups.get(id);
      groups.set(
        id,
        old && old.minSize === entry.bounds.min && old.maxSize === entry.bounds.max
          ? old
          : new NodeGroup(entry, this.#context),
      );
    }
    this.#groups = groups;
    this.#snapshot = snapshot;
    return snapshot;
  }

  #templateStatusOf(resource: KubeObject): TemplateStatus | null {
    if (this.#templates.size === 0) return null;
    const ref = infrastructureRefOf(resource);
    if (ref._tag === 'Left' || ref.right === null) return null;
    const read = this.#templates.get(templateKeyOf(ref.right))?.read;
    return read?.state === 'found' ? read.status : null;
  }

  /**
   * Reads the infrastructure templates of the resources at zero replicas whose annotations
   * give no cpu and memory (whether they are groups depends on them), at most 8 at once.
   * True when what is known changed.
   */
  async #readTemplates(snapshot: Snapshot): Promise<boolean> {
    const wanted = new Map<string, { kind: 'MachineSet' | 'MachineDeployment'; resource: KubeObject }>();
    for (const candidate of snapshot.templateCandidates) {
      const ref = infrastructureRefOf(candidate.resource, candidate.kind);
      if (ref._tag === 'Right' && ref.right !== null) wanted.set(templateKeyOf(ref.right), candidate);
    }
    if (wanted.size === 0 && this.#templates.size === 0) return false;
    const templates = new Map<string, { readonly object: string; readonly read: TemplateRead }>();
    await forEachAtMost(wanted, 8, async ([key, { kind, resource }]) => {
      const read = await readTemplateStatus(this.api, kind, resource);
      templates.set(key, { object: `${kind} ${namespaceOf(resource)}/${nameOf(resource)}`, read });
    });
    this.#templates = templates;
    return true;
  }

  nodeGroups(): NodeGroup[] {
    const snapshot = this.#current();
    if (snapshot.boundsErrors.length > 0) {
      const [first] = snapshot.boundsErrors;
      const more = snapshot.boundsErrors.length > 1 ? ` (and ${snapshot.boundsErrors.length - 1} more)` : '';
      throw new NodeGroupError('invalid-scaling-bounds', `${first!.message}${more}`, { path: first!.path });
    }
    return [...this.#groups.values()];
  }

  nodeGroupForNode(node: NodeLike): NodeGroup | null {
    const snapshot = this.#current();
    const group = groupOfNode(snapshot, this.#groups, node);
    if (group !== AMBIGUOUS_NODE) return group;
    const resolution = resolveNode(snapshot, this.#groups, node);
    // (upstream's message, from the explanation: the rare path pays for it)
    throw new NodeGroupError(
      'ambiguous-machine',
      `internal error; expected len==1, got ${resolution.ambiguous.length}: node ${resolution.node} ` +
        `denotes machines ${resolution.ambiguous.join(', ')}`,
      { node: resolution.node },
    );
  }

  explainNode(input: NodeLike): NodeResolution {
    const snapshot = this.#current();
    return resolveNode(snapshot, this.#groups, input);
  }

  problems(): Problem[] {
    const snapshot = this.#current();
    // Objects the caches could not decode are left out of the view: say which.
    const undecodable = [
      this.caches.machines,
      this.caches.machineSets,
      this.caches.machineDeployments,
    ].flatMap((cache) =>
      (cache?.invalid() ?? []).map(
        (u): Problem => ({ code: 'undecodable-object', object: u.object, message: u.message }),
      ),
    );
    // Templates of groups at zero that could not be used: such a group is no group.
    const templates = [...this.#templates.values()].flatMap(({ object, read }): Problem[] =>
      read.state === 'invalid'
        ? [
            {
              code: 'invalid-infrastructure-template',
              object,
              path: read.error.path,
              message: `${object}: ${read.error.message}`,
            },
          ]
        : read.state === 'unreadable' && statusOf(read.error) !== 404
          ? [
              {
                code: 'infrastructure-template-unreadable',
                object,
                message: `${object}: ${read.error.message}`,
              },
            ]
          : [],
    );
    return [
      ...snapshot.boundsErrors,
      ...snapshot.problems,
      ...templates,
      ...undecodable,
      ...this.workloads.problems(),
    ];
  }

  async refresh(): Promise<void> {
    this.invalidate();
    let snapshot = this.#current();
    if (await this.#readTemplates(snapshot)) {
      this.invalidate();
      snapshot = this.#current();
    }
    // Only the clusters of machines in node groups (within auto-discovery) are reached: a
    // Node elsewhere has no group to be in, and a fleet's other clusters are not ours to
    // contact (each is a Secret read, a Node list and a watch).
    const inGroups = [...snapshot.groups.keys()].flatMap((id) => snapshot.machinesOf(id));
    if (await this.workloads.ensureFor(inGroups)) {
      this.invalidate();
      this.#current();
    }
  }

  async stop(): Promise<void> {
    await Promise.all([
      this.caches.machines.stop(),
      this.caches.machineSets.stop(),
      this.caches.machineDeployments?.stop(),
      this.workloads.stop(),
    ]);
  }
}

/**
 * Starts the caches and resolves once they are synced. Rejects with a NodeGroupError
 * when an auto-discovery spec does not parse (`invalid-options`) or the management cluster
 * cannot be read (`api-error`).
 */
export async function createNodeGroupProvider(options: NodeGroupProviderOptions): Promise<NodeGroupProvider> {
  const specs = parseAutoDiscovery(options.autoDiscovery ?? []);
  if (specs._tag === 'Left')
    throw new NodeGroupError('invalid-options', specs.left.message, { path: specs.left.path });
  const { capi, client } = await resolveCapiApi(options.management, options.apiVersion);
  const api = new ManagementApi(options.management, capi);
  let provider: Provider | undefined;
  const onChange = () => provider?.invalidate();
  const cache = (kind: 'Machine' | 'MachineSet' | 'MachineDeployment') =>
    startCapiCache(client, capi.apiVersion, kind, onChange);
  const started = await Promise.allSettled([
    cache('Machine'),
    cache('MachineSet'),
    capi.machineDeployments ? cache('MachineDeployment') : Promise.resolve(undefined),
    Workloads.start(options.workload, options.management, leaseLocationOf(options.leaseGuard), onChange),
  ] as const);
  const failure = started.find((s) => s.status === 'rejected');
  if (failure !== undefined) {
    await Promise.all(started.map((s) => (s.status === 'fulfilled' ? s.value?.stop() : undefined)));
    throw (failure as PromiseRejectedResult).reason;
  }
  const [machines, machineSets, machineDeployments, workloads] = started.map(
    (s) => (s as PromiseFulfilledResult<unknown>).value,
  ) as [
    ResourceCache<KubeObject>,
    ResourceCache<KubeObject>,
    ResourceCache<KubeObject> | undefined,
    Workloads,
  ];
  provider = new Provider(
    capi,
    api,
    { machines, machineSets, machineDeployments },
    workloads,
    specs.right,
    options.registry ?? providerIDRegistry,
  );
  await provider.refresh();
  return provider;
}
