import type { ClusterDescription, DescribedGroup, DescribedMachine } from '@capi-kit/client';
import type { KubeConfig } from '@kubernetes/client-node';
import { parseCommandLine } from '../args.js';
import { connectManagement, loadKubeConfigOrReport, namespaceOf } from '../cluster-client.js';
import type { CommandBody } from '../command.js';
import { ExitCode, UsageError } from '../exit-codes.js';
import type { CliIO } from '../io.js';
import { requestTimeoutMs } from '../kubeconfig.js';
import { checkNamespaceFlag, checkObjectName } from '../names.js';
import { jsonText, printable } from '../text.js';

const usage = `Usage: capi-kit describe cluster NAME [-n NS] [--workload-kubeconfig FILE] [--json]

Describes one Cluster of a live management cluster (either Cluster API version): its
MachineDeployments, MachineSets and Machines (by ownerReferences; v1alpha1 objects without
owners by their owner's selector), each Machine's phase (core's rules), its providerID and,
through the workload cluster, its Node (joined by providerID identity, not string equality),
the Node's Ready condition and its node maintenance lease. Then the problems: machines
without a node, nodes without a machine, failed machines, ambiguous joins.

The workload cluster is reached with --workload-kubeconfig FILE, else through the Cluster's
<name>-kubeconfig Secret; when neither works, the tree is still printed with nodes unknown
and the reason among the problems.

Options:
  -n, --namespace NS              the Cluster's namespace (default: the context's, else default)
      --workload-kubeconfig FILE  the workload cluster's kubeconfig
      --kubeconfig FILE           the management cluster's kubeconfig (default: KUBECONFIG,
                                  else ~/.kube/config, else in-cluster)
      --json                      one JSON object: {"cluster","machines","nodesWithoutMachine","problems"}

Output is a tree, coloured on a terminal (not when piped, nor with NO_COLOR).

Exit codes: 0 ok (problems included), 1 no such Cluster, 2 usage error, 3 cluster/API error
or an unusable kubeconfig. Nothing is printed on stdout on failure.
`;

/** The `describe --json` contract's object (docs/client.md): exactly these keys. */
function contractJson(d: ClusterDescription) {
  return {
    cluster: {
      apiVersion: d.cluster.apiVersion,
      kind: d.cluster.kind,
      name: d.cluster.name,
      namespace: d.cluster.namespace,
      phase: d.cluster.phase,
    },
    machines: d.machines.map((m) => ({
      name: m.name,
      namespace: m.namespace,
      phase: m.phase,
      providerID: m.providerID,
      owner: m.owner === null ? null : { kind: m.owner.kind, name: m.owner.name },
      node: m.node === null ? null : { name: m.node.name, ready: m.node.ready },
      maintenance:
        m.maintenance === null ? null : { holder: m.maintenance.holder, state: m.maintenance.state },
    })),
    nodesWithoutMachine: [...d.nodesWithoutMachine],
    problems: d.problems.map((p) => ({ object: p.object, message: p.message })),
  };
}

/** ANSI styles, or none. */
interface Styles {
  readonly bold: (s: string) => string;
  readonly dim: (s: string) => string;
  readonly good: (s: string) => string;
  readonly bad: (s: string) => string;
}

const ansi = (code: string) => (s: string) => `\u001b[${code}m${s}\u001b[0m`;
const COLOURS: Styles = { bold: ansi('1'), dim: ansi('2'), good: ansi('32'), bad: ansi('31') };
const PLAIN: Styles = { bold: (s) => s, dim: (s) => s, good: (s) => s, bad: (s) => s };

const PHASE_STYLE: Readonly<Record<string, keyof Styles>> = {
  running: 'good',
  provisioned: 'good',
  failed: 'bad',
  deleting: 'bad',
};

interface TreeNode {
  readonly line: string;
  readonly children: TreeNode[];
}

function machineLine(m: DescribedMachine, s: Styles, nodesKnown: boolean): string {
  // (a paused Machine's stored phase is free text from the server)
  const phase = m.phase === '' ? 'unknown' : printable(m.phase);
  const style = s[PHASE_STYLE[m.phase] ?? 'dim'];
  const node =
    m.node === null
      ? s.dim(nodesKnown ? 'no node' : 'node unknown')
      : `node ${printable(m.node.name)} ${m.node.ready ? s.good('Ready') : s.bad('NotReady')}`;
  const maintenance =
    m.maintenance === null || m.maintenance.state === 'absent'
      ? ''
      : `  maintenance: ${m.maintenance.state}${m.maintenance.holder === null ? '' : ` by ${printable(m.maintenance.holder)}`}`;
  return `${s.bold('Machine')} ${printable(m.name)}  ${style(phase)}  ${printable(m.providerID ?? '<no providerID>')}  ${node}${maintenance}`;
}

