/**
 * One node group: a MachineDeployment, or a MachineSet no deployment owns. Replicas are
 * read and written only through the scale subresource, each write conditional on the
 * resourceVersion just read, so concurrent autoscalers (or people) never overwrite each
 * other: a 409 means "read again and decide again".
 */
import {
  isNodeWithoutLease,
  isUnderMaintenanceState,
  type LeaseInspection,
  type NodeLeaseObserver,
} from '@capi-kit/lease';
import {
  annotationCapacityOfResource,
  type TemplateNode,
  type TemplateStatus,
  templateNodeOf,
  withTemplateStatus,
} from './capacity.js';
import { retryOnConflict } from './conflict-retry.js';
import { goQuote, goQuoteInt, NodeGroupError } from './errors.js';
import {
  type InfrastructureTemplateError,
  infrastructureRefOf,
  templateKeyOf,
  templateStatusOf,
} from './infrastructure-template.js';
import { isNotFound, type ManagementApi, statusOf } from './management-api.js';
import {
  annotationsOf,
  isBeingDeleted,
  type KubeObject,
  nameOf,
  namespaceOf,
  stringField,
  uidOf,
} from './objects.js';
import { failedMachineProviderID, hasFailed } from './placeholders.js';
import type { GroupEntry, MatchedBy, Problem, ScalableKind, Snapshot } from './snapshot.js';

/** A Node object, or a Node's name (looked up in the workload caches). */
export type NodeLike = KubeObject | string;

/** Where a Node leads: its Machine, the Machine's scalable owner, and the group if it is one. */
export interface NodeResolution {
  /** The Node's name. */
  readonly node: string;
  /** The Node object, when it was given or found in the caches. */
  readonly nodeObject: KubeObject | undefined;
  readonly providerID: string;
  readonly machine: { readonly namespace: string; readonly name: string } | null;
  readonly machineObject: KubeObject | undefined;
  readonly matchedBy: MatchedBy | null;
  /** The MachineSet or MachineDeployment the machine scales with. */
  readonly owner: { readonly kind: ScalableKind; readonly namespace: string; readonly name: string } | null;
  readonly group: NodeGroup | null;
  /** Why there is no group, when there is none. */
  readonly reason: string | null;
  readonly problems: readonly Problem[];
  /** Machines the Node's providerID denotes when it denotes more than one. */
  readonly ambiguous: readonly string[];
}

/** A maintenance lease that keeps automation away from a node. */
export interface Maintenance {
  readonly holder: string | undefined;
  /**
   * The lease's state; `unknown` when it could not be read (`error` says why). A node whose
   * lease state is unknown is treated as under maintenance, never as free (fail closed).
   */
  readonly state: LeaseInspection['state'] | 'unknown';
  /** The lease, `namespace/name`. */
  readonly lease: string;
  /** Why the lease could not be read (state `unknown`): an `api-error` naming the node. */
  readonly error?: NodeGroupError;
}

/** One instance of a group, as cluster-autoscaler's Nodes() lists them. */
export interface NodeGroupInstance {
  /** The machine's providerID as written, or a `failed-machine-<ns>_<name>` placeholder. */
  readonly id: string;
  readonly machine: { readonly namespace: string; readonly name: string };
  /** The Node's name, when the machine has become one. */
  readonly node: string | null;
  /**
   * The Node's maintenance lease, when it is held or reserved, or could not be read (state
   * `unknown`, with the error) (guard on).
   */
  readonly maintenance: Maintenance | null;
  /** Leave it alone: its lease is held or reserved, or could not be read (fail closed). */
  readonly underMaintenance: boolean;
}

/** What a group needs from its provider. */
export interface NodeGroupContext {
  readonly api: ManagementApi;
  /** The delete-mark keys the served Cluster API version's MachineSet controller reads. */
  readonly deleteAnnotations: readonly string[];
  snapshot(): Snapshot;
  resolve(node: NodeLike): NodeResolution;
  /** The lease reader for a machine's Node, or undefined when the guard is off. */
  leasesFor(machine: KubeObject): NodeLeaseObserver | undefined;
  /** Serialises deleteNodes within one provider, as cluster-autoscaler's access lock. */
  exclusive<T>(work: () => Promise<T>): Promise<T>;
}

export class NodeGroup {
  readonly id: string;
  readonly kind: ScalableKind;
  readonly namespace: string;
  readonly name: string;
  readonly minSize: number;
  readonly maxSize: number;
  readonly #context: NodeGroupContext;

