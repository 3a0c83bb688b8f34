import { isLaterClusterPaused } from '@capi-kit/core/phases';
import {
  isNodeWithoutLease,
  type LeaseInspection,
  type LeaseLocation,
  NodeLeaseObserver,
} from '@capi-kit/lease';
import { ProviderIDIndex, type ProviderIDRegistry, providerIDRegistry } from '@capi-kit/providerid';
import { CoreV1Api, type KubeConfig, type V1Lease, type V1Node } from '@kubernetes/client-node';
import * as E from 'fp-ts/lib/Either.js';
import type { CapiClient } from './client.js';
import type { Unreadable } from './decode-served.js';
import {
  type ClientError,
  clientErrorFrom,
  listPageProblem,
  malformedContinue,
  malformedList,
  nextContinue,
} from './errors.js';
import { selects } from './label-selector.js';
import { isNamespaceName, isSubdomainName, NAMESPACE_RULE, SUBDOMAIN_RULE, shownValue } from './names.js';
import { clusterNameOf, type ObjectWithMeta, ownerUIDsOf, providerIDOf } from './object-facts.js';
import { phaseOf } from './phase.js';
import type { ResourceClient } from './resource-client.js';
import { API_VERSIONS, type CapiKind, resourceInfo } from './resources.js';
import { workloadKubeConfig } from './workload.js';

export interface DescribeClusterOptions {
  /** The Cluster's namespace (default `default`). */
  readonly namespace?: string;
  /**
   * The workload cluster, for Nodes and maintenance leases. Default: built from the
   * `<cluster>-kubeconfig` Secret. When it cannot be reached the description is still
   * returned, with nodes unknown and the reason in `problems`.
   */
  readonly workload?: KubeConfig;
  /** Where maintenance leases live in the workload cluster (default: the KEP layout). */
  readonly leaseLocation?: LeaseLocation;
  /** providerID rules for the Node ↔ Machine join (default: every cloud's). */
  readonly providerIDRegistry?: ProviderIDRegistry;
  /**
   * How long the maintenance-lease read may go unanswered (default: the lease observer's,
   * half its renew deadline). The lease client sets its own deadline on each request, so a
   * caller's KubeConfig-wide deadline does not reach it: a caller with a shorter one passes it here.
   */
  readonly leaseRequestTimeoutMs?: number;
}

/** An owner as described: kind and name. */
export interface OwnerName {
  readonly kind: string;
  readonly name: string;
}

export interface DescribedMachine {
  readonly name: string;
  readonly namespace: string;
  /** core's phase: v1alpha2 as the controllers compute it (lowercase), v1alpha1 normalised; "" unknown. */
  readonly phase: string;
  readonly providerID: string | null;
  readonly owner: OwnerName | null;
  /** The Node joined by providerID identity, and whether its Ready condition is True; null: none or unknown. */
  readonly node: { readonly name: string; readonly ready: boolean } | null;
  /** The Node's maintenance lease: holder (null when free) and state; null when there is no Node or it is unknown. */
  readonly maintenance: { readonly holder: string | null; readonly state: LeaseInspection['state'] } | null;
}

/** A MachineSet or MachineDeployment in the tree. */
export interface DescribedGroup {
  readonly kind: 'MachineSet' | 'MachineDeployment';
  readonly name: string;
  readonly namespace: string;
  readonly replicas: number | null;
  readonly owner: OwnerName | null;
}

export interface Problem {
  /** `Machine ns/name`, `Node name`, `Secret ns/name`, … */
  readonly object: string;
  readonly message: string;
}

/** One Cluster and everything under it (see describeCluster). */
export interface ClusterDescription {
  readonly cluster: {
    readonly apiVersion: string;
    readonly kind: string;
    readonly name: string;
    readonly namespace: string;
    readonly phase: string;
  };
  readonly machineDeployments: readonly DescribedGroup[];
  readonly machineSets: readonly DescribedGroup[];
  readonly machines: readonly DescribedMachine[];
  /** Workload Nodes no Machine denotes. */
  readonly nodesWithoutMachine: readonly string[];
  readonly problems: readonly Problem[];
  /** Whether Nodes were read (false: every `node` is unknown, the reason is in problems). */
  readonly nodesKnown: boolean;
}

