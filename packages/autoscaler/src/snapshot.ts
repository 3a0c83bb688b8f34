/**
 * One consistent view of the node groups, built from the cached Machines, MachineSets and
 * MachineDeployments: which resources are groups, which machines each group owns, and the
 * index that finds a Node's Machine. Pure and O(machines + resources): the provider
 * rebuilds it after the caches change, never per lookup.
 */
import { ProviderIDIndex, type ProviderIDRegistry } from '@capi-kit/providerid';
import { type AutoDiscoverySpec, allowedByAutoDiscovery } from './auto-discovery.js';
import { annotationCapacityOfResource, type TemplateStatus, withTemplateStatus } from './capacity.js';
import { type ClusterScope, inNodeCluster } from './cluster-scope.js';
import { nodeGroupBoundsOf } from './eligibility.js';
import { infrastructureRefOf } from './infrastructure-template.js';
import { clusterNamespaceAnnotation, machineAnnotations } from './keys.js';
import {
  annotationsOf,
  field,
  type KubeObject,
  keyOf,
  nameOf,
  namespaceOf,
  ownerReferencesOf,
  stringField,
  uidOf,
} from './objects.js';
import { isFailedMachineProviderID, machineKeyFromFailedProviderID } from './placeholders.js';
import type { ScalingBounds } from './scaling-bounds.js';

export type ScalableKind = 'MachineSet' | 'MachineDeployment';

/** `<Kind>/<namespace>/<name>`, cluster-autoscaler ≥ 1.20's node-group id. */
export const groupIdOf = (kind: ScalableKind, namespace: string, name: string): string =>
  `${kind}/${namespace}/${name}`;

/** A MachineSet or MachineDeployment that is a node group. */
export interface GroupEntry {
  readonly id: string;
  readonly kind: ScalableKind;
  readonly namespace: string;
  readonly name: string;
  readonly bounds: ScalingBounds;
  readonly resource: KubeObject;
}

/**
 * Something in the cluster a user should hear about: the snapshot still decides, but
 * never by silently dropping a node.
 */
export interface Problem {
  readonly code:
    | 'stale-owner-uid'
    | 'unknown-owner'
    | 'invalid-scaling-bounds'
    | 'invalid-capacity-annotation'
    | 'invalid-infrastructure-template'
    | 'infrastructure-template-unreadable'
    | 'ambiguous-provider-id'
    | 'undecodable-object'
    | 'workload-unavailable';
  /** The object the problem is on: `Kind namespace/name`. */
  readonly object: string;
  readonly message: string;
  readonly path?: string;
}

/** Which resource a Machine scales with, and what was odd on the way there. */
/** The MachineSet or MachineDeployment a MachineSet's machines scale with, named once per set. */
interface ScalableOwner {
  readonly kind: ScalableKind;
  readonly resource: KubeObject;
  readonly namespace: string;
  readonly name: string;
  readonly groupId: string;
}

function scalableOwner(kind: ScalableKind, resource: KubeObject): ScalableOwner {
  const namespace = namespaceOf(resource);
  const name = nameOf(resource);
  return { kind, resource, namespace, name, groupId: groupIdOf(kind, namespace, name) };
}

export interface MachineOwner {
  /** The MachineSet or MachineDeployment, or undefined for a machine outside any set. */
  readonly kind?: ScalableKind;
  readonly namespace?: string;
  readonly name?: string;
  /** `groupIdOf(kind, namespace, name)`, made once per set (node lookups read it). */
  readonly groupId?: string;
  readonly problems: readonly Problem[];
}

/** How a Node's Machine was found. */
export type MatchedBy = 'provider-id' | 'failed-machine' | 'node-annotation';

export type MachineLookup =
  | { readonly machine: KubeObject; readonly matchedBy: MatchedBy }
  | {
      readonly machine: undefined;
      readonly matchedBy?: undefined;
      readonly ambiguous?: readonly KubeObject[];
      /** Why the Node's placeholder or annotation led nowhere, when it named a Machine. */
      readonly refused?: string;
    };

