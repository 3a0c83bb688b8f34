import type { CapiClient, CapiKind, Unreadable } from '@capi-kit/client';
import { isLaterClusterPaused } from '@capi-kit/core/phases';
import { oneOf, parseCommandLine } from '../args.js';
import { connectManagement, namespaceOf } from '../cluster-client.js';
import type { CommandBody } from '../command.js';
import { ExitCode, UsageError } from '../exit-codes.js';
import type { CliIO } from '../io.js';
import { checkNamespaceFlag } from '../names.js';
import { age, cellText, formatTable } from '../table.js';
import { jsonText, printable } from '../text.js';

const usage = `Usage: capi-kit get clusters|machines|machinesets|machinedeployments [-A | -n NS] [-o json|yaml|wide]

Lists Cluster API objects of a live management cluster, of every Cluster API version it
serves (cluster.k8s.io/v1alpha1 and cluster.x-k8s.io/v1alpha2 side by side), as a table
like kubectl's. Phases are core's: Machines and Clusters of cluster.x-k8s.io v1alpha2 to
v1beta2 show the phase their version's controller writes on its next reconcile (the stored
phase while the Cluster or object is paused, as upstream leaves it), v1alpha1 Machines their
normalised phase, MachineDeployments (-o wide) their stored phase. Uses --kubeconfig FILE, else KUBECONFIG, else ~/.kube/config, else the
in-cluster config.

Options:
  -A, --all-namespaces   every namespace
  -n, --namespace NS     this namespace (default: the context's, else default)
  -o, --output FMT       json or yaml: a kubectl-style v1 List of the objects as served;
                         wide: more columns
      --kubeconfig FILE  the management cluster's kubeconfig

Objects that do not decode are listed (phase <invalid>) with their errors on stderr.

Exit codes: 0 ok, 2 usage error, 3 cluster/API error (nothing on stdout then).
`;

/** One listable kind: its spellings on the command line and its table. */
interface KindRow {
  readonly kind: CapiKind;
  readonly names: readonly string[];
  /** Column headers and cell readers; `wide` columns only with -o wide. */
  readonly columns: readonly Column[];
}

interface Column {
  readonly header: string;
  readonly wide?: boolean;
  readonly cell: (item: Item, context: Context) => string;
}

/** An object as served, with what reading it needed. */
interface Item {
  readonly apiVersion: string;
  readonly raw: Served;
  readonly invalid?: Unreadable;
}

interface Context {
  readonly now: number;
  /** Machines of the listed scope by `machineGroup` key, for the clusters' MACHINES column; undefined: not readable. */
  readonly machines: ReadonlyMap<string, readonly Item[]> | undefined;
  /** `namespace/name` of the paused Clusters of the listed scope (v1alpha3+), for Machine phases. */
  readonly pausedClusters: ReadonlySet<string>;
}

type Served = {
  readonly metadata?: {
    readonly name?: string;
    readonly namespace?: string;
    readonly creationTimestamp?: string;
    readonly uid?: string;
    readonly ownerReferences?: readonly { kind: string; name: string }[];
  };
  readonly spec?: Record<string, unknown>;
  readonly status?: Record<string, unknown>;
};

const num = (value: unknown) => (typeof value === 'number' ? String(value) : '0');
/** The library, imported when the command runs (client-node takes a while to load). */
let lib: typeof import('@capi-kit/client');
const cluster = (item: Item) => lib.clusterNameOf(item.raw as never) ?? '';
const clusterKey = (namespace: string | undefined, name: string) => `${namespace ?? ''}/${name}`;
const phase = (item: Item, context: Context) =>
  item.invalid === undefined
    ? lib.phaseOf(item.raw as never, {
        clusterPaused: context.pausedClusters.has(clusterKey(item.raw.metadata?.namespace, cluster(item))),
      }) || '<unknown>'
    : '<invalid>';
const owner = (item: Item) =>
  (item.raw.metadata?.ownerReferences ?? []).map((r) => `${r.kind}/${r.name}`).join(',') || '<none>';

const common = {
  name: { header: 'NAME', cell: (i: Item) => cellText(i.raw.metadata?.name) },
  apiVersion: { header: 'APIVERSION', cell: (i: Item) => i.apiVersion },
  cluster: { header: 'CLUSTER', cell: cluster },
  age: { header: 'AGE', cell: (i: Item, c: Context) => age(i.raw.metadata?.creationTimestamp, c.now) },
  replicas: { header: 'REPLICAS', cell: (i: Item) => num(i.raw.spec?.replicas) },
  ready: { header: 'READY', cell: (i: Item) => num(i.raw.status?.readyReplicas) },
  available: { header: 'AVAILABLE', cell: (i: Item) => num(i.raw.status?.availableReplicas) },
} satisfies Record<string, Column>;

/** A Cluster's Machines are those of its apiVersion and namespace that name it. */
const machineGroup = (apiVersion: string, namespace: string | undefined, clusterName: string) =>
  `${apiVersion}\u0000${namespace ?? ''}\u0000${clusterName}`;