type Capi = ObjectWithMeta & {
  readonly spec?: {
    readonly replicas?: number;
    readonly selector?: { matchLabels?: Record<string, string> };
    readonly providerID?: string;
  };
  readonly status?: {
    readonly errorReason?: string;
    readonly errorMessage?: string;
    readonly failureReason?: string;
    readonly failureMessage?: string;
    /** v1beta2 keeps the v1beta1 failure fields here. */
    readonly deprecated?: {
      readonly v1beta1?: { readonly failureReason?: string; readonly failureMessage?: string };
    };
  };
};

const OWNER_KINDS: Readonly<Record<string, readonly CapiKind[]>> = {
  Machine: ['MachineSet', 'MachineDeployment'],
  MachineSet: ['MachineDeployment'],
};

const label = (kind: string, o: { metadata?: { namespace?: string; name?: string } | null }) =>
  `${kind} ${o.metadata?.namespace === undefined ? '' : `${o.metadata.namespace}/`}${o.metadata?.name ?? '(unnamed)'}`;

/**
 * Describes one Cluster: its MachineDeployments → MachineSets → Machines (by
 * ownerReferences; v1alpha1 objects without owners by their owner's selector), each
 * Machine's phase (core's rules), providerID, and — through the workload cluster — its
 * Node (joined by providerID identity, not string equality), the Node's Ready condition
 * and its maintenance lease. Problems: machines without a node, nodes without a machine,
 * failed machines, ambiguous joins, stale owners, objects that do not decode, and why the
 * workload cluster could not be read.
 *
 * Left only when the Cluster cannot be read (`not-found` when no served version has it), or
 * the name or an option cannot be used (`invalid-option`, `path` naming it, before any request).
 */