export interface SnapshotInput {
  readonly machines: readonly KubeObject[];
  readonly machineSets: readonly KubeObject[];
  /** Undefined when the API version serves no MachineDeployments (v0.1 before them). */
  readonly machineDeployments: readonly KubeObject[] | undefined;
  readonly autoDiscovery: readonly AutoDiscoverySpec[];
  readonly registry: ProviderIDRegistry;
  /** The Nodes of every workload cluster, to name each machine's Node. */
  readonly nodes?: readonly KubeObject[];
  /** With several workload clusters: a Node matches only Machines of its own cluster. */
  readonly scope?: ClusterScope;
  /**
   * The status of the infrastructure machine template a resource names, when it was read
   * (null when not: none named, not found, unreadable): a group at zero replicas whose
   * annotations give no cpu and memory is a group when its template's status does.
   */
  readonly templateStatus?: (resource: KubeObject) => TemplateStatus | null;
}

const label = (kind: string, o: KubeObject) => `${kind} ${keyOf(o)}`;

/** A template status that gives cpu and memory: whether a resource would be a group with one. */
const anyCapacity: TemplateStatus = { capacity: { cpu: '1', memory: '1' }, nodeInfo: {} };

/**
 * The owner reference of `kind` on `o` that points at an object in `byKey`: one whose
 * UID matches first, else one matching by name alone — reported, because its UID is
 * stale (left by a migration that recreated the owner), but still followed, as
 * cluster-autoscaler ≥ 1.20 does, so the node keeps its group.
 */
function followOwner(
  o: KubeObject,
  ownerKind: ScalableKind,
  byKey: ReadonlyMap<string, KubeObject>,
  objectKind: string,
  problems: Problem[],
): KubeObject | undefined | null {
  const refs = ownerReferencesOf(o).filter((r) => r.kind === ownerKind);
  if (refs.length === 0) return undefined;
  const namespace = namespaceOf(o);
  let byName: { owner: KubeObject; uid: string | undefined } | undefined;
  for (const ref of refs) {
    const owner = byKey.get(`${namespace}/${ref.name}`);
    if (owner === undefined) continue;
    if (ref.uid === undefined || ref.uid === uidOf(owner)) return owner;
    byName ??= { owner, uid: ref.uid };
  }
  if (byName !== undefined) {
    problems.push({
      code: 'stale-owner-uid',
      object: label(objectKind, o),
      path: 'metadata.ownerReferences',
      message:
        `${label(objectKind, o)} names its ${ownerKind} ${nameOf(byName.owner)} with uid ${byName.uid}, ` +
        `but that ${ownerKind} has uid ${uidOf(byName.owner)} (recreated, e.g. by a migration); ` +
        'followed by name',
    });
    return byName.owner;
  }
  problems.push({
    code: 'unknown-owner',
    object: label(objectKind, o),
    path: 'metadata.ownerReferences',
    message: `${label(objectKind, o)} is owned by ${ownerKind} ${namespace}/${refs[0]!.name}, which does not exist`,
  });
  return null;
}

/**
 * Whether a resource is within the auto-discovery specs. A machine without a scalable
 * owner is judged by namespace and cluster name alone: the specs' labels are for
 * MachineSets and MachineDeployments.
 */
function inScope(o: KubeObject, isScalable: boolean, specs: readonly AutoDiscoverySpec[]): boolean {
  if (isScalable) return allowedByAutoDiscovery(o, specs);
  return (
    specs.length === 0 ||
    specs.some((spec) =>
      allowedByAutoDiscovery(o, [
        { namespace: spec.namespace, clusterName: spec.clusterName, labelSelector: {} },
      ]),
    )
  );
}