  constructor(entry: GroupEntry, context: NodeGroupContext) {
    this.id = entry.id;
    this.kind = entry.kind;
    this.namespace = entry.namespace;
    this.name = entry.name;
    this.minSize = entry.bounds.min;
    this.maxSize = entry.bounds.max;
    this.#context = context;
  }

  /** The desired replicas, read from the scale subresource. */
  async targetSize(): Promise<number> {
    const scale = await this.#context.api.getScale(this.kind, this.namespace, this.name);
    return scale.spec?.replicas ?? 0;
  }

  /**
   * The Node a new machine of this group becomes (scale from zero, as cluster-autoscaler's
   * TemplateNodeInfo, clusterapi_nodegroup.go), or null when the group cannot scale from
   * zero (upstream's ErrNotImplemented). Its capacity is the infrastructure machine
   * template's `status.capacity` (read now from the management cluster, when
   * `spec.template.spec.infrastructureRef` names one) with the group's
   * `capacity.cluster-autoscaler.kubernetes.io/…` annotations overriding it resource by
   * resource; it needs cpu and memory. The template's `status.nodeInfo` gives the
   * `kubernetes.io/arch` and `kubernetes.io/os` labels, the labels annotation overriding them.
   *
   * As upstream's InstanceCapacity (clusterapi_unstructured.go): a template that is not
   * found (404) or not allowed (403), or no reference at all, leaves the annotations alone.
   * Unlike upstream, which then also returns ErrNotImplemented: any other failure to read
   * the template throws its `api-error` when the annotations give no resource of their own
   * (a server that did not answer is not a group that cannot scale), and a reference or a
   * template status that does not parse throws `invalid-infrastructure-template` (with the
   * field's `path`) instead of being ignored. A capacity annotation that does not parse
   * throws `invalid-capacity-annotation` (with the annotation's `path`).
   */
  async templateNode(): Promise<TemplateNode | null> {
    const resource = this.#context.snapshot().groups.get(this.id)?.resource;
    if (resource === undefined)
      throw new NodeGroupError('node-group-gone', `node group ${this.id} no longer exists`, {
        group: this.id,
      });
    const annotations = annotationCapacityOfResource(resource);
    if (annotations._tag === 'Left')
      throw new NodeGroupError(
        'invalid-capacity-annotation',
        `${this.kind} ${this.namespace}/${this.name}: ${annotations.left.message}`,
        { group: this.id, path: annotations.left.path },
      );
    const read = await readTemplateStatus(this.#context.api, this.kind, resource);
    let template: TemplateStatus | null = null;
    switch (read.state) {
      case 'found':
        template = read.status;
        break;
      case 'invalid':
        throw new NodeGroupError(
          'invalid-infrastructure-template',
          `${this.kind} ${this.namespace}/${this.name}: ${read.error.message}`,
          { group: this.id, path: read.error.path },
        );
      case 'unreadable': {
        // Upstream: with annotations beyond maxPods (always there), they alone.
        const own = Object.keys(annotations.right.capacity).some((k) => k !== 'pods');
        const status = statusOf(read.error);
        if (!own && status !== 404 && status !== 403) throw read.error;
        break;
      }
      case 'none':
        break;
    }
    const capacity = withTemplateStatus(annotations.right, template);
    return capacity === null ? null : templateNodeOf(resource, capacity);
  }

  /** `<id> (min: %d, max: %d, replicas: %d)`, cluster-autoscaler's Debug(). */
  async debug(): Promise<string> {
    return `${this.id} (min: ${this.minSize}, max: ${this.maxSize}, replicas: ${await this.targetSize()})`;
  }

  #outOfBounds(desired: number): NodeGroupError | undefined {
    if (desired > this.maxSize)
      return new NodeGroupError(
        'size-increase-too-large',
        `size increase too large - desired:${desired} max:${this.maxSize}`,
        { group: this.id },
      );
    if (desired < this.minSize)
      return new NodeGroupError(
        'size-decrease-too-large',
        `size decrease too large - desired:${desired} min:${this.minSize}`,
        { group: this.id },
      );
    return undefined;
  }