export async function describeCluster(
  client: CapiClient,
  name: string,
  options: DescribeClusterOptions = {},
): Promise<E.Either<ClientError, ClusterDescription>> {
  const invalid = nameProblem(name) ?? optionProblem(options);
  if (invalid !== undefined) return E.left(invalid);
  const namespace = options.namespace ?? 'default';
  const problems: Problem[] = [];

  // The Cluster, newest served version first.
  const versions = [...API_VERSIONS].reverse().map((row) => row.apiVersion);
  let cluster: Capi | undefined;
  let apiVersion = '';
  let notFound: ClientError | undefined;
  for (const version of versions) {
    const clusters = resource(client, version, 'Cluster');
    if (clusters === undefined) continue;
    const got = await clusters.get(namespace, name);
    if (E.isLeft(got)) {
      if (got.left.code === 'not-found') {
        notFound ??= got.left;
        continue;
      }
      if (got.left.code === 'invalid-object') {
        problems.push({
          object: label('Cluster', { metadata: { namespace, name } }),
          message: got.left.message,
        });
        if (cluster === undefined) {
          cluster = got.left.object as Capi;
          apiVersion = version;
        }
        continue;
      }
      return got;
    }
    if (cluster === undefined) {
      cluster = got.right;
      apiVersion = version;
    } else if (got.right.metadata?.uid !== cluster.metadata?.uid) {
      // Another version of one CRD serves the same object (same UID): not a second Cluster.
      problems.push({
        object: label('Cluster', got.right),
        message: `also exists at ${version}; described at ${apiVersion}`,
      });
    }
  }
  if (cluster === undefined) {
    return E.left(
      notFound === undefined
        ? {
            code: 'not-served',
            target: { apiVersion: versions.join(', '), kind: 'Cluster', namespace, name },
            message: 'the server serves no Cluster API version with Clusters',
          }
        : {
            ...notFound,
            message: `Cluster ${namespace}/${name} not found (in any served Cluster API version)`,
          },
    );
  }

  // The workload cluster is read while the management cluster is listed.
  const workloadRead = readWorkload(client, cluster, options);

  // Everything of the Cluster's version in its namespace, then what belongs to it.
  const listed = await Promise.all(
    (['MachineDeployment', 'MachineSet', 'Machine'] as const).map((kind) =>
      listKind(client, apiVersion, kind, namespace),
    ),
  );
  for (const result of listed) if (E.isLeft(result)) return result;
  const [allDeployments, allSets, allMachines] = listed.map((r) =>
    E.isRight(r) ? r.right : { items: [], invalid: [] },
  );
  for (const invalid of [...allDeployments!.invalid, ...allSets!.invalid, ...allMachines!.invalid]) {
    if (clusterNameOf(invalid.object as ObjectWithMeta) === name) problems.push(invalidProblem(invalid));
  }
  // A Machine that does not decode still denotes its Node: it joins, so that its Node is not
  // reported as a node without a machine (it is not described; its problem says why).
  const undecodedMachines = allMachines!.invalid
    .filter((invalid) => clusterNameOf(invalid.object as ObjectWithMeta) === name)
    .map((invalid) => ({ undecoded: true as const, providerID: providerIDOf(invalid.object) ?? null }));
  const clusterUID = cluster.metadata?.uid;
  const belongs = (o: Capi, ownerUIDs: ReadonlySet<string>) =>
    clusterNameOf(o) === name || ownerUIDsOf(o).some((uid) => uid === clusterUID || ownerUIDs.has(uid));
  const deployments = allDeployments!.items.filter((o) => belongs(o, new Set()));
  const deploymentUIDs = new Set(deployments.map((d) => d.metadata?.uid ?? ''));
  const sets = allSets!.items.filter((o) => belongs(o, deploymentUIDs));
  const setUIDs = new Set(sets.map((s) => s.metadata?.uid ?? ''));
  const machines = allMachines!.items.filter((o) => belongs(o, setUIDs));

  const legacy = apiVersion === API_VERSIONS[0]?.apiVersion;
  const groups = { MachineDeployment: ownersOf(deployments), MachineSet: ownersOf(sets) };
  const ownerOf = (kind: 'Machine' | 'MachineSet', object: Capi) =>
    findOwner(kind, object, groups, legacy, problems);

  const describedSets: DescribedGroup[] = sets.map((s) => group('MachineSet', s, ownerOf('MachineSet', s)));
  const describedDeployments: DescribedGroup[] = deployments.map((d) => group('MachineDeployment', d, null));
  // A paused Cluster pauses its Machines' reconcile too (v1alpha3+): their stored phase stands.
  const phaseContext = { clusterPaused: isLaterClusterPaused(cluster as never) };
  const described = machines.map((m) => ({
    machine: m,
    name: m.metadata?.name ?? '',
    namespace: m.metadata?.namespace ?? namespace,
    phase: phaseOf(m, phaseContext),
    providerID: providerIDOf(m) ?? null,
    owner: ownerOf('Machine', m),
    node: null as DescribedMachine['node'],
    maintenance: null as DescribedMachine['maintenance'],
  }));
  for (const m of described) {
    const status = m.machine.status;
    const legacy = status?.deprecated?.v1beta1;
    const reason = status?.errorReason ?? status?.failureReason ?? legacy?.failureReason;
    const message = status?.errorMessage ?? status?.failureMessage ?? legacy?.failureMessage;
    if (reason !== undefined || message !== undefined) {
      problems.push({
        object: label('Machine', m.machine),
        message: `failed: ${[reason, message].filter((p) => p !== undefined && p !== '').join(': ')}`,
      });
    }
  }

  // The workload cluster: Nodes, the join, and maintenance leases.
  const nodesWithoutMachine: string[] = [];
  let nodesKnown = false;
  const workload = await workloadRead;
  problems.push(...workload.problems);
  if (workload.nodes !== undefined && E.isLeft(workload.nodes)) {
    problems.push({
      object: label('Cluster', cluster),
      message: `nodes unknown: the workload cluster's Nodes cannot be listed: ${workload.nodes.left.message}`,
    });
  } else if (workload.nodes !== undefined) {
    nodesKnown = true;
    const index = new ProviderIDIndex<(typeof described)[number] | (typeof undecodedMachines)[number]>(
      options.providerIDRegistry ?? providerIDRegistry,
      [...described, ...undecodedMachines].map((m) => ({ providerID: m.providerID ?? '', item: m })),
    );
    const report = index.match(
      // (a providerID that is no string, which a real API server never serves, is none)
      workload.nodes.right.map((n) => ({ providerID: nodeProviderID(n), item: n })),
    );
    for (const pair of report.matched)
      if (!('undecoded' in pair.machine))
        pair.machine.node = { name: pair.node.metadata?.name ?? '', ready: isReady(pair.node) };
    for (const node of report.unmatchedNodes) {
      const nodeName = node.metadata?.name ?? '';
      nodesWithoutMachine.push(nodeName);
      problems.push({
        object: `Node ${nodeName}`,
        message:
          nodeProviderID(node) === ''
            ? 'node without a machine: the Node has no providerID'
            : `node without a machine: no Machine of the cluster has providerID '${node.spec?.providerID}'`,
      });
    }
    for (const m of report.unmatchedMachines) {
      if ('undecoded' in m) continue;
      problems.push({
        object: label('Machine', m.machine),
        message:
          m.providerID === null
            ? 'machine without a node: the Machine has no providerID yet'
            : `machine without a node: no Node has providerID '${m.providerID}'`,
      });
    }
    // One problem per Machine: each Node denoting an instance several Machines have is a
    // group of them all, and a problem per group and Machine was Machines × Nodes problems.
    // Groups whose Nodes denote the same Machines share one machines list (ProviderIDIndex):
    // their Nodes are gathered per list, and each list is read once, so M Machines and N
    // Nodes of one instance are M + N steps, not M × N (nor M sets of N names).
    type Seen = { nodes: Set<string>; reasons: Set<string> };
    const byList = new Map<readonly unknown[], Seen>();
    for (const group of report.ambiguous) {
      let seen = byList.get(group.machines);
      if (seen === undefined) {
        seen = { nodes: new Set(), reasons: new Set() };
        byList.set(group.machines, seen);
      }
      for (const n of group.nodes) seen.nodes.add(n.metadata?.name ?? '');
      seen.reasons.add(group.reason);
    }
    const contested = new Map<(typeof described)[number], Seen[]>();
    for (const group of report.ambiguous) {
      const seen = byList.get(group.machines);
      if (seen === undefined) continue;
      // (each list once)
      byList.delete(group.machines);
      for (const m of group.machines) {
        if ('undecoded' in m) continue;
        const lists = contested.get(m);
        if (lists === undefined) contested.set(m, [seen]);
        else lists.push(seen);
      }
    }
    for (const [m, lists] of contested) {
      const { nodes, reasons } = lists.length === 1 ? lists[0]! : merged(lists);
      problems.push({
        object: label('Machine', m.machine),
        message: `ambiguous join with Node(s) ${firstOf(nodes)}: ${firstOf(reasons, 1, 'reasons')}`,
      });
    }
    addMaintenance(workload, described, problems);
  }

  return E.right({
    cluster: {
      apiVersion,
      kind: 'Cluster',
      name,
      namespace,
      phase: phaseOf(cluster),
    },
    machineDeployments: describedDeployments,
    machineSets: describedSets,
    machines: described.map(
      (m): DescribedMachine => ({
        name: m.name,
        namespace: m.namespace,
        phase: m.phase,
        providerID: m.providerID,
        owner: m.owner,
        node: m.node,
        maintenance: m.maintenance,
      }),
    ),
    nodesWithoutMachine,
    problems,
    nodesKnown,
  });
}