export class Snapshot {
  /** The node groups by id, in the order of the listing (MachineDeployments first). */
  readonly groups = new Map<string, GroupEntry>();
  /** Candidate resources whose bounds do not parse: cluster-autoscaler then refuses to list groups. */
  readonly boundsErrors: Problem[] = [];
  /** Everything odd found while building (stale UIDs, missing owners, ambiguous IDs). */
  readonly problems: Problem[] = [];
  /**
   * Resources at zero replicas, with room to scale, whose annotations give no cpu and
   * memory but which name an infrastructure template: whether they are groups depends on
   * the template's status, which the provider reads (on refresh) for them.
   */
  readonly templateCandidates: { readonly kind: ScalableKind; readonly resource: KubeObject }[] = [];
  readonly #templateStatus: ((resource: KubeObject) => TemplateStatus | null) | undefined;
  readonly machinesByKey = new Map<string, KubeObject>();
  readonly #machineOwner = new Map<KubeObject, MachineOwner>();
  readonly #machinesByGroup = new Map<string, KubeObject[]>();
  readonly #index: ProviderIDIndex<KubeObject>;
  // null: Nodes of several workload clusters share the name.
  readonly #nodesByName = new Map<string, KubeObject | null>();
  // Every cached Node's lookup, done once here: questions about cached Nodes (all of them,
  // in an autoscaler's loop) then cost a map read instead of a providerID parse.
  readonly #machinesByNodeID = new Map<string, readonly KubeObject[]>();
  readonly #nodeOfMachine = new Map<KubeObject, KubeObject | null>();
  // Every cached Node each machine's providerID identifies (several when Nodes share an ID).
  readonly #nodeNamesByMachine = new Map<KubeObject, string[]>();
  /** Which cluster each Node is of, with several workload clusters; else undefined. */
  readonly scope: ClusterScope | undefined;

  constructor(input: SnapshotInput) {
    this.scope = input.scope;
    this.#templateStatus = input.templateStatus;
    const sets = new Map<string, KubeObject>();
    for (const ms of input.machineSets) sets.set(keyOf(ms), ms);
    const deployments = new Map<string, KubeObject>();
    for (const md of input.machineDeployments ?? []) deployments.set(keyOf(md), md);

    for (const md of input.machineDeployments ?? [])
      this.#consider('MachineDeployment', md, input.autoDiscovery);
    // MachineSets owned by a MachineDeployment are not groups: their deployment is.
    const setOwner = new Map<KubeObject, ScalableOwner>();
    for (const ms of input.machineSets) {
      const problems: Problem[] = [];
      const md =
        input.machineDeployments === undefined
          ? undefined
          : followOwner(ms, 'MachineDeployment', deployments, 'MachineSet', problems);
      if (allowedByAutoDiscovery(ms, input.autoDiscovery)) this.problems.push(...problems);
      if (md) setOwner.set(ms, scalableOwner('MachineDeployment', md));
      else {
        // A set whose deployment is gone scales on its own, as in cluster-autoscaler 1.20.
        setOwner.set(ms, scalableOwner('MachineSet', ms));
        this.#consider('MachineSet', ms, input.autoDiscovery);
      }
    }

    const entries: { providerID: string; item: KubeObject }[] = [];
    for (const machine of input.machines) {
      this.machinesByKey.set(keyOf(machine), machine);
      const providerID = stringField(machine, 'spec', 'providerID') ?? '';
      if (providerID !== '') entries.push({ providerID, item: machine });
      const problems: Problem[] = [];
      const ms = followOwner(machine, 'MachineSet', sets, 'Machine', problems);
      const scalable = ms ? setOwner.get(ms) : undefined;
      // Only what auto-discovery lets in is this view's business; explainNode still shows
      // a machine's problems whatever its scope.
      if (
        problems.length > 0 &&
        inScope(scalable?.resource ?? machine, scalable !== undefined, input.autoDiscovery)
      )
        this.problems.push(...problems);
      const owner: MachineOwner =
        scalable === undefined
          ? { problems }
          : {
              kind: scalable.kind,
              namespace: scalable.namespace,
              name: scalable.name,
              groupId: scalable.groupId,
              problems,
            };
      this.#machineOwner.set(machine, owner);
      if (owner.groupId !== undefined) {
        const id = owner.groupId;
        const list = this.#machinesByGroup.get(id);
        if (list === undefined) this.#machinesByGroup.set(id, [machine]);
        else list.push(machine);
      }
    }
    this.#index = new ProviderIDIndex(input.registry, entries);
    for (const node of input.nodes ?? []) {
      // With several workload clusters a name may repeat: such a name finds no Node (a
      // lookup by object is exact), rather than possibly another cluster's.
      this.#nodesByName.set(nameOf(node), this.#nodesByName.has(nameOf(node)) ? null : node);
      const providerID = stringField(node, 'spec', 'providerID') ?? '';
      if (providerID.trim() === '') continue;
      const all = this.#machinesByNodeID.get(providerID) ?? this.#index.lookup(providerID);
      this.#machinesByNodeID.set(providerID, all);
      const found = this.#ofNodeCluster(node, all);
      // A machine two Nodes claim has no Node of its own (null), as one claimed by none.
      if (found.length === 1) {
        this.#nodeOfMachine.set(found[0]!, this.#nodeOfMachine.has(found[0]!) ? null : node);
        const names = this.#nodeNamesByMachine.get(found[0]!);
        if (names === undefined) this.#nodeNamesByMachine.set(found[0]!, [nameOf(node)]);
        else names.push(nameOf(node));
      }
    }
  }

