import type {
  AcquireResult,
  LeaseInspection,
  NodeLeaseClient,
  NodeLeaseObserverOptions,
} from '@capi-kit/lease';
import { oneOf, parseCommandLine } from '../args.js';
import type { CommandBody } from '../command.js';
import { ExitCode, UsageError } from '../exit-codes.js';
import type { CliIO } from '../io.js';
import { KubeconfigError, loadKubeConfig } from '../kubeconfig.js';
import { checkNamespaceFlag, checkObjectName, isSubdomainName } from '../names.js';
import { jsonText, printable } from '../text.js';

const actions = ['status', 'acquire', 'renew', 'release', 'hold'] as const;
type Action = (typeof actions)[number];

const usage = `Usage: capi-kit lease status|acquire|renew|release|hold NODE [--holder ID] [options]

The node maintenance lease (docs/lease.md): one coordination.k8s.io/v1 Lease per node that
whoever disrupts the node (reboot, drain, remediation) holds first. Uses the current context
of the kubeconfig (KUBECONFIG, else ~/.kube/config, else in-cluster).

Actions:
  status   show the lease: holder, times, expiry as this process judges it
  acquire  take the lease once if it is free or expired (exit 1 when someone else holds it);
           with --wait, observe a held lease and take it once it has gone a whole duration
           without renewal (exit 1 when it is still held when the wait ends)
  renew    renew a lease this holder holds (exit 1 when it does not)
  release  give the lease up if this holder holds it (exit 1 when someone else does)
  hold     wait for the lease, keep renewing it until SIGINT or SIGTERM, then release it
           (exit 1 if it loses the lease: another holder takes it, someone else releases
           or deletes it; 3 if renewals fail past the renew deadline)

Options:
      --holder ID          holder identity (required except for status; not kubeadm…)
      --duration S         leaseDurationSeconds, 1..3600 (default 60); renew deadline and
                           retry period scale with it (2/3 and 1/6)
  -n, --namespace NS       lease namespace (default kube-node-maintenance,
                           or medik8s-leases with --layout medik8s)
      --layout kep|medik8s lease names: the node name (kep, default) or node-<node> (medik8s)
      --trust-renew-time   also judge expiry by the lease's renewTime (+3 s for clock skew);
                           by default a lease held by someone else counts as held for a whole
                           duration from when this process first sees it
      --wait[=S]           acquire: wait up to S seconds, 1..3600 (default: until the lease
                           would expire by this process's clock, about one lease duration)
                           for a held lease to be abandoned; note the '=' (no space)
      --ensure-namespace   create the namespace if missing (acquire, hold)
      --json               print JSON instead of text

Exit codes: 0 done, 1 held by someone else / not the holder, 2 usage error,
3 cluster or API error (forbidden, unreachable, ...).
`;

const options = {
  holder: { type: 'string' },
  duration: { type: 'string' },
  namespace: { type: 'string', short: 'n' },
  layout: { type: 'string' },
  'trust-renew-time': { type: 'boolean' },
  'ensure-namespace': { type: 'boolean' },
  json: { type: 'boolean' },
  wait: { type: 'string' },
} as const;

function parseSeconds(flag: string, text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const seconds = /^\d+$/.test(text) ? Number(text) : Number.NaN;
  if (!(seconds >= 1 && seconds <= 3600)) {
    throw new UsageError(`${flag} must be 1..3600 (whole seconds; got ${JSON.stringify(text)})`);
  }
  return seconds;
}

function parseDuration(text: string | undefined): number | undefined {
  return parseSeconds('--duration', text);
}

/**
 * `--wait` takes an optional value, which parseArgs cannot express: a bare `--wait` (before
 * any `--`) is rewritten to `--wait=`, whose empty value means "one lease duration".
 */
function withBareWait(args: readonly string[]): string[] {
  const end = args.indexOf('--');
  return args.map((arg, at) => (arg === '--wait' && (end === -1 || at < end) ? '--wait=' : arg));
}

/** `--wait` as milliseconds: undefined without the flag, 'lease-duration' for a bare one. */
function parseWait(text: string | undefined): number | 'lease-duration' | undefined {
  if (text === undefined) return undefined;
  if (text === '') return 'lease-duration';
  return parseSeconds('--wait', text)! * 1000;
}