// (the largest delay a timer takes)
const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * Why the Cluster name cannot be used, if it cannot. It goes into the request path: `..`
 * addressed the namespace instead of a Cluster (the URL parser resolves it, encoded or not),
 * `a/b` another resource, and a JS caller's non-string was sent as its String().
 */
function nameProblem(name: unknown): ClientError | undefined {
  if (isSubdomainName(name)) return undefined;
  return {
    code: 'invalid-option',
    path: 'name',
    message: `name ${shownValue(name)} is not a valid Cluster name (${SUBDOMAIN_RULE})`,
  };
}

/**
 * Why an option of describeCluster cannot be used, if one cannot. The namespaces go into
 * request paths (`..` in `namespace` addressed the cluster-wide collection). The lease client
 * threw on a bad lease namespace (and on a bad request timeout): describeCluster rejected
 * with a LeaseConfigError once a Machine had joined its Node, and before that `..` listed
 * every namespace's leases.
 */
function optionProblem(options: DescribeClusterOptions): ClientError | undefined {
  // (a JS caller's null, or a string, where the options go)
  if (typeof options !== 'object' || options === null)
    return {
      code: 'invalid-option',
      path: 'options',
      message: `options ${shownValue(options)} is not an object of describeCluster's options`,
    };
  const namespace: unknown = options.namespace;
  if (namespace !== undefined && !isNamespaceName(namespace))
    return {
      code: 'invalid-option',
      path: 'namespace',
      message: `namespace ${shownValue(namespace)} is not a valid namespace (${NAMESPACE_RULE})`,
    };
  const location = options.leaseLocation;
  if (location !== undefined) {
    // (optional chaining: a JS caller's null is refused, not thrown on)
    const leaseNamespace: unknown = location?.namespace;
    if (!isNamespaceName(leaseNamespace))
      return {
        code: 'invalid-option',
        path: 'leaseLocation.namespace',
        message: `leaseLocation.namespace ${shownValue(leaseNamespace)} is not a valid namespace (${NAMESPACE_RULE})`,
      };
  }
  const timeout: unknown = options.leaseRequestTimeoutMs;
  if (
    timeout !== undefined &&
    !(Number.isInteger(timeout) && (timeout as number) >= 1 && (timeout as number) <= MAX_TIMER_MS)
  )
    return {
      code: 'invalid-option',
      path: 'leaseRequestTimeoutMs',
      message: `leaseRequestTimeoutMs must be a whole number of milliseconds from 1 to ${MAX_TIMER_MS} (got ${String(timeout)})`,
    };
  return undefined;
}