  /**
   * Reads the scale, lets `decide` pick the new replicas from the current ones (it may
   * refuse by throwing), and writes them conditional on the scale's resourceVersion; on a
   * 409 everything is read and decided again. `before`, when given, runs just before each
   * write and may refuse it by throwing.
   */
  async #setReplicas(decide: (current: number) => number, before?: () => Promise<unknown>): Promise<number> {
    const { api } = this.#context;
    return retryOnConflict(async () => {
      const scale = await api.getScale(this.kind, this.namespace, this.name);
      const desired = decide(scale.spec?.replicas ?? 0);
      const refused = this.#outOfBounds(desired);
      if (refused) throw refused;
      // (last, so that it is as close to the write as can be)
      await before?.();
      await api.replaceScale(this.kind, this.namespace, this.name, {
        ...scale,
        spec: { ...scale.spec, replicas: desired },
      });
      return desired;
    }).catch((error: unknown) => {
      if (isNotFound(error))
        throw new NodeGroupError('node-group-gone', `node group ${this.id} no longer exists`, {
          group: this.id,
        });
      throw error;
    });
  }

  /** Adds `delta` (> 0) replicas, up to max. */
  async increaseSize(delta: number): Promise<void> {
    if (!(delta > 0))
      throw new NodeGroupError('size-increase-not-positive', 'size increase must be positive');
    await this.#setReplicas((current) => current + delta);
  }

  /**
   * Removes `delta` (< 0) replicas that have not become instances yet; never below the
   * number of existing instances (use deleteNodes to remove those).
   */
  async decreaseTargetSize(delta: number): Promise<void> {
    if (!(delta < 0))
      throw new NodeGroupError('size-decrease-not-negative', 'size decrease must be negative');
    const existing = this.#instances().length;
    await this.#setReplicas((current) => {
      if (current + delta < existing)
        throw new NodeGroupError(
          'would-delete-existing-nodes',
          `attempt to delete existing nodes targetSize:${current} delta:${delta} existingNodes: ${existing}`,
          { group: this.id },
        );
      return current + delta;
    });
  }

  /** The instance ids without lease state (what DecreaseTargetSize counts). */
  #instances(): { id: string; machine: KubeObject; node: KubeObject | undefined }[] {
    const snapshot = this.#context.snapshot();
    const out: { id: string; machine: KubeObject; node: KubeObject | undefined }[] = [];
    for (const machine of snapshot.machinesOf(this.id)) {
      const node = snapshot.nodeOfMachine(machine);
      const providerID = stringField(machine, 'spec', 'providerID') ?? '';
      // As cluster-autoscaler: the machine's own ID, else a failed machine's placeholder,
      // else its Node's ID; a machine with none of them is not an instance yet.
      const id =
        providerID !== ''
          ? providerID
          : hasFailed(machine)
            ? failedMachineProviderID(machine)
            : (stringField(node, 'spec', 'providerID') ?? '');
      if (id !== '') out.push({ id, machine, node });
    }
    return out;
  }

  /**
   * The group's instances. With the lease guard on, each instance whose Node's maintenance
   * lease is held or reserved says so, so that an autoscaler can leave it alone. A lease
   * that cannot be read fails that instance closed, not the call: it is under maintenance
   * with state `unknown` and the error, and the other instances are listed as they are.
   */
  async nodes(): Promise<NodeGroupInstance[]> {
    return Promise.all(
      this.#instances().map(async ({ id, machine, node }) => {
        const nodeName = node === undefined ? null : nameOf(node);
        const leases = this.#context.leasesFor(machine);
        const held =
          leases === undefined ? undefined : await this.#maintenanceOfMachine(leases, machine, nodeName);
        const maintenance = held?.maintenance ?? null;
        return {
          id,
          machine: { namespace: namespaceOf(machine), name: nameOf(machine) },
          node: nodeName,
          maintenance,
          underMaintenance: maintenance !== null,
        };
      }),
    );
  }

  /**
   * Deletes these Nodes' Machines: marks each with the delete annotation the served
   * Cluster API version reads, then lowers replicas by one (conditional write, re-read on
   * 409). Refused as a whole, before anything is written, when a node is not in this group,
   * when that would go below min, or (lease guard) when a node is under maintenance. A
   * machine already being deleted is skipped; if lowering fails, the mark is removed again.
   * Each Machine is read again just before replicas are lowered for it: one gone or
   * re-created under its name since its mark stops the call there (`unknown-machine-for-node`,
   * `machine-replaced`, naming the node), without lowering them. Nodes before it stay
   * deleted (marked, replicas lowered for each), as in cluster-autoscaler: an error after
   * some were lists them in `details.deleted` (node names) and at the end of its message,
   * with the stopping error's code.
   */
  async deleteNodes(nodes: readonly NodeLike[]): Promise<void> {
    await this.#context.exclusive(() => this.#deleteNodes(nodes));
  }

  async #deleteNodes(nodes: readonly NodeLike[]): Promise<void> {
    const replicas = await this.targetSize().catch((error: unknown) => {
      if (isNotFound(error))
        throw new NodeGroupError('node-group-gone', `node group ${this.id} no longer exists`, {
          group: this.id,
        });
      throw error;
    });
    if (replicas <= this.minSize)
      throw new NodeGroupError('min-size-reached', 'min size reached, nodes will not be deleted', {
        group: this.id,
      });

    const targets: { resolution: NodeResolution; machine: KubeObject }[] = [];
    const nodeOfMachine = new Map<string, string>();
    for (const node of nodes) {
      const resolution = this.#context.resolve(node);
      const quoted = goQuote(resolution.providerID || resolution.node);
      if (resolution.ambiguous.length > 0)
        throw new NodeGroupError(
          'ambiguous-machine',
          `node ${quoted} denotes ${resolution.ambiguous.length} machines (${resolution.ambiguous.join(', ')})`,
          { node: resolution.node, group: this.id },
        );
      if (resolution.group === null)
        throw new NodeGroupError('no-node-group-for-node', `no node group found for node ${quoted}`, {
          node: resolution.node,
        });
      if (resolution.group.id !== this.id)
        throw new NodeGroupError(
          'node-not-in-group',
          `node ${quoted} doesn't belong to node group ${goQuote(this.id)}`,
          { node: resolution.node, group: this.id },
        );
      // Each node lowers replicas by one: two nodes of one Machine (a second Node claiming
      // its instance) would delete it and, for the second decrement, a machine no one chose.
      const machineKey = `${namespaceOf(resolution.machineObject!)}/${nameOf(resolution.machineObject!)}`;
      const earlier = nodeOfMachine.get(machineKey);
      if (earlier !== undefined)
        throw new NodeGroupError(
          'same-machine',
          earlier === resolution.node
            ? `node ${goQuote(resolution.node)} is given twice, nodes will not be deleted`
            : `nodes ${goQuote(earlier)} and ${goQuote(resolution.node)} are both Machine ${machineKey}: ` +
                'it would be deleted once and replicas lowered twice, nodes will not be deleted',
          { node: resolution.node, group: this.id },
        );
      nodeOfMachine.set(machineKey, resolution.node);
      targets.push({ resolution, machine: resolution.machineObject! });
    }

    if (replicas - nodes.length < this.minSize)
      throw new NodeGroupError(
        'delete-below-min-size',
        `unable to delete ${nodes.length} machines in ${goQuote(this.id)}, machine replicas are ` +
          `${goQuoteInt(replicas)}, minSize is ${goQuoteInt(this.minSize)} `,
        { group: this.id },
      );

    // The guard: every node's lease is read before anything is written, and a lease that
    // cannot be read refuses the deletion with its error (fail closed).
    // Every Node the machine may be is asked about, not only the one named: another Node
    // claiming the same instance (or the machine's nodeRef) must not let it through.
    for (const { resolution, machine } of targets) {
      const leases = this.#context.leasesFor(machine);
      if (leases === undefined) continue;
      const held = await this.#maintenanceOfMachine(leases, machine, resolution.node);
      if (held === undefined) continue;
      const { node, maintenance } = held;
      if (maintenance.error !== undefined) throw maintenance.error;
      const whose =
        node === resolution.node
          ? `node ${goQuote(node)}`
          : `node ${goQuote(resolution.node)} is Machine ${namespaceOf(machine)}/${nameOf(machine)}, ` +
            `whose node ${goQuote(node)}`;
      throw new NodeGroupError(
        'under-maintenance',
        `${whose} is under maintenance by ${goQuote(maintenance.holder ?? '')} ` +
          `(lease ${maintenance.lease} is ${maintenance.state}), nodes will not be deleted`,
        { node: resolution.node, group: this.id, holder: maintenance.holder },
      );
    }

    // The Machines resolved are the ones to delete: each is read again and must still be the
    // same object (its uid), not one deleted and re-created under the name since. Checked
    // for all before anything is written, and again by each mark (the write carries the uid).
    for (const { resolution, machine } of targets)
      await this.#reread(machine, goQuote(resolution.providerID || resolution.node), resolution.node);

    // The nodes deleted so far (marked, replicas lowered for each): a call stopped part-way
    // names them, so that its caller knows what it has done.
    const deleted: string[] = [];
    try {
      for (const { resolution, machine } of targets) {
        const quoted = goQuote(resolution.providerID || resolution.node);
        const overwritten = await this.#mark(machine, quoted, resolution.node);
        if (overwritten === undefined) continue; // already being deleted
        try {
          // The Machine marked must still be there, the same object, when replicas are
          // lowered for it: one deleted and re-created under its name since the mark (a
          // migration does that) has no mark, and the lower count would make the MachineSet
          // controller delete a machine no one chose.
          await this.#setReplicas(
            (current) => current - 1,
            () => this.#reread(machine, quoted, resolution.node),
          );
        } catch (error) {
          await this.#unmark(machine, overwritten).catch(() => {});
          throw error;
        }
        deleted.push(resolution.node);
      }
    } catch (error) {
      if (deleted.length === 0 || !(error instanceof NodeGroupError)) throw error;
      throw new NodeGroupError(
        error.code,
        `${error.message}; nodes already deleted (marked, replicas lowered): ${deleted.map(goQuote).join(', ')}`,
        { ...error.details, deleted },
        { cause: error },
      );
    }
  }

  /**
   * The Machine `resolved` as the server has it now, refused when it is gone
   * (`unknown-machine-for-node`) or is another object under the same name
   * (`machine-replaced`: its uid is not the one resolved).
   */
  async #reread(resolved: KubeObject, quoted: string, node: string): Promise<KubeObject> {
    const namespace = namespaceOf(resolved);
    const name = nameOf(resolved);
    const machine = await this.#context.api.getMachine(namespace, name).catch((error: unknown) => {
      if (isNotFound(error))
        throw new NodeGroupError('unknown-machine-for-node', `unknown machine for node ${quoted}`, {
          node,
          group: this.id,
        });
      throw error;
    });
    const expected = uidOf(resolved);
    const found = uidOf(machine);
    // (no uid to compare, which no server-read object lacks, is not a match either)
    if (expected === '' || found !== expected)
      throw new NodeGroupError(
        'machine-replaced',
        `machine ${namespace}/${name} for node ${quoted} is not the one resolved: uid ${goQuote(expected)} ` +
          `was resolved, the server has uid ${goQuote(found)} (deleted and re-created), it will not be deleted`,
        { node, group: this.id },
      );
    return machine;
  }

  /**
   * The first Node of `machine` whose lease is held or reserved: `first` (the Node asked
   * about), then every other Node the machine may be (Snapshot.nodeNamesOfMachine). When
   * none is but a lease could not be read, the first such Node, in state `unknown`.
   */
  async #maintenanceOfMachine(
    leases: NodeLeaseObserver,
    machine: KubeObject,
    first: string | null,
  ): Promise<{ node: string; maintenance: Maintenance } | undefined> {
    const names = new Set(first === null ? [] : [first]);
    for (const name of this.#context.snapshot().nodeNamesOfMachine(machine)) names.add(name);
    let unknown: { node: string; maintenance: Maintenance } | undefined;
    for (const node of names) {
      let inspection: LeaseInspection | undefined;
      try {
        inspection = await inspect(leases, node);
      } catch (error) {
        if (!(error instanceof NodeGroupError)) throw error;
        unknown ??= { node, maintenance: unreadable(leases, node, error) };
        continue;
      }
      const maintenance = maintenanceOf(inspection);
      if (maintenance !== null) return { node, maintenance };
    }
    return unknown;
  }

  /**
   * Adds the delete mark to a freshly read Machine, which must still be `resolved` (same
   * uid); the write is conditional on its resourceVersion and carries that uid. A key that
   * is absent or empty (which no MachineSet controller counts as a mark) is set. Resolves to
   * what each key it set held before (undefined: absent), or undefined when the machine is
   * already being deleted.
   */
  async #mark(resolved: KubeObject, quoted: string, node: string): Promise<Overwritten | undefined> {
    const { api, deleteAnnotations } = this.#context;
    return retryOnConflict(async () => {
      const machine = await this.#reread(resolved, quoted, node);
      if (isBeingDeleted(machine)) return undefined;
      const annotations = { ...annotationsOf(machine) };
      const overwritten: Overwritten = new Map();
      const stamp = new Date().toISOString();
      for (const key of deleteAnnotations) {
        if (annotations[key]) continue;
        // (an empty value is overwritten too, and must come back as it was)
        overwritten.set(key, Object.hasOwn(annotations, key) ? annotations[key] : undefined);
        annotations[key] = stamp;
      }
      await api.replaceMachine(namespaceOf(machine), nameOf(machine), {
        ...machine,
        metadata: { ...machine.metadata, uid: uidOf(resolved), annotations },
      });
      return overwritten;
    });
  }

  /**
   * Puts back what the mark overwrote (removes a key it added, restores an empty value;
   * never touches a mark someone else set), on `resolved` only: a Machine re-created under
   * its name since has no mark of ours.
   */
  async #unmark(resolved: KubeObject, overwritten: Overwritten): Promise<void> {
    if (overwritten.size === 0) return;
    const { api } = this.#context;
    await retryOnConflict(async () => {
      const machine = await api.getMachine(namespaceOf(resolved), nameOf(resolved));
      if (uidOf(machine) !== uidOf(resolved)) return;
      const annotations = { ...annotationsOf(machine) };
      for (const [key, before] of overwritten) {
        if (before === undefined) delete annotations[key];
        else annotations[key] = before;
      }
      await api.replaceMachine(namespaceOf(machine), nameOf(machine), {
        ...machine,
        metadata: { ...machine.metadata, uid: uidOf(resolved), annotations },
      });
    });
  }
}

