import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { CoreV1Api } from '@kubernetes/client-node';
import { findControlPlaneBinaries } from './binaries.js';
import {
  type BackendKind,
  type ControlPlaneClient,
  type ControlPlaneConnection,
  connect,
} from './connection.js';
import { DeadlineError, withinDeadline } from './deadline.js';
import { probeDocker } from './docker.js';
import { EnvtestError } from './errors.js';
import { kubeconfigDocument } from './kubeconfig.js';
import { startLocalControlPlane } from './local-control-plane.js';

/** Options for {@link startControlPlane}. */
export interface StartControlPlaneOptions {
  /**
   * Which backend to use. `auto` (default) takes the first available of: an existing
   * cluster named by CAPI_KIT_ENVTEST_KUBECONFIG, local binaries, k3s in Docker.
   * CAPI_KIT_ENVTEST_BACKEND sets the default.
   */
  backend?: 'auto' | BackendKind;
  /** Per-process start timeout in ms (default 60 000, or CAPI_KIT_ENVTEST_START_TIMEOUT). */
  startTimeoutMs?: number;
  /** Extra kube-apiserver flags for the local backend. */
  apiServerFlags?: readonly string[];
  /** Parent directory for the control plane's temporary directory (local backend). */
  tmpDir?: string;
  /** Where the one-line backend report goes (default: stderr). Pass `() => {}` to silence. */
  log?: (line: string) => void;
  /** Environment to read settings from (default: process.env). */
  env?: NodeJS.ProcessEnv;
}

/** A running control plane. */
export interface ControlPlane extends ControlPlaneClient {
  /** Plain data describing how to reach this control plane (for other processes). */
  readonly connection: ControlPlaneConnection;
  /**
   * Stops kube-apiserver and starts it again on the same address with the same
   * credentials, while etcd keeps the data. Local backend only.
   */
  restartApiServer(): Promise<void>;
  /**
   * Stops the processes and removes the temporary directory (local, k3s); for an existing
   * cluster, deletes the namespaces this object created. Safe to call twice.
   */
  stop(): Promise<void>;
}

const restartNeedsLocal = () =>
  new EnvtestError('not-supported', 'restartApiServer() needs the local backend');

/** Thrown when no backend can run; `reasons` says why, backend by backend. */
export class NoControlPlaneError extends EnvtestError<'no-control-plane'> {
  override name = 'NoControlPlaneError';
  constructor(readonly reasons: string[]) {
    super('no-control-plane', `no control plane available:\n  - ${reasons.join('\n  - ')}`);
  }
}

/** A candidate backend: either a way to start it, or why it cannot run. */
type Candidate =
  | { kind: BackendKind; available: true; summary: string; start: () => Promise<ControlPlane> }
  | { kind: BackendKind; available: false; reason: string };

/** The result of looking for a usable backend without starting anything. */
export interface BackendChoice {
  chosen?: { kind: BackendKind; summary: string };
  /** Why each backend before (and instead of) the chosen one was not used. */
  skipped: string[];
}

function timeoutFrom(options: StartControlPlaneOptions, env: NodeJS.ProcessEnv): number {
  if (options.startTimeoutMs) return options.startTimeoutMs;
  const raw = env.CAPI_KIT_ENVTEST_START_TIMEOUT;
  return raw ? parseDuration('CAPI_KIT_ENVTEST_START_TIMEOUT', raw) : 60_000;
}

/** `90s`, `2m`, `60000ms` or `60000` (ms) from an environment variable. */
function parseDuration(name: string, raw: string): number {
  const m = /^(\d+(?:\.\d+)?)(ms|s|m)?$/.exec(raw.trim());
  if (!m) throw new EnvtestError('invalid-setting', `${name}=${raw}: expected e.g. 90s, 60000ms or 2m`);
  const factor = m[2] === 'm' ? 60_000 : m[2] === 's' ? 1_000 : 1;
  return Number(m[1]) * factor;
}

/** How long a k3s image pull may take (CAPI_KIT_ENVTEST_K3S_PULL_TIMEOUT, default 5 min). */
function k3sPullAllowanceMs(env: NodeJS.ProcessEnv): number {
  const raw = env.CAPI_KIT_ENVTEST_K3S_PULL_TIMEOUT;
  return raw ? parseDuration('CAPI_KIT_ENVTEST_K3S_PULL_TIMEOUT', raw) : 300_000;
}