/** The Nodes and reasons of several lists a Machine is in, each once, in order. */
function merged(lists: readonly { nodes: Set<string>; reasons: Set<string> }[]) {
  const nodes = new Set<string>();
  const reasons = new Set<string>();
  for (const list of lists) {
    for (const n of list.nodes) nodes.add(n);
    for (const r of list.reasons) reasons.add(r);
  }
  return { nodes, reasons };
}

/** The first `shown` of `items`, comma-separated, and how many more there are. */
function firstOf(items: ReadonlySet<string>, shown = 10, more = 'more'): string {
  const first = [...items].slice(0, shown).join(', ');
  return items.size > shown ? `${first} and ${items.size - shown} ${more}` : first;
}

function resource(client: CapiClient, apiVersion: string, kind: CapiKind): ResourceClient<Capi> | undefined {
  if (resourceInfo(apiVersion, kind) === undefined || !client.serves(apiVersion, kind)) return undefined;
  const typed = client.resource(apiVersion as never, kind as never);
  return E.isRight(typed) ? (typed.right as unknown as ResourceClient<Capi>) : undefined;
}

async function listKind(
  client: CapiClient,
  apiVersion: string,
  kind: CapiKind,
  namespace: string,
): Promise<E.Either<ClientError, { items: Capi[]; invalid: Unreadable[] }>> {
  const source = resource(client, apiVersion, kind);
  if (source === undefined) return E.right({ items: [], invalid: [] });
  return source.list({ namespace });
}

function invalidProblem(invalid: Unreadable): Problem {
  const object = invalid.object as ObjectWithMeta;
  return { object: label(object.kind ?? 'object', object), message: invalid.message };
}

function group(kind: DescribedGroup['kind'], object: Capi, owner: OwnerName | null): DescribedGroup {
  return {
    kind,
    name: object.metadata?.name ?? '',
    namespace: object.metadata?.namespace ?? '',
    replicas: typeof object.spec?.replicas === 'number' ? object.spec.replicas : null,
    owner,
  };
}

/**
 * The possible owners of one kind, by UID and by name: the first of each, as searching the
 * list would find it. (Searching per Machine made a Cluster of thousands of Machines and
 * MachineSets cost their product.) The keys are as read: a missing UID or name is a key too.
 */