/** The Machines grouped once: looking each Cluster's up in the whole list is clusters × machines. */
function byCluster(machines: readonly Item[]): Map<string, Item[]> {
  const groups = new Map<string, Item[]>();
  for (const m of machines) {
    const key = machineGroup(m.apiVersion, m.raw.metadata?.namespace, cluster(m));
    const group = groups.get(key);
    if (group === undefined) groups.set(key, [m]);
    else group.push(m);
  }
  return groups;
}

function machinesReady(item: Item, context: Context): string {
  if (context.machines === undefined) return '<unknown>';
  const name = cellText(item.raw.metadata?.name);
  const mine = context.machines.get(machineGroup(item.apiVersion, item.raw.metadata?.namespace, name)) ?? [];
  // v1alpha2 writes `running`, v1alpha3+ `Running`.
  return `${mine.filter((m) => phase(m, context).toLowerCase() === 'running').length}/${mine.length}`;
}

const KIND_ROWS: readonly KindRow[] = [
  {
    kind: 'Cluster',
    names: ['clusters', 'cluster'],
    columns: [
      common.name,
      common.apiVersion,
      { header: 'PHASE', cell: phase },
      { header: 'MACHINES', cell: machinesReady },
      common.age,
      {
        header: 'ENDPOINT',
        wide: true,
        cell: (i) => {
          // v1alpha2: status.apiEndpoints[0]; v1alpha3+: spec.controlPlaneEndpoint.
          const endpoint =
            (i.raw.status?.apiEndpoints as { host?: string; port?: number }[] | undefined)?.[0] ??
            (i.raw.spec?.controlPlaneEndpoint as { host?: string; port?: number } | undefined);
          return endpoint === undefined ? '<none>' : `${cellText(endpoint.host)}:${num(endpoint.port)}`;
        },
      },
    ],
  },
  {
    kind: 'Machine',
    names: ['machines', 'machine', 'ma'],
    columns: [
      common.name,
      common.apiVersion,
      common.cluster,
      { header: 'PHASE', cell: phase },
      { header: 'PROVIDERID', cell: (i) => cellText(i.raw.spec?.providerID) || '<none>' },
      common.age,
      {
        header: 'NODE',
        wide: true,
        cell: (i) => cellText((i.raw.status?.nodeRef as { name?: string })?.name) || '<none>',
      },
      {
        header: 'VERSION',
        wide: true,
        cell: (i) =>
          cellText(i.raw.spec?.version ?? (i.raw.spec?.versions as { kubelet?: string })?.kubelet) ||
          '<none>',
      },
      { header: 'OWNER', wide: true, cell: owner },
    ],
  },
  {
    kind: 'MachineSet',
    names: ['machinesets', 'machineset', 'ms'],
    columns: [
      common.name,
      common.apiVersion,
      common.cluster,
      common.replicas,
      common.ready,
      common.available,
      common.age,
      { header: 'OWNER', wide: true, cell: owner },
    ],
  },
  {
    kind: 'MachineDeployment',
    names: ['machinedeployments', 'machinedeployment', 'md'],
    columns: [
      common.name,
      common.apiVersion,
      common.cluster,
      common.replicas,
      common.ready,
      { header: 'UPDATED', cell: (i) => num(i.raw.status?.updatedReplicas) },
      common.available,
      common.age,
      { header: 'PHASE', wide: true, cell: phase },
      { header: 'PAUSED', wide: true, cell: (i) => String(i.raw.spec?.paused === true) },
    ],
  },
];

/** Every served version of `kind`, listed as served; Left: the message of the first failure. */
async function listServed(
  client: CapiClient,
  kind: CapiKind,
  namespace: string | undefined,
): Promise<{ items: Item[] } | { error: string; code: string }> {
  const items: Item[] = [];
  // One CRD may serve an object at several versions (v1beta1 and v1beta2): each object is
  // listed once, at its group's preferred version.
  const preferred = (apiVersion: string) =>
    client.discovery.served.find((v) => v.apiVersion === apiVersion)?.preferred === true;
  const sources = client
    .resources(kind)
    .sort((a, b) => Number(preferred(b.info.apiVersion)) - Number(preferred(a.info.apiVersion)));
  const seen = new Set<string>();
  for (const source of sources) {
    const listed = await source.listRaw(namespace === undefined ? {} : { namespace }, (raw) => {
      const uid = (raw as Served).metadata?.uid;
      if (uid !== undefined) {
        if (seen.has(uid)) return;
        seen.add(uid);
      }
      const decoded = source.decode(raw);
      items.push({
        apiVersion: source.info.apiVersion,
        raw: raw as Served,
        ...(decoded._tag === 'Left' ? { invalid: decoded.left } : {}),
      });
    });
    if (listed._tag === 'Left') return { error: listed.left.message, code: listed.left.code };
  }
  const key = (i: Item) =>
    `${i.raw.metadata?.namespace ?? ''}\u0000${i.raw.metadata?.name ?? ''}\u0000${i.apiVersion}`;
  items.sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
  return { items };
}