/**
 * `--duration -5`: parseArgs reads `-5` as a flag and says "ambiguous argument"; the value is
 * what is wrong, so it is named as such.
 */
function checkNegativeDuration(args: readonly string[]): void {
  const at = args.indexOf('--duration');
  const value = at === -1 ? undefined : args[at + 1];
  if (value !== undefined && /^-\d/.test(value)) parseDuration(value);
}

/**
 * The lease library and client-node, loaded on first use: client-node takes about a second
 * to import, which no other capi-kit command should pay.
 */
async function loadLibraries() {
  const [lease, clientNode] = await Promise.all([
    import('@capi-kit/lease'),
    import('@kubernetes/client-node'),
  ]);
  return { ...lease, KubeConfig: clientNode.KubeConfig };
}

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)}s`;
}

function describe(lease: LeaseInspection): string {
  const where = `${lease.namespace}/${lease.leaseName}`;
  if (lease.state === 'absent') return `node ${lease.node}: no maintenance lease (${where} does not exist)`;
  const lines = [
    `node ${lease.node}: lease ${where} is ${lease.foreign ? `${lease.state} (foreign)` : lease.state}`,
  ];
  if (lease.holder !== undefined)
    lines.push(
      `  holder:       ${printable(lease.holder)}${lease.reserved ? ' (reserved for administrators)' : ''}`,
    );
  if (lease.acquireTime) lines.push(`  acquired:     ${lease.acquireTime.toISOString()}`);
  if (lease.renewTime) lines.push(`  renewed:      ${lease.renewTime.toISOString()}`);
  if (lease.leaseDurationSeconds !== undefined) lines.push(`  duration:     ${lease.leaseDurationSeconds}s`);
  if (lease.leaseTransitions !== undefined) lines.push(`  transitions:  ${lease.leaseTransitions}`);
  if (lease.expiresInMs !== undefined) {
    const when =
      lease.expiresInMs > 0 ? `in ${seconds(lease.expiresInMs)}` : `${seconds(-lease.expiresInMs)} ago`;
    const rule =
      lease.decidedBy === 'remote-renew-time' ? 'by its renewTime' : 'from when this process saw it';
    lines.push(`  expires:      ${when} (${rule})`);
  }
  return lines.join('\n');
}

/**
 * A fresh process judges a held lease as held for a whole duration from now, whatever its
 * renewTime says (docs/lease.md, "Judging expiry"). When the renewTime is older than the
 * duration (plus the clock-skew allowance), the holder has probably died: say how to take
 * over instead of letting a one-shot caller conclude the node is busy.
 */
function staleHint(lease: LeaseInspection, now: Date, maxClockSkewMs: number): string {
  if (lease.state !== 'held' || lease.heldByMe || lease.renewTime === undefined) return '';
  if (lease.leaseDurationSeconds === undefined) return '';
  const ageMs = now.getTime() - lease.renewTime.getTime();
  if (!(ageMs > lease.leaseDurationSeconds * 1000 + maxClockSkewMs)) return '';
  const minutes = Math.floor(ageMs / 60_000);
  const age =
    minutes >= 1 ? `${minutes} minute${minutes === 1 ? '' : 's'}` : `${Math.floor(ageMs / 1000)} seconds`;
  return `\n  renewTime is ${age} old; run with --wait or --trust-renew-time to take over`;
}

function refusal(result: AcquireResult & { acquired: false }): string {
  const { lease } = result;
  if (result.because === 'reserved') {
    return `node ${lease.node} is reserved by an administrator ('${printable(result.holder)}'): it is never taken automatically`;
  }
  if (result.because === 'foreign') {
    return `lease ${lease.namespace}/${lease.leaseName} uses Coordinated Leader Election fields; it is not a maintenance lease and is left alone`;
  }
  const expiry =
    lease.expiresInMs === undefined ? '' : ` (expires in ${seconds(lease.expiresInMs)} unless renewed)`;
  return `node ${lease.node} is under maintenance by '${printable(result.holder)}'${expiry}`;
}

function json(value: unknown): string {
  return `${jsonText(value)}\n`;
}

/** Resolves on SIGINT or SIGTERM (and stops listening once `done` is called). */
function onTerminationSignal(): { signal: AbortSignal; done: () => void } {
  const controller = new AbortController();
  const stop = (name: NodeJS.Signals) => controller.abort(name);
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  return {
    signal: controller.signal,
    done: () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
    },
  };
}

/**
 * The kubeconfig as kubectl reads it (kubeconfig.ts: clear errors for a missing, empty,
 * garbage or directory file, exit 3), or, inside a pod with none, the pod's service account.
 */
async function leaseKubeConfig(
  io: CliIO,
  KubeConfig: typeof import('@kubernetes/client-node').KubeConfig,
): Promise<import('@kubernetes/client-node').KubeConfig> {
  try {
    return await loadKubeConfig(io);
  } catch (error) {
    const inCluster = io.env.KUBERNETES_SERVICE_HOST !== undefined && io.env.KUBECONFIG === undefined;
    if (!(error instanceof KubeconfigError) || !inCluster || error.code !== 'no-kubeconfig') throw error;
    const kubeConfig = new KubeConfig();
    kubeConfig.loadFromCluster();
    return kubeConfig;
  }
}

async function run(args: readonly string[], io: CliIO): Promise<number> {
  checkNegativeDuration(args);
  const { values, positionals } = parseCommandLine(withBareWait(args), options);
  const [actionText, node, ...extra] = positionals;
  if (actionText === undefined) throw new UsageError(`missing action (one of ${actions.join(', ')})`);
  const action: Action = oneOf('action', actionText, actions, 'status');
  if (node === undefined || node === '') throw new UsageError('missing NODE');
  if (extra.length > 0) throw new UsageError(`unexpected argument '${extra[0]}'`);
  const layout = oneOf('--layout', values.layout, ['kep', 'medik8s'] as const, 'kep');
  const leaseDurationSeconds = parseDuration(values.duration);
  const wait = parseWait(values.wait);
  if (wait !== undefined && action !== 'acquire') throw new UsageError('--wait applies to acquire only');
  if (action !== 'status' && values.holder === undefined) throw new UsageError(`${action} needs --holder ID`);
  // (names go into the request path: names.ts)
  checkObjectName('NODE', node, 'node name');
  checkNamespaceFlag(values.namespace);

  const {
    checkHolderIdentity,
    defaultMaxClockSkewMs,
    LeaseApiError,
    LeaseConfigError,
    NodeLeaseClient,
    NodeLeaseObserver,
    KubeConfig,
    medik8sLeases,
    nodeNamedLeases,
  } = await loadLibraries();
  const location = layout === 'medik8s' ? medik8sLeases(values.namespace) : nodeNamedLeases(values.namespace);
  // (medik8s' `node-` makes a valid 250-character node name a lease name the server refuses)
  const leaseName = location.leaseName(node);
  if (!isSubdomainName(leaseName)) {
    throw new UsageError(
      `NODE ${JSON.stringify(node)} has no valid lease name in the ${layout} layout: ${JSON.stringify(leaseName)} is longer than 253 characters`,
    );
  }
  try {
    // The holder is input too: checked (LeaseConfigError: a usage error) before the kubeconfig.
    if (values.holder !== undefined) checkHolderIdentity(values.holder);
    const kubeConfig = await leaseKubeConfig(io, KubeConfig);
    const common: NodeLeaseObserverOptions = {
      kubeConfig,
      location,
      timing: leaseDurationSeconds === undefined ? undefined : { leaseDurationSeconds },
      trustRenewTime: values['trust-renew-time'] ?? false,
    };
    if (action === 'status') {
      const observer =
        values.holder === undefined
          ? new NodeLeaseObserver(common)
          : new NodeLeaseClient({ ...common, holderIdentity: values.holder });
      const lease = await observer.inspect(node);
      const text = () =>
        `${describe(lease)}${staleHint(lease, observer.clock.now(), defaultMaxClockSkewMs)}\n`;
      io.stdout(values.json ? json(lease) : text());
      return ExitCode.ok;
    }
    const client = new NodeLeaseClient({
      ...common,
      holderIdentity: values.holder!,
      ensureNamespace: values['ensure-namespace'] ?? false,
    });
    switch (action) {
      case 'acquire':
        return wait === undefined
          ? await acquire(client, node, io, values.json ?? false)
          : await acquireWaiting(client, node, wait, io, values.json ?? false);
      case 'renew':
        return await renew(client, node, io, values.json ?? false);
      case 'release':
        return await release(client, node, io, values.json ?? false);
      case 'hold':
        return await hold(client, node, io, values.json ?? false);
    }
  } catch (error) {
    if (error instanceof KubeconfigError) {
      io.stderr(`capi-kit lease: ${printable(error.message)}\n`);
      return ExitCode.cluster;
    }
    if (error instanceof LeaseConfigError) throw new UsageError(error.message);
    if (error instanceof LeaseApiError) {
      io.stderr(`capi-kit lease: ${printable(error.message)}\n`);
      return ExitCode.cluster;
    }
    throw error;
  }
}

async function acquire(client: NodeLeaseClient, node: string, io: CliIO, asJson: boolean): Promise<number> {
  return reportAcquire(await client.tryAcquire(node), client, node, io, asJson);
}

/**
 * `acquire --wait`: the one-shot caller's way to take over an abandoned lease without
 * trusting clocks. It keeps reading the lease (the library's observation log judges it on
 * this process's monotonic clock) and takes it once it has been seen unchanged for a whole
 * lease duration; a holder that keeps renewing keeps it. `wait` bounds the wait, by default
 * to the lease's expiry as first judged (one duration) plus one retry period. Reserved and
 * foreign leases never expire: refused at once.
 */
async function acquireWaiting(
  client: NodeLeaseClient,
  node: string,
  wait: number | 'lease-duration',
  io: CliIO,
  asJson: boolean,
): Promise<number> {
  const termination = onTerminationSignal();
  try {
    let deadlineMs: number | undefined;
    for (;;) {
      const result = await client.tryAcquire(node);
      if (result.acquired || result.because !== 'held' || termination.signal.aborted) {
        return reportAcquire(result, client, node, io, asJson);
      }
      const nowMs = client.clock.monotonicMs();
      deadlineMs ??=
        nowMs +
        (wait === 'lease-duration'
          ? Math.max(0, result.lease.expiresInMs ?? 0) + attemptMarginMs(result.lease)
          : wait);
      const remainingMs = deadlineMs - nowMs;
      if (remainingMs <= 0) return reportAcquire(result, client, node, io, asJson);
      io.stderr(`capi-kit lease: waiting up to ${seconds(remainingMs)} more: ${refusal(result)}\n`);
      try {
        await client.waitToRetry(
          result,
          AbortSignal.any([
            termination.signal,
            AbortSignal.timeout(Math.min(Math.ceil(remainingMs), maxTimerMs)),
          ]),
        );
      } catch (error) {
        if (termination.signal.aborted) {
          io.stderr(`capi-kit lease: stopped by ${String(termination.signal.reason)} before acquiring\n`);
          return ExitCode.input;
        }
        // The wait's own deadline: one last attempt, then the answer.
        if (!(error instanceof DOMException && error.name === 'TimeoutError')) throw error;
      }
    }
  } finally {
    termination.done();
  }
}

/**
 * The longest delay a timer takes (about 24.8 days). A lease anyone may write can say
 * `leaseDurationSeconds: 2147483647`, and the default wait lasts one such duration: beyond
 * 2^31 - 1 ms the timer fired after 1 ms (a read of the lease every few ms), beyond 2^32 - 1
 * it threw. The wait's own timer only cuts short a retry pause, and the loop checks the
 * deadline itself, so capping it changes nothing else.
 */
const maxTimerMs = 2 ** 31 - 1;

/**
 * Slack after the judged expiry before a default `--wait` gives up: room for the attempt made
 * at expiry (a read and a write), a sixth of the lease's own duration as its retry period
 * would be, and at least a second.
 */
function attemptMarginMs(lease: LeaseInspection): number {
  return lease.leaseDurationSeconds === undefined
    ? 1000
    : Math.max(1000, Math.round((lease.leaseDurationSeconds * 1000) / 6));
}

function reportAcquire(
  result: AcquireResult,
  client: NodeLeaseClient,
  node: string,
  io: CliIO,
  asJson: boolean,
): number {
  if (asJson) io.stdout(json(result));
  if (!result.acquired) {
    io.stderr(`capi-kit lease: ${refusal(result)}\n`);
    return ExitCode.input;
  }
  if (!asJson) {
    io.stdout(
      `acquired the maintenance lease of node ${node} for '${printable(client.holderIdentity)}' (${result.how}, ` +
        `${client.timing.leaseDurationSeconds}s; renew before it expires)\n`,
    );
  }
  return ExitCode.ok;
}

async function renew(client: NodeLeaseClient, node: string, io: CliIO, asJson: boolean): Promise<number> {
  const result = await client.renew(node);
  if (asJson) io.stdout(json(result));
  if (!result.renewed) {
    const why =
      result.because === 'absent'
        ? 'the lease does not exist'
        : result.because === 'foreign'
          ? 'the lease uses Coordinated Leader Election fields'
          : result.holder === undefined
            ? 'nobody holds it'
            : `it is held by '${printable(result.holder)}'`;
    io.stderr(
      `capi-kit lease: '${printable(client.holderIdentity)}' does not hold the lease of node ${node}: ${why}\n`,
    );
    return ExitCode.input;
  }
  if (!asJson)
    io.stdout(`renewed the maintenance lease of node ${node} for '${printable(client.holderIdentity)}'\n`);
  return ExitCode.ok;
}

async function release(client: NodeLeaseClient, node: string, io: CliIO, asJson: boolean): Promise<number> {
  const result = await client.release(node);
  if (asJson) io.stdout(json(result));
  if (!result.released && result.holder !== undefined) {
    io.stderr(
      `capi-kit lease: the lease of node ${node} is held by '${printable(result.holder)}', not released\n`,
    );
    return ExitCode.input;
  }
  if (!asJson) {
    io.stdout(
      result.released
        ? `released the maintenance lease of node ${node}\n`
        : `nothing to release: nobody holds the lease of node ${node}\n`,
    );
  }
  return ExitCode.ok;
}

async function hold(client: NodeLeaseClient, node: string, io: CliIO, asJson: boolean): Promise<number> {
  const termination = onTerminationSignal();
  try {
    let announcedWait = false;
    let held: Awaited<ReturnType<NodeLeaseClient['hold']>>;
    try {
      held = await client.hold(node, {
        signal: termination.signal,
        onWait: (refusalResult) => {
          if (announcedWait) return;
          announcedWait = true;
          io.stderr(`capi-kit lease: waiting: ${refusal(refusalResult)}\n`);
        },
      });
    } catch (error) {
      if (termination.signal.aborted) {
        io.stderr(`capi-kit lease: stopped by ${String(termination.signal.reason)} before acquiring\n`);
        return ExitCode.input;
      }
      throw error;
    }
    io.stdout(
      asJson
        ? json({ holding: node, holder: client.holderIdentity, lease: held.lease })
        : `holding the maintenance lease of node ${node} for '${printable(client.holderIdentity)}' until SIGINT or SIGTERM\n`,
    );
    const lost = await Promise.race([
      held.ended,
      new Promise<undefined>((resolve) =>
        termination.signal.addEventListener('abort', () => resolve(undefined)),
      ),
    ]);
    if (lost !== undefined) {
      io.stderr(`capi-kit lease: ${printable(lost.message)}\n`);
      // Lost to what the server shows (another holder, no holder, deleted, foreign): the
      // refusal code, as for any lease someone else has. Renewals that kept failing until the
      // renew deadline are a cluster/API error.
      return lost.because === 'deadline' ? ExitCode.cluster : ExitCode.input;
    }
    const result = await held.release();
    io.stdout(
      asJson
        ? json({ released: node, result })
        : `released the maintenance lease of node ${node} (${String(termination.signal.reason)})\n`,
    );
    return ExitCode.ok;
  } finally {
    termination.done();
  }
}

export const leaseCommand: CommandBody = {
  usage,
  run,
};