interface Owners {
  readonly items: readonly Capi[];
  readonly byUID: ReadonlyMap<string | undefined, Capi>;
  readonly byName: ReadonlyMap<string | undefined, Capi>;
}

function ownersOf(items: readonly Capi[]): Owners {
  const byUID = new Map<string | undefined, Capi>();
  const byName = new Map<string | undefined, Capi>();
  for (const item of items) {
    const { uid, name } = item.metadata ?? {};
    if (!byUID.has(uid)) byUID.set(uid, item);
    if (!byName.has(name)) byName.set(name, item);
  }
  return { items, byUID, byName };
}

/**
 * The owner of a Machine (MachineSet, else MachineDeployment) or MachineSet
 * (MachineDeployment): by ownerReference UID; by kind and name when the UID is stale (a
 * problem); for v1alpha1 objects without such owners, the one owner whose selector
 * matches the object's labels.
 */
function findOwner(
  kind: 'Machine' | 'MachineSet',
  object: Capi,
  groups: Readonly<Record<'MachineDeployment' | 'MachineSet', Owners>>,
  legacy: boolean,
  problems: Problem[],
): OwnerName | null {
  const kinds = OWNER_KINDS[kind] ?? [];
  const refs = (object.metadata?.ownerReferences ?? []).filter((r) =>
    (kinds as readonly string[]).includes(r.kind),
  );
  const ordered = [...refs.filter((r) => r.controller), ...refs.filter((r) => !r.controller)];
  for (const ref of ordered) {
    const owners = groups[ref.kind as 'MachineDeployment' | 'MachineSet'];
    const byUID = owners?.byUID.get(ref.uid);
    if (byUID !== undefined) return { kind: ref.kind, name: byUID.metadata?.name ?? ref.name };
    const byName = owners?.byName.get(ref.name);
    problems.push({
      object: label(kind, object),
      message:
        byName === undefined
          ? `owner ${ref.kind} ${ref.name} (uid ${ref.uid}) does not exist`
          : `ownerReference to ${ref.kind} ${ref.name} has uid ${ref.uid}, but that ${ref.kind}'s uid is ${byName.metadata?.uid} (stale, e.g. after a migration)`,
    });
    return { kind: ref.kind, name: ref.name };
  }
  if (!legacy) return null;
  // v1alpha1 objects moved by a pivot lost their ownerReferences: fall back to selectors.
  const labels = object.metadata?.labels ?? {};
  for (const ownerKind of kinds) {
    // (a selector cannot be looked up: each is matched, as the v1alpha1 controllers did)
    const matches = (groups[ownerKind as 'MachineDeployment' | 'MachineSet']?.items ?? []).filter((c) =>
      selects(c.spec?.selector, labels),
    );
    if (matches.length === 1) return { kind: ownerKind, name: matches[0]!.metadata?.name ?? '' };
    if (matches.length > 1) {
      problems.push({
        object: label(kind, object),
        message: `no ownerReference, and the selectors of ${matches.length} ${ownerKind}s match its labels (${matches.map((m) => m.metadata?.name).join(', ')})`,
      });
      return null;
    }
  }
  return null;
}

/** What was read of the workload cluster; `nodes` absent when it could not be reached. */
interface WorkloadRead {
  readonly problems: Problem[];
  readonly nodes?: E.Either<ClientError, V1Node[]>;
  readonly leases?: MaintenanceLeases;
  readonly leaseList?: E.Either<string, V1Lease[]>;
}