function existingCandidate(env: NodeJS.ProcessEnv): Candidate {
  const path = env.CAPI_KIT_ENVTEST_KUBECONFIG;
  if (!path)
    return {
      kind: 'existing',
      available: false,
      reason: 'existing cluster: CAPI_KIT_ENVTEST_KUBECONFIG is not set',
    };
  const kubeconfigPath = resolve(path);
  return {
    kind: 'existing',
    available: true,
    summary: `existing cluster from CAPI_KIT_ENVTEST_KUBECONFIG=${kubeconfigPath}`,
    start: async () => {
      const kubeconfig = await readFile(kubeconfigPath, 'utf8');
      const connection: ControlPlaneConnection = {
        backend: 'existing',
        description: `existing cluster (${kubeconfigPath})`,
        kubeconfig,
        kubeconfigPath,
      };
      const client = connect(connection);
      // Smoke-test the credentials now rather than in the first test.
      await client.kubeConfig.makeApiClient(CoreV1Api).listNamespace({ limit: 1 });
      return withLifecycle(client, connection, {
        restartApiServer: () => Promise.reject(restartNeedsLocal()),
        stop: async () => {},
        deleteNamespacesOnStop: true,
      });
    },
  };
}

function localCandidate(
  env: NodeJS.ProcessEnv,
  options: StartControlPlaneOptions,
  timeoutMs: number,
): Candidate {
  const lookup = findControlPlaneBinaries(env);
  if (!lookup.found) {
    return {
      kind: 'local',
      available: false,
      reason: `local binaries: none found (${lookup.tried.join('; ')}); build them with packages/envtest/scripts/build-control-plane.sh`,
    };
  }
  const { binaries } = lookup;
  return {
    kind: 'local',
    available: true,
    summary: `local kube-apiserver + etcd from ${binaries.source}`,
    start: async () => {
      // A free port can be taken between our probe and the bind; try again with new ones.
      let plane: Awaited<ReturnType<typeof startLocalControlPlane>> | undefined;
      for (let attempt = 1; !plane; attempt++) {
        try {
          plane = await startLocalControlPlane({
            binaries,
            startTimeoutMs: timeoutMs,
            ...(options.tmpDir ? { tmpDir: options.tmpDir } : {}),
            ...(options.apiServerFlags ? { apiServerFlags: options.apiServerFlags } : {}),
          });
        } catch (error) {
          if (attempt >= 3 || !/address already in use/.test((error as Error).message)) throw error;
        }
      }
      const local = plane;
      const kubeconfigPath = join(local.dir, 'kubeconfig');
      const kubeconfig = JSON.stringify(
        kubeconfigDocument({
          server: local.server,
          caPem: local.servingCA.certPem,
          user: 'capi-kit-admin',
          credentials: local.admin,
        }),
      );
      await writeFile(kubeconfigPath, kubeconfig, { mode: 0o600 });
      const connection: ControlPlaneConnection = {
        backend: 'local',
        description: `local kube-apiserver ${local.server} (binaries: ${binaries.source})`,
        kubeconfig,
        kubeconfigPath,
        clientCA: { certPem: local.clientCA.certPem, keyPem: local.clientCA.keyPem },
      };
      return withLifecycle(connect(connection), connection, {
        restartApiServer: () => local.restartApiServer(),
        stop: () => local.stop(),
        deleteNamespacesOnStop: false,
      });
    },
  };
}

async function k3sCandidate(env: NodeJS.ProcessEnv, timeoutMs: number): Promise<Candidate> {
  const docker = await probeDocker(env);
  if (!docker.available) return { kind: 'k3s', available: false, reason: `k3s: ${docker.reason}` };
  const image = env.CAPI_KIT_ENVTEST_K3S_IMAGE || 'rancher/k3s:v1.33.1-k3s1';
  return {
    kind: 'k3s',
    available: true,
    summary: `k3s ${image} via testcontainers (Docker at ${docker.endpoint})`,
    start: async () => {
      let k3s: typeof import('@testcontainers/k3s');
      try {
        k3s = await import('@testcontainers/k3s');
      } catch (error) {
        throw new EnvtestError(
          'not-supported',
          `k3s backend: @testcontainers/k3s is not installed (${(error as Error).message})`,
          { cause: error },
        );
      }
      // Docker errors (a pull the registry refuses, a port it cannot publish) surface as
      // one clear error; an image pull has no timeout of its own, hence the deadline.
      const pullMs = k3sPullAllowanceMs(env);
      const hint =
        `set CAPI_KIT_ENVTEST_K3S_IMAGE to an image Docker can pull or already has, ` +
        `CAPI_KIT_ENVTEST_K3S_PULL_TIMEOUT (now ${pullMs / 1000}s) for a slow pull, ` +
        `or CAPI_KIT_ENVTEST_BACKEND=local to use local binaries`;
      const container = await withinDeadline(
        new k3s.K3sContainer(image).withStartupTimeout(timeoutMs).start(),
        pullMs + timeoutMs,
        `k3s backend: ${image} did not start within ${(pullMs + timeoutMs) / 1000}s ` +
          `(image pull + start) with Docker at ${docker.endpoint}; ${hint}`,
        (late) => late.stop(),
      ).catch((error: unknown) => {
        if (error instanceof DeadlineError) throw error;
        throw new EnvtestError(
          'start-failed',
          `k3s backend: could not start ${image} with Docker at ${docker.endpoint}: ` +
            `${(error as Error).message}; ${hint}`,
          { cause: error },
        );
      });
      const dir = await mkdtemp(join(tmpdir(), 'capi-kit-envtest-k3s-'));
      try {
        const kubeconfig = container.getKubeConfig();
        const kubeconfigPath = join(dir, 'kubeconfig');
        await writeFile(kubeconfigPath, kubeconfig, { mode: 0o600 });
        // k3s keeps its client CA inside the container; reading it lets kubeConfigFor()
        // mint users exactly as with the local backend.
        const read = async (file: string) => {
          const result = await container.exec(['cat', `/var/lib/rancher/k3s/server/tls/${file}`]);
          if (result.exitCode !== 0) {
            throw new EnvtestError('start-failed', `k3s: cannot read ${file}: ${result.output}`);
          }
          return result.stdout;
        };
        const connection: ControlPlaneConnection = {
          backend: 'k3s',
          description: `k3s ${image} in Docker`,
          kubeconfig,
          kubeconfigPath,
          clientCA: { certPem: await read('client-ca.crt'), keyPem: await read('client-ca.key') },
        };
        return withLifecycle(connect(connection), connection, {
          restartApiServer: () => Promise.reject(restartNeedsLocal()),
          stop: async () => {
            await container.stop();
            await rm(dir, { recursive: true, force: true });
          },
          deleteNamespacesOnStop: false,
        });
      } catch (error) {
        await container.stop();
        await rm(dir, { recursive: true, force: true });
        throw error;
      }
    },
  };
}

