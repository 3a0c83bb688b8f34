import type {
  NodeGroup,
  NodeGroupInstance,
  NodeGroupProvider,
  NodeGroupProviderOptions,
  NodeResolution,
  Problem,
} from '@capi-kit/autoscaler';
import type { KubeConfig } from '@kubernetes/client-node';
import { oneOf, parseCommandLine } from '../args.js';
import { loadKubeConfigOrReport } from '../cluster-client.js';
import type { CommandBody } from '../command.js';
import { ExitCode, UsageError } from '../exit-codes.js';
import type { CliIO } from '../io.js';
import { requestTimeoutMs } from '../kubeconfig.js';
import { checkNamespaceFlag, checkObjectName } from '../names.js';
import { formatTable } from '../table.js';
import { jsonText, printable } from '../text.js';

const usage = `Usage: capi-kit autoscaler groups [--json] [options]
       capi-kit autoscaler node-group NODE [--json] [options]

Cluster API node groups as cluster-autoscaler's clusterapi provider sees them
(docs/autoscaler.md), with nodes matched to machines by providerID identity and each
node's maintenance lease. Reads only; it never scales or deletes anything.

Actions:
  groups       every node group: id, min, max, target size, its nodes, and the nodes
               under maintenance (their lease held or reserved)
  node-group   the node group of NODE, the Machine it was matched to and how

The management cluster (Machines, MachineSets, MachineDeployments) is the current context
of --kubeconfig FILE, else KUBECONFIG, else ~/.kube/config.

Options:
      --kubeconfig FILE            the management cluster's kubeconfig
      --workload-kubeconfig FILE   Nodes and leases are in this cluster (default: the
                                   management cluster, as in a joined cluster)
      --workload-from-secret       each Cluster's Nodes through its <cluster>-kubeconfig Secret
      --api-version GROUP/VERSION  pin the Cluster API version (default: discovered,
                                   cluster.x-k8s.io before cluster.k8s.io)
      --auto-discovery SPEC        clusterapi:namespace=NS,clusterName=NAME,label=value
                                   (repeatable; OR-ed)
      --lease-namespace NS         maintenance lease namespace (default kube-node-maintenance,
                                   or medik8s-leases with --lease-layout medik8s)
      --lease-layout kep|medik8s   lease names: the node name (kep, default) or node-<node>
      --json                       groups: one JSON object a line; node-group: one object

Exit codes: 0 done, 1 unknown node or invalid node-group annotations, 2 usage error,
3 cluster or API error (an unusable kubeconfig included; an unknown node while a
workload cluster could not be read; groups: a maintenance lease that could not be read,
its node listed as under maintenance, state unknown).
`;

const options = {
  kubeconfig: { type: 'string' },
  'workload-kubeconfig': { type: 'string' },
  'workload-from-secret': { type: 'boolean' },
  'api-version': { type: 'string' },
  'auto-discovery': { type: 'string', multiple: true },
  'lease-namespace': { type: 'string' },
  'lease-layout': { type: 'string' },
  json: { type: 'boolean' },
} as const;

const actions = ['groups', 'node-group'] as const;

const json = (value: unknown) => `${jsonText(value)}\n`;

async function groupRecord(group: NodeGroup) {
  const [target, instances] = await Promise.all([group.targetSize(), group.nodes()]);
  return {
    id: group.id,
    kind: group.kind,
    namespace: group.namespace,
    name: group.name,
    min: group.minSize,
    max: group.maxSize,
    target,
    nodes: instances.map((i: NodeGroupInstance) => ({ id: i.id, machine: i.machine.name, node: i.node })),
    nodesUnderMaintenance: instances
      .filter((i) => i.maintenance !== null)
      .map((i) => ({
        node: i.node,
        holder: i.maintenance!.holder ?? null,
        state: i.maintenance!.state,
        ...(i.maintenance!.error === undefined ? {} : { error: i.maintenance!.error.message }),
      })),
  };
}