/** The workload cluster (given, else from the kubeconfig Secret): its Nodes and its lease namespace. */
async function readWorkload(
  client: CapiClient,
  cluster: Capi,
  options: DescribeClusterOptions,
): Promise<WorkloadRead> {
  let kubeConfig = options.workload;
  if (kubeConfig === undefined) {
    const fromSecret = await workloadKubeConfig(client.kubeConfig, cluster);
    if (E.isLeft(fromSecret)) {
      return {
        problems: [
          {
            object: `Secret ${fromSecret.left.secret}`,
            message: `nodes unknown: ${fromSecret.left.message}`,
          },
        ],
      };
    }
    kubeConfig = fromSecret.right;
  }
  const leases = new MaintenanceLeases({
    kubeConfig,
    ...(options.leaseLocation === undefined ? {} : { location: options.leaseLocation }),
    ...(options.leaseRequestTimeoutMs === undefined
      ? {}
      : { requestTimeoutMs: options.leaseRequestTimeoutMs }),
  });
  const [nodes, leaseList] = await Promise.all([
    listNodes(kubeConfig),
    leases.list().then(
      (list) => E.right(list),
      (error: unknown) => E.left(error instanceof Error ? error.message : String(error)),
    ),
  ]);
  return { problems: [], nodes, leases, leaseList };
}

const NODES = { apiVersion: 'v1', kind: 'Node' } as const;

async function listNodes(kubeConfig: KubeConfig): Promise<E.Either<ClientError, V1Node[]>> {
  const api = kubeConfig.makeApiClient(CoreV1Api);
  const nodes: V1Node[] = [];
  let continueToken: string | undefined;
  // (a workload cluster, or a proxy in front of it, that hands a token back paged for ever)
  const followed = new Set<string>();
  let pages = 0;
  try {
    do {
      const page = await api.listNode({
        limit: 500,
        ...(continueToken === undefined ? {} : { _continue: continueToken }),
      });
      const problem = listPageProblem(page);
      if (problem !== undefined) return E.left(malformedList(NODES, problem));
      nodes.push(...page.items);
      pages++;
      const next = nextContinue(page.metadata?._continue, followed);
      if ('problem' in next) return E.left(malformedContinue(NODES, pages, next.problem));
      continueToken = next.next;
    } while (continueToken !== undefined);
  } catch (error) {
    return E.left(clientErrorFrom(error, NODES, 'list'));
  }
  return E.right(nodes);
}

function nodeProviderID(node: V1Node): string {
  const providerID: unknown = node.spec?.providerID;
  return typeof providerID === 'string' ? providerID : '';
}

function isReady(node: V1Node): boolean {
  return (node.status?.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True');
}

/** Lease observer that judges many nodes' leases from one list of the lease namespace. */
class MaintenanceLeases extends NodeLeaseObserver {
  async list(): Promise<V1Lease[]> {
    return (await this.api.list(this.namespace)).items;
  }

  /** Each node's lease; none for a node the layout gives no lease name, so no one can hold its lease. */
  judgeAll(nodes: readonly string[], leases: readonly V1Lease[]): Map<string, LeaseInspection> {
    const byName = new Map(leases.map((lease) => [lease.metadata?.name ?? '', lease]));
    const judged = new Map<string, LeaseInspection>();
    for (const node of nodes) {
      const address = this.addressOf(node);
      if (address !== undefined) judged.set(node, this.judge(address, byName.get(address.leaseName)));
    }
    return judged;
  }

  // (a Node without a lease in this layout threw, and describeCluster rejected for the whole Cluster)
  private addressOf(node: string) {
    try {
      return this.address(node);
    } catch (error) {
      if (isNodeWithoutLease(error)) return undefined;
      throw error;
    }
  }
}

function addMaintenance(
  workload: WorkloadRead,
  machines: { node: DescribedMachine['node']; maintenance: DescribedMachine['maintenance'] }[],
  problems: Problem[],
): void {
  const joined = machines.filter((m) => m.node !== null);
  if (joined.length === 0 || workload.leases === undefined || workload.leaseList === undefined) return;
  if (E.isLeft(workload.leaseList)) {
    problems.push({
      object: `Lease namespace ${workload.leases.namespace}`,
      message: `maintenance unknown: ${workload.leaseList.left}`,
    });
    return;
  }
  const leases = workload.leases.judgeAll(
    joined.map((m) => m.node!.name),
    workload.leaseList.right,
  );
  for (const m of joined) {
    const lease = leases.get(m.node!.name);
    m.maintenance =
      lease === undefined
        ? { holder: null, state: 'absent' }
        : { holder: lease.holder ?? null, state: lease.state };
  }
}
