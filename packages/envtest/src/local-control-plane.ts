import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ControlPlaneBinaries } from './binaries.js';
import { EnvtestError } from './errors.js';
import { freePort, get, waitFor } from './net.js';
import {
  type CertificateAndKey,
  type CertificateAuthority,
  createCertificateAuthority,
  createServiceAccountSigningKey,
} from './pki.js';
import { type SupervisedProcess, startSupervisedProcess } from './supervised-process.js';

// etcd + kube-apiserver as child processes on 127.0.0.1, the way controller-runtime's
// envtest runs them (flags: see docs/testing.md and the reference notes), with our own
// certificates and a temporary directory that holds everything.

/** Options for {@link startLocalControlPlane}. */
export interface LocalControlPlaneOptions {
  binaries: ControlPlaneBinaries;
  /** Parent of the temporary directory (default: the OS temp dir). */
  tmpDir?: string;
  /** How long to wait for each process to become ready. */
  startTimeoutMs: number;
  /** Extra kube-apiserver flags, e.g. `--feature-gates=…`; later flags win. */
  apiServerFlags?: readonly string[];
}

/** A running local control plane; what the public ControlPlane is built from. */
export interface LocalControlPlane {
  readonly server: string;
  readonly dir: string;
  /** CA of the apiserver's serving certificate (what clients trust). */
  readonly servingCA: CertificateAuthority;
  /** CA that kube-apiserver trusts for client certificates (what users are minted from). */
  readonly clientCA: CertificateAuthority;
  readonly admin: CertificateAndKey;
  readonly etcd: SupervisedProcess;
  apiServer(): SupervisedProcess;
  restartApiServer(): Promise<void>;
  stop(): Promise<void>;
}

const adminUser = 'capi-kit-admin';

// etcd < 3.5 (e.g. Debian's 3.4 package, usable through TEST_ASSET_ETCD) has no
// --unsafe-no-fsync and refuses unknown flags, so ask the binary once, as envtest does.
const fsyncFlagSupport = new Map<string, Promise<boolean>>();
function supportsNoFsync(binary: string): Promise<boolean> {
  let known = fsyncFlagSupport.get(binary);
  if (!known) {
    known = new Promise((resolve) => {
      execFile(
        binary,
        ['--help'],
        { timeout: 10_000, maxBuffer: 4 * 1024 * 1024 },
        (_error, stdout, stderr) => resolve(`${stdout}${stderr}`.includes('--unsafe-no-fsync')),
      );
    });
    fsyncFlagSupport.set(binary, known);
  }
  return known;
}

async function startEtcd(
  binary: string,
  dir: string,
  timeoutMs: number,
): Promise<{ process: SupervisedProcess; url: string }> {
  const clientPort = await freePort();
  const peerPort = await freePort();
  const url = `http://127.0.0.1:${clientPort}`;
  const peer = `http://127.0.0.1:${peerPort}`;
  const process = startSupervisedProcess({
    name: 'etcd',
    binary,
    logFile: join(dir, 'etcd.log'),
    // The etcd guard owns the data directory: whatever way the run ends, the directory goes
    // once etcd, the last process to stop, has gone.
    removeAfterExit: dir,
    args: [
      '--name=envtest',
      `--data-dir=${join(dir, 'etcd')}`,
      `--listen-client-urls=${url}`,
      `--advertise-client-urls=${url}`,
      `--listen-peer-urls=${peer}`,
      `--initial-advertise-peer-urls=${peer}`,
      `--initial-cluster=envtest=${peer}`,
      // Test data is disposable; skipping fsync makes every write several times faster.
      ...((await supportsNoFsync(binary)) ? ['--unsafe-no-fsync=true'] : []),
      '--log-level=warn',
    ],
  });
  try {
    await waitFor(
      'etcd',
      async () => {
        const res = await get(`${url}/health`);
        return res.status === 200 && res.body.includes('"true"') ? true : `/health ${res.status} ${res.body}`;
      },
      { timeoutMs, abort: () => (process.hasExited() ? 'etcd exited' : undefined) },
    );
  } catch (error) {
    await process.stop();
    throw error;
  }
  return { process, url };
}

async function writePki(dir: string) {
  const pki = join(dir, 'pki');
  await mkdir(pki, { recursive: true });
  const [servingCA, clientCA, sa] = await Promise.all([
    createCertificateAuthority('capi-kit-envtest-serving-ca'),
    createCertificateAuthority('capi-kit-envtest-client-ca'),
    createServiceAccountSigningKey(),
  ]);
  const [serving, admin] = await Promise.all([
    servingCA.issueServerCertificate(),
    clientCA.issueClientCertificate(adminUser, ['system:masters']),
  ]);
  const files = {
    servingCert: join(pki, 'apiserver.crt'),
    servingKey: join(pki, 'apiserver.key'),
    clientCA: join(pki, 'client-ca.crt'),
    saPub: join(pki, 'sa.pub'),
    saKey: join(pki, 'sa.key'),
  };
  await Promise.all([
    writeFile(files.servingCert, serving.certPem + servingCA.certPem),
    writeFile(files.servingKey, serving.keyPem, { mode: 0o600 }),
    writeFile(files.clientCA, clientCA.certPem),
    writeFile(files.saPub, sa.publicKeyPem),
    writeFile(files.saKey, sa.privateKeyPem, { mode: 0o600 }),
  ]);
  return { servingCA, clientCA, admin, files, pki };
}