/**
 * The leases that could not be read: their nodes are listed as under maintenance (state
 * `unknown`, fail closed), and each is named on stderr with why, so the listing is never
 * mistaken for a complete one.
 */
function unreadLeases(io: CliIO, records: readonly Awaited<ReturnType<typeof groupRecord>>[]): number {
  let count = 0;
  for (const record of records)
    for (const m of record.nodesUnderMaintenance)
      if (m.error !== undefined) {
        io.stderr(`warning: ${printable(m.error)}\n`);
        count++;
      }
  return count;
}

function warn(io: CliIO, problems: readonly Problem[]) {
  for (const p of problems) io.stderr(`warning: ${printable(p.message)}\n`);
}

async function groups(provider: NodeGroupProvider, io: CliIO, asJson: boolean): Promise<number> {
  const records = await Promise.all(provider.nodeGroups().map(groupRecord));
  warn(io, provider.problems());
  // (the listing is printed whole; the exit code says a lease was left unread)
  const exit = unreadLeases(io, records) > 0 ? ExitCode.cluster : ExitCode.ok;
  if (asJson) {
    io.stdout(records.map(json).join(''));
    return exit;
  }
  const rows = records.map((r) => [
    printable(r.id),
    String(r.min),
    String(r.max),
    String(r.target),
    String(r.nodes.length),
    r.nodesUnderMaintenance.length === 0
      ? '-'
      : r.nodesUnderMaintenance.map((m) => printable(`${m.node} (${m.holder ?? m.state})`)).join(', '),
  ]);
  io.stdout(formatTable(['ID', 'MIN', 'MAX', 'TARGET', 'NODES', 'UNDER MAINTENANCE'], rows, { gap: 2 }));
  return exit;
}

function resolutionRecord(r: NodeResolution) {
  return {
    node: r.node,
    providerID: r.providerID,
    group: r.group === null ? null : { id: r.group.id, min: r.group.minSize, max: r.group.maxSize },
    machine: r.machine,
    matchedBy: r.matchedBy,
    owner: r.owner,
    reason: r.reason,
    ambiguous: r.ambiguous,
    problems: r.problems.map((p) => ({ code: p.code, object: p.object, message: p.message })),
  };
}

function nodeGroup(provider: NodeGroupProvider, node: string, io: CliIO, asJson: boolean): number {
  const r = provider.explainNode(node);
  if (r.nodeObject === undefined) {
    io.stderr(`capi-kit autoscaler: ${printable(r.reason ?? `unknown node ${node}`)}\n`);
    // The Node may be in a workload cluster that could not be read: name those, and make it
    // a cluster error (3), not an unknown node (1).
    const unread = provider.problems().filter((p) => p.code === 'workload-unavailable');
    warn(io, unread);
    return unread.length > 0 ? ExitCode.cluster : ExitCode.input;
  }
  if (asJson) io.stdout(json(resolutionRecord(r)));
  else {
    const lines = [`node ${r.node}: ${r.group === null ? 'no node group' : `node group ${r.group.id}`}`];
    if (r.providerID !== '') lines.push(`  providerID:  ${r.providerID}`);
    if (r.machine !== null)
      lines.push(`  machine:     ${r.machine.namespace}/${r.machine.name} (by ${r.matchedBy})`);
    if (r.owner !== null) lines.push(`  owner:       ${r.owner.kind} ${r.owner.namespace}/${r.owner.name}`);
    if (r.group !== null) lines.push(`  size:        min ${r.group.minSize}, max ${r.group.maxSize}`);
    if (r.reason !== null) lines.push(`  why:         ${r.reason}`);
    io.stdout(`${lines.map(printable).join('\n')}\n`);
  }
  warn(io, r.problems);
  // Several machines for one node: cluster-autoscaler refuses to pick; so does this.
  return r.ambiguous.length > 0 ? ExitCode.input : ExitCode.ok;
}