async function run(args: readonly string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseCommandLine(args, {
    'all-namespaces': { type: 'boolean', short: 'A' },
    namespace: { type: 'string', short: 'n' },
    output: { type: 'string', short: 'o' },
    kubeconfig: { type: 'string' },
  });
  const [what, ...extra] = positionals;
  if (what === undefined)
    throw new UsageError('missing what to get (clusters, machines, machinesets, machinedeployments)');
  if (extra.length > 0) throw new UsageError(`unexpected argument '${extra[0]}'`);
  const row = KIND_ROWS.find((r) => r.names.includes(what.toLowerCase()));
  if (row === undefined)
    throw new UsageError(`cannot get '${what}': one of clusters, machines, machinesets, machinedeployments`);
  const output = oneOf('-o', values.output, ['table', 'json', 'yaml', 'wide'], 'table');
  if (values['all-namespaces'] && values.namespace !== undefined)
    throw new UsageError('-A and -n exclude each other');
  checkNamespaceFlag(values.namespace);

  lib = await import('@capi-kit/client');
  const { manifestYaml } = await import('../yaml-text.js');
  const client = await connectManagement(io, 'get', values.kubeconfig);
  if (typeof client === 'number') return client;
  const namespace = values['all-namespaces'] ? undefined : namespaceOf(client, values.namespace);
  if (client.resources(row.kind).length === 0) {
    const served = client.discovery.served.map((v) => v.apiVersion).join(', ') || 'none';
    io.stderr(
      `capi-kit get: the server serves no Cluster API version with ${row.kind} (served: ${served})\n`,
    );
    return ExitCode.cluster;
  }
  const listed = await listServed(client, row.kind, namespace);
  if ('error' in listed) {
    io.stderr(`capi-kit get: ${printable(listed.error)}\n`);
    return ExitCode.cluster;
  }
  // The other kind a table reads is for one column: a user who may list only the kind asked
  // for (kubectl needs no more) gets the table, that column's limits said on stderr.
  const forbidden = (list: { error: string; code: string }, effect: string) => {
    if (list.code !== 'forbidden') return false;
    io.stderr(`capi-kit get: warning: ${printable(list.error)}; ${effect}\n`);
    return true;
  };
  let machines: Map<string, Item[]> | undefined = new Map<string, Item[]>();
  if (row.kind === 'Cluster' && (output === 'table' || output === 'wide')) {
    const machineList = await listServed(client, 'Machine', namespace);
    if ('error' in machineList) {
      if (!forbidden(machineList, 'MACHINES is <unknown>')) {
        io.stderr(`capi-kit get: ${printable(machineList.error)}\n`);
        return ExitCode.cluster;
      }
      machines = undefined;
    } else machines = byCluster(machineList.items);
  }
  // A paused Cluster leaves its Machines' stored phases standing: find which are paused.
  const pausedClusters = new Set<string>();
  if (row.kind === 'Machine' && (output === 'table' || output === 'wide')) {
    const clusterList = await listServed(client, 'Cluster', namespace);
    if ('error' in clusterList) {
      const effect =
        'whether a Cluster is paused is unknown, so each Machine shows the phase its controller computes (a paused Cluster leaves the stored one)';
      if (!forbidden(clusterList, effect)) {
        io.stderr(`capi-kit get: ${printable(clusterList.error)}\n`);
        return ExitCode.cluster;
      }
    } else {
      for (const c of clusterList.items) {
        if (c.invalid === undefined && isLaterClusterPaused(c.raw as never))
          pausedClusters.add(clusterKey(c.raw.metadata?.namespace, cellText(c.raw.metadata?.name)));
      }
    }
  }
  for (const item of listed.items)
    if (item.invalid !== undefined) io.stderr(`capi-kit get: warning: ${printable(item.invalid.message)}\n`);

  if (output === 'json' || output === 'yaml') {
    // kubectl's shape: a v1 List of the objects exactly as served.
    const list = {
      apiVersion: 'v1',
      kind: 'List',
      metadata: { resourceVersion: '' },
      items: listed.items.map((i) => i.raw),
    };
    io.stdout(output === 'json' ? `${jsonText(list, 2)}\n` : manifestYaml([list]));
    return ExitCode.ok;
  }
  if (listed.items.length === 0) {
    io.stderr(
      `No resources found${namespace === undefined ? '' : ` in ${printable(namespace)} namespace`}.\n`,
    );
    return ExitCode.ok;
  }
  const columns = [
    ...(namespace === undefined
      ? [{ header: 'NAMESPACE', cell: (i: Item) => cellText(i.raw.metadata?.namespace) } satisfies Column]
      : []),
    ...row.columns.filter((c) => output === 'wide' || !c.wide),
  ];
  const context: Context = { now: Date.now(), machines, pausedClusters };
  const rows = listed.items.map((item) => columns.map((c) => printable(c.cell(item, context))));
  io.stdout(
    formatTable(
      columns.map((c) => c.header),
      rows,
    ),
  );
  return ExitCode.ok;
}

export const getCommand: CommandBody = { usage, run };