function apiServerArgs(options: {
  port: number;
  etcdUrl: string;
  files: Awaited<ReturnType<typeof writePki>>['files'];
  certDir: string;
  extra: readonly string[];
}): string[] {
  const { port, files } = options;
  return [
    `--etcd-servers=${options.etcdUrl}`,
    '--bind-address=127.0.0.1',
    `--secure-port=${port}`,
    // Without these two, kube-apiserver looks for a non-loopback interface to advertise
    // (and fails without a default route), then keeps logging errors about the
    // `kubernetes` Service endpoints, which cannot be loopback addresses.
    '--advertise-address=127.0.0.1',
    '--endpoint-reconciler-type=none',
    `--cert-dir=${options.certDir}`,
    `--tls-cert-file=${files.servingCert}`,
    `--tls-private-key-file=${files.servingKey}`,
    `--client-ca-file=${files.clientCA}`,
    `--service-account-issuer=https://127.0.0.1:${port}/`,
    `--service-account-key-file=${files.saPub}`,
    `--service-account-signing-key-file=${files.saKey}`,
    '--service-cluster-ip-range=10.0.0.0/24',
    // kube-apiserver would default to AlwaysAllow; RBAC lets tests check permissions.
    '--authorization-mode=RBAC',
    // No controller-manager creates the default ServiceAccount that this plugin demands.
    '--disable-admission-plugins=ServiceAccount',
    '--allow-privileged=true',
    '-v=1',
    ...options.extra,
  ];
}

/** Starts etcd and kube-apiserver; on failure, stops what started and reports both logs. */
export async function startLocalControlPlane(options: LocalControlPlaneOptions): Promise<LocalControlPlane> {
  const dir = await mkdtemp(join(options.tmpDir ?? tmpdir(), 'capi-kit-envtest-'));
  let etcd: SupervisedProcess | undefined;
  let apiServer: SupervisedProcess | undefined;
  try {
    const etcdStarted = await startEtcd(options.binaries.etcd, dir, options.startTimeoutMs);
    etcd = etcdStarted.process;
    const port = await freePort();
    const server = `https://127.0.0.1:${port}`;
    const pki = await writePki(dir);
    const args = apiServerArgs({
      port,
      etcdUrl: etcdStarted.url,
      files: pki.files,
      certDir: pki.pki,
      extra: options.apiServerFlags ?? [],
    });
    const tls = { caPem: pki.servingCA.certPem, certPem: pki.admin.certPem, keyPem: pki.admin.keyPem };
    const etcdProcess = etcd;

    const launch = async (): Promise<SupervisedProcess> => {
      const proc = startSupervisedProcess({
        name: 'kube-apiserver',
        binary: options.binaries.kubeApiServer,
        args,
        logFile: join(dir, 'kube-apiserver.log'),
        stopGraceMs: 15_000,
      });
      apiServer = proc;
      const abort = () =>
        proc.hasExited() ? 'kube-apiserver exited' : etcdProcess.hasExited() ? 'etcd exited' : undefined;
      // /readyz covers etcd, the RBAC bootstrap roles and the CRD informers; the default
      // namespace is created by a bootstrap controller slightly later.
      await waitFor(
        'kube-apiserver /readyz',
        async () => {
          const res = await get(`${server}/readyz`, tls);
          return res.status === 200
            ? true
            : `/readyz ${res.status}: ${res.body
                .split('\n')
                .filter((l) => l.includes('[-]'))
                .join(' ')}`;
        },
        { timeoutMs: options.startTimeoutMs, abort },
      );
      await waitFor(
        'namespace default',
        async () => (await get(`${server}/api/v1/namespaces/default`, tls)).status === 200,
        { timeoutMs: options.startTimeoutMs, abort },
      );
      return proc;
    };

    let current = await launch();
    let stopped = false;
    return {
      server,
      dir,
      servingCA: pki.servingCA,
      clientCA: pki.clientCA,
      admin: pki.admin,
      etcd: etcdProcess,
      apiServer: () => current,
      restartApiServer: async () => {
        if (stopped) throw new EnvtestError('not-set-up', 'control plane is stopped');
        await current.stop();
        try {
          current = await launch();
        } catch (error) {
          const message = startFailureMessage(error, dir, apiServer, etcdProcess);
          // Whatever half-started is stopped; stop() later finds nothing left to wait for.
          if (apiServer) current = apiServer;
          await current.stop();
          throw new EnvtestError('start-failed', message, { cause: error });
        }
      },
      stop: async () => {
        if (stopped) return;
        stopped = true;
        await current.stop();
        await etcdProcess.stop();
        await rm(dir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    const message = startFailureMessage(error, dir, apiServer, etcd);
    await apiServer?.stop();
    await etcd?.stop();
    await rm(dir, { recursive: true, force: true });
    throw new EnvtestError('start-failed', message, { cause: error });
  }
}

function startFailureMessage(
  error: unknown,
  dir: string,
  apiServer: SupervisedProcess | undefined,
  etcd: SupervisedProcess | undefined,
): string {
  const parts = [`control plane failed to start: ${(error as Error).message}`];
  if (apiServer) parts.push(`--- last lines of kube-apiserver log ---\n${apiServer.logTail(25)}`);
  if (etcd) parts.push(`--- last lines of etcd log ---\n${etcd.logTail(15)}`);
  if (!apiServer && !etcd) parts.push(`(nothing was started; directory ${dir})`);
  return parts.join('\n');
}