function groupLine(g: DescribedGroup, s: Styles): string {
  return `${s.bold(g.kind)} ${printable(g.name)}${g.replicas === null ? '' : s.dim(`  replicas ${g.replicas}`)}`;
}

/** MachineDeployments → MachineSets → Machines; objects whose owner is not in the tree hang off the Cluster. */
function buildTree(d: ClusterDescription, s: Styles): TreeNode {
  const key = (kind: string, name: string) => `${kind}/${name}`;
  const nodes = new Map<string, TreeNode>();
  const root: TreeNode = {
    line: `${s.bold('Cluster')} ${printable(`${d.cluster.namespace}/${d.cluster.name}`)} ${s.dim(`(${d.cluster.apiVersion})`)}  phase ${s[PHASE_STYLE[d.cluster.phase] ?? 'dim'](d.cluster.phase === '' ? 'unknown' : printable(d.cluster.phase))}`,
    children: [],
  };
  for (const g of [...d.machineDeployments, ...d.machineSets])
    nodes.set(key(g.kind, g.name), { line: groupLine(g, s), children: [] });
  const attach = (node: TreeNode, owner: { kind: string; name: string } | null) =>
    ((owner === null ? undefined : nodes.get(key(owner.kind, owner.name))) ?? root).children.push(node);
  for (const g of d.machineDeployments) attach(nodes.get(key(g.kind, g.name))!, g.owner);
  for (const g of d.machineSets) attach(nodes.get(key(g.kind, g.name))!, g.owner);
  for (const m of d.machines) attach({ line: machineLine(m, s, d.nodesKnown), children: [] }, m.owner);
  return root;
}

function renderTree(node: TreeNode, prefix = '', out: string[] = []): string[] {
  if (out.length === 0) out.push(node.line);
  node.children.forEach((child, i) => {
    const last = i === node.children.length - 1;
    out.push(`${prefix}${last ? '└─ ' : '├─ '}${child.line}`);
    renderTree(child, `${prefix}${last ? '   ' : '│  '}`, out);
  });
  return out;
}

function renderText(d: ClusterDescription, s: Styles): string {
  const lines = renderTree(buildTree(d, s));
  if (d.nodesWithoutMachine.length > 0) {
    lines.push(
      '',
      s.bold('Nodes without a machine:'),
      ...d.nodesWithoutMachine.map((n) => `  ${printable(n)}`),
    );
  }
  lines.push('', s.bold(`Problems (${d.problems.length}):`));
  if (d.problems.length === 0) lines.push(`  ${s.dim('none')}`);
  for (const p of d.problems) lines.push(`  ${s.bad('!')} ${printable(p.object)}: ${printable(p.message)}`);
  return `${lines.join('\n')}\n`;
}

async function run(args: readonly string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseCommandLine(args, {
    namespace: { type: 'string', short: 'n' },
    'workload-kubeconfig': { type: 'string' },
    kubeconfig: { type: 'string' },
    json: { type: 'boolean' },
  });
  const [what, name, ...extra] = positionals;
  if (what === undefined) throw new UsageError('missing what to describe (cluster)');
  if (what !== 'cluster' && what !== 'clusters')
    throw new UsageError(`cannot describe '${what}': only cluster`);
  if (name === undefined || name === '') throw new UsageError('missing the Cluster NAME');
  if (extra.length > 0) throw new UsageError(`unexpected argument '${extra[0]}'`);
  checkObjectName('NAME', name, 'Cluster name');
  checkNamespaceFlag(values.namespace);

  let workload: KubeConfig | undefined;
  if (values['workload-kubeconfig'] !== undefined) {
    const loaded = await loadKubeConfigOrReport(io, 'describe', values['workload-kubeconfig']);
    if (typeof loaded === 'number') return loaded;
    workload = loaded;
  }
  const client = await connectManagement(io, 'describe', values.kubeconfig);
  if (typeof client === 'number') return client;
  const namespace = namespaceOf(client, values.namespace);
  const { describeCluster } = await import('@capi-kit/client');
  const described = await describeCluster(client, name, {
    namespace,
    ...(workload === undefined ? {} : { workload }),
    // (the lease client sets its own deadline; CAPI_KIT_REQUEST_TIMEOUT_SECONDS bounds it too)
    leaseRequestTimeoutMs: requestTimeoutMs(io),
  });
  if (described._tag === 'Left') {
    io.stderr(`capi-kit describe: ${printable(described.left.message)}\n`);
    return described.left.code === 'not-found' ? ExitCode.input : ExitCode.cluster;
  }
  if (values.json) {
    io.stdout(`${jsonText(contractJson(described.right))}\n`);
    return ExitCode.ok;
  }
  const colour = io.stdoutIsTTY === true && (io.env.NO_COLOR ?? '') === '';
  io.stdout(renderText(described.right, colour ? COLOURS : PLAIN));
  return ExitCode.ok;
}

export const describeCommand: CommandBody = { usage, run };