async function run(args: readonly string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseCommandLine(args, options);
  const [actionText, node, ...extra] = positionals;
  if (actionText === undefined) throw new UsageError(`missing action (one of ${actions.join(', ')})`);
  const action = oneOf('action', actionText, actions, 'groups');
  if (action === 'node-group' && (node === undefined || node === '')) throw new UsageError('missing NODE');
  const unexpected = action === 'groups' ? node : extra[0];
  if (unexpected !== undefined) throw new UsageError(`unexpected argument '${unexpected}'`);
  // (as lease NODE: a name no Node can have is a usage error before any request, not exit 3
  // when the cluster cannot be reached and exit 1 when it can)
  if (action === 'node-group') checkObjectName('NODE', node!, 'node name');
  if (values['workload-kubeconfig'] !== undefined && values['workload-from-secret'])
    throw new UsageError('--workload-kubeconfig and --workload-from-secret exclude each other');
  const layout = oneOf('--lease-layout', values['lease-layout'], ['kep', 'medik8s'] as const, 'kep');
  checkNamespaceFlag(values['lease-namespace'], '--lease-namespace');

  // Twice the request timeout: a request that times out fails the start first, with its own
  // reason ("The operation was aborted due to timeout"); this bound is for caches that get
  // answers and keep relisting, none of them usable.
  const startTimeoutMs = 2 * requestTimeoutMs(io);

  // The shared loader: an unusable kubeconfig is reported as a cluster error (exit 3).
  const management = await loadKubeConfigOrReport(io, 'autoscaler', values.kubeconfig);
  if (typeof management === 'number') return management;
  let workload: KubeConfig | 'from-secret' | undefined;
  if (values['workload-from-secret']) workload = 'from-secret';
  else if (values['workload-kubeconfig'] !== undefined) {
    const loaded = await loadKubeConfigOrReport(io, 'autoscaler', values['workload-kubeconfig']);
    if (typeof loaded === 'number') return loaded;
    workload = loaded;
  }
  const { createNodeGroupProvider, NodeGroupError } = await import('@capi-kit/autoscaler');
  const providerOptions: NodeGroupProviderOptions = {
    management,
    workload,
    autoDiscovery: values['auto-discovery'] ?? [],
    apiVersion: values['api-version'],
    leaseGuard: { layout, namespace: values['lease-namespace'] },
  };
  let provider: NodeGroupProvider | undefined;
  try {
    // The provider's caches keep relisting while the API server answers lists with what
    // cannot be read (a 500, an HTML page, a list without items): bounded here, so that
    // the command ends with exit 3 instead of waiting for ever with nothing said.
    const starting = createNodeGroupProvider(providerOptions);
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<'timed-out'>((resolve) => {
      timer = setTimeout(() => resolve('timed-out'), startTimeoutMs);
    });
    const first = await Promise.race([starting, timedOut]).finally(() => clearTimeout(timer));
    if (first === 'timed-out') {
      // (stopped should it start after all; its failure is the message below)
      starting.then((late) => late.stop()).catch(() => {});
      io.stderr(
        `capi-kit autoscaler: list Machines, MachineSets, MachineDeployments and Nodes: no usable answer ` +
          `within ${startTimeoutMs / 1000} s (twice CAPI_KIT_REQUEST_TIMEOUT_SECONDS)\n`,
      );
      return ExitCode.cluster;
    }
    provider = first;
    return action === 'groups'
      ? await groups(provider, io, values.json ?? false)
      : nodeGroup(provider, node!, io, values.json ?? false);
  } catch (error) {
    if (!(error instanceof NodeGroupError)) throw error;
    if (error.code === 'invalid-options') throw new UsageError(error.message);
    io.stderr(`capi-kit autoscaler: ${printable(error.message)}\n`);
    return error.code === 'api-error' ? ExitCode.cluster : ExitCode.input;
  } finally {
    await provider?.stop();
  }
}

export const autoscalerCommand: CommandBody = { usage, run };