/** The delete-mark keys a mark set, each with what it held before (undefined: absent). */
type Overwritten = Map<string, string | undefined>;

/** A node's lease; undefined when the layout gives the node no lease name, so none can exist. */
async function inspect(leases: NodeLeaseObserver, node: string): Promise<LeaseInspection | undefined> {
  try {
    return await leases.inspect(node);
  } catch (error) {
    // (this threw, and failed nodes() for the whole group and every deletion of the Node)
    if (isNodeWithoutLease(error)) return undefined;
    const message = error instanceof Error ? error.message : String(error);
    throw new NodeGroupError(
      'api-error',
      `read the maintenance lease of node ${goQuote(node)}: ${message}`,
      { node, status: (error as { status?: number }).status },
      { cause: error },
    );
  }
}

/** A lease that could not be read: state `unknown`, under maintenance as far as anyone may tell. */
function unreadable(leases: NodeLeaseObserver, node: string, error: NodeGroupError): Maintenance {
  let lease = '';
  try {
    lease = `${leases.location.namespace}/${leases.location.leaseName(node)}`;
  } catch {
    // (a layout that gives the node no lease name: the error names the node)
  }
  return { holder: undefined, state: 'unknown', lease, error };
}

function maintenanceOf(inspection: LeaseInspection | undefined): Maintenance | null {
  if (inspection === undefined || !isUnderMaintenanceState(inspection)) return null;
  return {
    holder: inspection.holder,
    state: inspection.state,
    lease: `${inspection.namespace}/${inspection.leaseName}`,
  };
}