  /** A Node by name (see SnapshotInput.nodes). */
  nodeNamed(name: string): KubeObject | undefined {
    return this.#nodesByName.get(name) ?? undefined;
  }

  /** Whether Nodes of several workload clusters have this name. */
  nodeNameIsAmbiguous(name: string): boolean {
    return this.#nodesByName.get(name) === null;
  }

  /**
   * The Node a machine became: the one its providerID identifies, else the one its
   * `status.nodeRef` names — in the machine's own workload cluster (a Node of that name in
   * another cluster is not its: its providerID would pass for the machine's instance).
   * Undefined when there is none (yet) or several.
   */
  nodeOfMachine(machine: KubeObject): KubeObject | undefined {
    const byIdentity = this.#nodeOfMachine.get(machine);
    if (byIdentity) return byIdentity;
    const ref = stringField(machine, 'status', 'nodeRef', 'name');
    const node = ref === undefined ? undefined : (this.#nodesByName.get(ref) ?? undefined);
    return node !== undefined && inNodeCluster(this.scope, node, machine) ? node : undefined;
  }

  /**
   * The names of every Node a machine may be: each cached Node its providerID identifies
   * and the cached Node its `status.nodeRef` names. Deleting the machine removes all of
   * them, so the lease guard asks about each, not only about the Node it was asked to
   * delete. A nodeRef naming no cached Node adds nothing: it may be any text (a status
   * writer's), and a name no lease can have would make every lease read of the group fail.
   */
  nodeNamesOfMachine(machine: KubeObject): string[] {
    const names = new Set(this.#nodeNamesByMachine.get(machine) ?? []);
    const ref = stringField(machine, 'status', 'nodeRef', 'name');
    if (ref !== undefined && this.#nodesByName.has(ref)) names.add(ref);
    return [...names];
  }

  #consider(kind: ScalableKind, resource: KubeObject, specs: readonly AutoDiscoverySpec[]): void {
    if (!allowedByAutoDiscovery(resource, specs)) return;
    const bounds = nodeGroupBoundsOf(resource, this.#templateStatus?.(resource) ?? null);
    if (bounds._tag === 'Left') {
      this.boundsErrors.push({
        code: 'invalid-scaling-bounds',
        object: label(kind, resource),
        path: bounds.left.path,
        message: `${label(kind, resource)}: ${bounds.left.message}`,
      });
      return;
    }
    // A capacity annotation that does not parse keeps a group at zero from scaling up and
    // fails its templateNode(): say so rather than let the group vanish without a word.
    const capacity = annotationCapacityOfResource(resource);
    if (capacity._tag === 'Left')
      this.problems.push({
        code: 'invalid-capacity-annotation',
        object: label(kind, resource),
        path: capacity.left.path,
        message: `${label(kind, resource)}: ${capacity.left.message}`,
      });
    // Likewise a reference to the infrastructure template that cannot be followed.
    const ref = infrastructureRefOf(resource, kind);
    if (ref._tag === 'Left')
      this.problems.push({
        code: 'invalid-infrastructure-template',
        object: label(kind, resource),
        path: ref.left.path,
        message: `${label(kind, resource)}: ${ref.left.message}`,
      });
    else if (
      ref.right !== null &&
      capacity._tag === 'Right' &&
      field(resource, 'spec', 'replicas') === 0 &&
      withTemplateStatus(capacity.right, null) === null
    ) {
      // (whatever the template said last time: a candidate stays one while it is at zero)
      const room = nodeGroupBoundsOf(resource, anyCapacity);
      if (room._tag === 'Right' && room.right !== null) this.templateCandidates.push({ kind, resource });
    }
    if (bounds.right === null) return;
    const namespace = namespaceOf(resource);
    const name = nameOf(resource);
    const id = groupIdOf(kind, namespace, name);
    this.groups.set(id, { id, kind, namespace, name, bounds: bounds.right, resource });
  }

  /** The MachineSet or MachineDeployment a machine scales with. */
  ownerOf(machine: KubeObject): MachineOwner {
    return this.#machineOwner.get(machine) ?? { problems: [] };
  }

  /** The machines of a group (owned through its MachineSets for a MachineDeployment). */
  machinesOf(groupId: string): readonly KubeObject[] {
    return this.#machinesByGroup.get(groupId) ?? [];
  }

  /**
   * The Machine of a Node, in cluster-autoscaler's order: by providerID — here by instance
   * identity, so `aws:///us-east-1a/i-1` finds `aws:////i-1` — then the failed-machine
   * placeholder, then the Node's annotation naming its Machine. As upstream, a Node without
   * a providerID finds nothing: the placeholder and the annotation are read only for a Node
   * that has one. And they lead only to a Machine without a providerID (upstream's case: "the
   * actuator does not set it"): a Machine with one is found by it, so a Node that names it
   * otherwise is another instance, and following the name would delete the wrong machine.
   */
  machineOfNode(node: KubeObject): MachineLookup {
    const providerID = stringField(node, 'spec', 'providerID') ?? '';
    if (providerID.trim() === '') return { machine: undefined };
    const found = this.#ofNodeCluster(
      node,
      this.#machinesByNodeID.get(providerID) ?? this.#index.lookup(providerID),
    );
    if (found.length === 1) return { machine: found[0]!, matchedBy: 'provider-id' };
    if (found.length > 1) return { machine: undefined, ambiguous: found };
    let refused: string | undefined;
    const candidate = (machine: KubeObject | undefined, matchedBy: MatchedBy, how: string) => {
      if (machine === undefined || !inNodeCluster(this.scope, node, machine)) return undefined;
      const own = stringField(machine, 'spec', 'providerID') ?? '';
      if (own === '') return { machine, matchedBy };
      refused ??=
        `${how} names Machine ${keyOf(machine)}, which has providerID ${JSON.stringify(own)} of ` +
        'another instance: only a Machine without a providerID is found that way';
      return undefined;
    };
    if (isFailedMachineProviderID(providerID)) {
      const hit = candidate(
        this.machinesByKey.get(machineKeyFromFailedProviderID(providerID)),
        'failed-machine',
        `the failed-machine placeholder ${JSON.stringify(providerID)}`,
      );
      if (hit !== undefined) return hit;
    }
    // The first key present is the one read, as upstream (`cluster.x-k8s.io/machine`, only
    // when it is absent `cluster.k8s.io/machine`): one that names nothing finds nothing.
    const annotations = annotationsOf(node);
    const key = machineAnnotations.find((k) => Object.hasOwn(annotations, k));
    const value = key === undefined ? '' : annotations[key]!;
    if (value !== '') {
      // CAPI ≥ v0.3.15 writes the bare name and puts the namespace in its own annotation.
      const machineKey = value.includes('/')
        ? value
        : `${annotations[clusterNamespaceAnnotation] ?? namespaceOf(node)}/${value}`;
      const hit = candidate(
        this.machinesByKey.get(machineKey),
        'node-annotation',
        `the Node's annotation ${key}`,
      );
      if (hit !== undefined) return hit;
    }
    return refused === undefined ? { machine: undefined } : { machine: undefined, refused };
  }

  /** The machines of `found` that may be `node`'s (all of them with one workload cluster). */
  #ofNodeCluster(node: KubeObject, found: readonly KubeObject[]): readonly KubeObject[] {
    return this.scope === undefined ? found : found.filter((m) => inNodeCluster(this.scope, node, m));
  }
}