function withLifecycle(
  client: ControlPlaneClient,
  connection: ControlPlaneConnection,
  lifecycle: {
    restartApiServer: () => Promise<void>;
    stop: () => Promise<void>;
    deleteNamespacesOnStop: boolean;
  },
): ControlPlane {
  const created: string[] = [];
  let stopped: Promise<void> | undefined;
  return {
    ...client,
    connection,
    createNamespace: async (prefix) => {
      const name = await client.createNamespace(prefix);
      created.push(name);
      return name;
    },
    restartApiServer: lifecycle.restartApiServer,
    stop: () => {
      stopped ??= (async () => {
        if (lifecycle.deleteNamespacesOnStop) {
          const core = client.kubeConfig.makeApiClient(CoreV1Api);
          await Promise.allSettled(created.map((name) => core.deleteNamespace({ name })));
        }
        await lifecycle.stop();
      })();
      return stopped;
    },
  };
}

async function candidates(options: StartControlPlaneOptions, env: NodeJS.ProcessEnv): Promise<Candidate[]> {
  const wanted =
    options.backend ?? (env.CAPI_KIT_ENVTEST_BACKEND as StartControlPlaneOptions['backend']) ?? 'auto';
  if (!['auto', 'existing', 'local', 'k3s'].includes(wanted)) {
    throw new EnvtestError(
      'invalid-setting',
      `unknown envtest backend ${wanted}: expected auto, existing, local or k3s`,
    );
  }
  const timeoutMs = timeoutFrom(options, env);
  const list: Candidate[] = [];
  if (wanted === 'auto' || wanted === 'existing') list.push(existingCandidate(env));
  if (wanted === 'auto' || wanted === 'local') list.push(localCandidate(env, options, timeoutMs));
  // Docker is probed even when an earlier backend fits (one quick socket round trip), so
  // the start-up line always says whether k3s could have run.
  if (wanted === 'auto' || wanted === 'k3s') list.push(await k3sCandidate(env, timeoutMs));
  return list;
}

/** Finds the backend startControlPlane() would use, without starting it. */
export async function chooseBackend(options: StartControlPlaneOptions = {}): Promise<BackendChoice> {
  const env = options.env ?? process.env;
  const skipped: string[] = [];
  for (const candidate of await candidates(options, env)) {
    if (candidate.available) return { chosen: { kind: candidate.kind, summary: candidate.summary }, skipped };
    skipped.push(candidate.reason);
  }
  return { skipped };
}

/**
 * Starts (or connects to) a Kubernetes control plane for tests and reports in one line
 * which backend it uses. Throws {@link NoControlPlaneError} when none is available.
 */
export async function startControlPlane(options: StartControlPlaneOptions = {}): Promise<ControlPlane> {
  const env = options.env ?? process.env;
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const reasons: string[] = [];
  const all = await candidates(options, env);
  for (const candidate of all) {
    if (!candidate.available) {
      reasons.push(candidate.reason);
      continue;
    }
    const started = Date.now();
    const plane = await candidate.start();
    const others = all
      .filter((c) => c !== candidate)
      .map((c) => (c.available ? `${c.kind}: available, not used` : c.reason));
    log(
      `[envtest] ${candidate.summary}, ready in ${Date.now() - started} ms` +
        (others.length > 0 ? ` | ${others.join(' | ')}` : ''),
    );
    return plane;
  }
  throw new NoControlPlaneError(reasons);
}