/** What reading a group's infrastructure template gave. */
export type TemplateRead =
  /** The group names no template. */
  | { readonly state: 'none' }
  | { readonly state: 'found'; readonly status: TemplateStatus }
  /** The reference or the template's status does not parse. */
  | { readonly state: 'invalid'; readonly error: InfrastructureTemplateError }
  /** The template could not be read: an `api-error` (404 not found, 403 forbidden, …). */
  | { readonly state: 'unreadable'; readonly error: NodeGroupError };

/**
 * Reads the infrastructure machine template a MachineSet or MachineDeployment names
 * (clusterapi_unstructured.go, readInfrastructureReferenceResource) and parses its status.
 * Never throws: each outcome is a state.
 */
export async function readTemplateStatus(
  api: ManagementApi,
  kind: ScalableKind,
  resource: KubeObject,
): Promise<TemplateRead> {
  const ref = infrastructureRefOf(resource, kind);
  if (ref._tag === 'Left') return { state: 'invalid', error: ref.left };
  if (ref.right === null) return { state: 'none' };
  let template: KubeObject;
  try {
    template = await api.getInfrastructureTemplate(ref.right);
  } catch (error) {
    return {
      state: 'unreadable',
      error:
        error instanceof NodeGroupError
          ? error
          : new NodeGroupError('api-error', `read ${templateKeyOf(ref.right)}: ${String(error)}`),
    };
  }
  const status = templateStatusOf(template, `${ref.right.kind} ${ref.right.namespace}/${ref.right.name}`);
  return status._tag === 'Left'
    ? { state: 'invalid', error: status.left }
    : { state: 'found', status: status.right };
}
