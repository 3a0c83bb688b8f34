import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { waitForAccess } from '@capi-kit/envtest';
import { noControlPlane, useControlPlane } from '@capi-kit/envtest/vitest';
import { NodeLeaseClient } from '@capi-kit/lease';
import {
  CoordinationV1Api,
  type KubeConfig,
  RbacAuthorizationV1Api,
  V1MicroTime,
} from '@kubernetes/client-node';
import { afterEach, describe, expect, it } from 'vitest';
import { CONTROL_BUT_NEWLINE, setLeaseHolder } from './helpers/hostile-lease.js';
import { cliBin, runCli } from './helpers/run-cli.js';

const env = useControlPlane();
const scratch = mkdtempSync(join(tmpdir(), 'capi-kit-lease-cli-'));
let counter = 0;
const node = (label: string) => `${label}-${++counter}-${Math.random().toString(36).slice(2, 7)}`;

/** `capi-kit lease ...` against the test server, in this file's namespace. */
function lease(args: readonly string[], kubeconfig = env.kubeconfigPath) {
  return runCli(['lease', ...args, '--namespace', env.namespace], { env: { KUBECONFIG: kubeconfig } });
}

function writeKubeconfig(name: string, kubeConfig: KubeConfig): string {
  const path = join(scratch, `${name}.kubeconfig`);
  writeFileSync(path, kubeConfig.exportConfig());
  return path;
}

function libraryClient(holderIdentity: string, leaseDurationSeconds = 2) {
  return new NodeLeaseClient({
    kubeConfig: env.kubeConfig,
    namespace: env.namespace,
    holderIdentity,
    timing: { leaseDurationSeconds },
  });
}

/** Polls `check` every 50 ms until it holds or (a generous liveness bound) 60 s pass. */
async function eventually(check: () => boolean | Promise<boolean>, timeoutMs = 60_000): Promise<boolean> {
  const deadline = performance.now() + timeoutMs;
  while (!(await check()) && performance.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  return check();
}

/**
 * A holder identity as anyone who can write a Lease may store it (the API server does not
 * check it): a newline that would forge a status line, ESC and the 8-bit CSI (U+009B) that
 * would clear the terminal or recolour it.
 */
const hostileHolder = 'evil\n  holder:       forged\u001b[2J\u009b31m';
const hostileHolderEscaped = 'evil\\x0a  holder:       forged\\x1b[2J\\x9b31m';

function expectNoControlCharacters(text: string) {
  expect(text).not.toMatch(CONTROL_BUT_NEWLINE);
}

// Each case runs the CLI several times as a cold process: seconds each on a loaded machine.
describe.skipIf(noControlPlane())('capi-kit lease status|acquire|renew|release', { timeout: 600_000 }, () => {
  it('walks a lease through its life, with exit 1 for the other holder', () => {
    const n = node('cli');
    expect(lease(['status', n])).toMatchObject({
      code: 0,
      stdout: expect.stringContaining('no maintenance lease'),
    });

    const acquired = lease(['acquire', n, '--holder', 'alice', '--duration', '30']);
    expect(acquired).toMatchObject({ code: 0, stdout: expect.stringContaining("for 'alice' (created, 30s") });

    const refused = lease(['acquire', n, '--holder', 'bob']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`node ${n} is under maintenance by 'alice'`);

    const status = lease(['status', n, '--json']);
    expect(status.code).toBe(0);
    expect(JSON.parse(status.stdout)).toMatchObject({
      node: n,
      state: 'held',
      holder: 'alice',
      leaseDurationSeconds: 30,
      leaseTransitions: 0,
    });
    expect(lease(['status', n]).stdout).toMatch(/holder: +alice/);

    expect(lease(['renew', n, '--holder', 'alice'])).toMatchObject({ code: 0 });
    expect(lease(['renew', n, '--holder', 'bob'])).toMatchObject({
      code: 1,
      stderr: expect.stringContaining("it is held by 'alice'"),
    });
    expect(lease(['release', n, '--holder', 'bob'])).toMatchObject({
      code: 1,
      stderr: expect.stringContaining("held by 'alice', not released"),
    });
    expect(lease(['release', n, '--holder', 'alice'])).toMatchObject({
      code: 0,
      stdout: expect.stringContaining('released'),
    });
    expect(JSON.parse(lease(['status', n, '--json']).stdout)).toMatchObject({
      state: 'free',
      leaseDurationSeconds: 1,
    });
    expect(lease(['release', n, '--holder', 'alice'])).toMatchObject({
      code: 0,
      stdout: expect.stringContaining('nothing to release'),
    });

    // Free after the release: bob takes it at once.
    expect(lease(['acquire', n, '--holder', 'bob', '--json'])).toMatchObject({ code: 0 });
  });

  it('reports an administrator’s reservation and uses the medik8s layout', async () => {
    const n = node('reserved');
    await env.kubeConfig.makeApiClient(CoordinationV1Api).createNamespacedLease({
      namespace: env.namespace,
      body: { metadata: { name: n }, spec: { holderIdentity: 'kubeadm' } },
    });
    expect(lease(['acquire', n, '--holder', 'bot'])).toMatchObject({
      code: 1,
      stderr: expect.stringContaining("reserved by an administrator ('kubeadm')"),
    });

    const m = node('medik8s');
    expect(lease(['acquire', m, '--holder', 'NodeMaintenance', '--layout', 'medik8s'])).toMatchObject({
      code: 0,
    });
    expect(JSON.parse(lease(['status', m, '--layout', 'medik8s', '--json']).stdout)).toMatchObject({
      leaseName: `node-${m}`,
      holder: 'NodeMaintenance',
    });
  });

  it('rejects bad command lines with exit 2', () => {
    expect(lease(['acquire', 'n', '--holder', 'kubeadm-me'])).toMatchObject({
      code: 2,
      stderr: expect.stringContaining("reserved prefix 'kubeadm'"),
    });
    expect(lease(['acquire', 'n'])).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('needs --holder'),
    });
    expect(lease(['acquire', 'n', '--holder', 'a', '--duration', '3601'])).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('--duration must be 1..3600'),
    });
    expect(lease(['acquire', 'n', '--holder', 'a', '--duration', '2s'])).toMatchObject({ code: 2 });
    expect(lease(['grab', 'n', '--holder', 'a'])).toMatchObject({ code: 2 });
    expect(lease(['status'])).toMatchObject({ code: 2, stderr: expect.stringContaining('missing NODE') });
    // The kubelets' heartbeat namespace: its Leases are named after the nodes.
    for (const action of ['status', 'acquire', 'hold']) {
      const heartbeats = runCli(['lease', action, 'n', '--holder', 'a', '-n', 'kube-node-lease'], {
        env: { KUBECONFIG: env.kubeconfigPath },
      });
      expect(heartbeats, action).toMatchObject({
        code: 2,
        stdout: '',
        stderr: expect.stringContaining("holds the kubelets' heartbeat Leases"),
      });
    }
  });

  it.skipIf(noControlPlane('client-certificates'))(
    'exits 3 with the server’s message when RBAC forbids leases',
    async () => {
      const kubeconfig = writeKubeconfig('mallory', await env.kubeConfigFor('mallory', []));
      const result = lease(['acquire', node('rbac'), '--holder', 'mallory'], kubeconfig);
      expect(result.code).toBe(3);
      expect(result.stderr).toContain('User "mallory" cannot get resource "leases"');
      expect(result.stderr).toContain('(HTTP 403)');
      expect(lease(['status', 'x'], kubeconfig)).toMatchObject({ code: 3 });
    },
  );

  it('exits 3 when the API server cannot be reached', async () => {
    // A port that was just free: nothing listens there.
    const server = createServer();
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const { port } = server.address() as { port: number };
    server.close();
    await once(server, 'close');
    const kubeConfig = env.kubeConfig;
    const text = kubeConfig
      .exportConfig()
      .replace(/https:\/\/127\.0\.0\.1:\d+/g, `https://127.0.0.1:${port}`);
    const path = join(scratch, 'refused.kubeconfig');
    writeFileSync(path, text);
    const result = lease(['acquire', 'n', '--holder', 'a'], path);
    expect(result.code).toBe(3);
    expect(result.stderr).toMatch(/cannot reach the API server \(ECONNREFUSED\)/);
  });
});

describe.skipIf(noControlPlane())('capi-kit lease hold', { timeout: 600_000 }, () => {
  const children: ChildProcess[] = [];
  afterEach(() => {
    for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
  });

  /**
   * hold runs until signalled, so it is spawned rather than run with runCli. Its lease lasts
   * 12 s (renew deadline 8 s, a renewal every 2 s): a cold CLI process on a loaded machine
   * keeps up with that, where a 2 s lease (1.3 s deadline) is lost to a slow start.
   */
  function startHold(n: string, holder: string) {
    const child = spawn(
      process.execPath,
      [cliBin, 'lease', 'hold', n, '--holder', holder, '--duration', '12', '--namespace', env.namespace],
      { env: { ...process.env, KUBECONFIG: env.kubeconfigPath }, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    children.push(child);
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (chunk) => {
      stdout += chunk;
    });
    child.stderr!.on('data', (chunk) => {
      stderr += chunk;
    });
    const lines = createInterface({ input: child.stdout! });
    const holding = (async () => {
      for await (const line of lines) if (line.startsWith('holding')) return true;
      return false;
    })();
    const exited = once(child, 'exit').then(([code]) => ({ code: code as number | null, stdout, stderr }));
    return { child, holding, exited, stderr: () => stderr };
  }

  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    it(`holds and keeps renewing until ${signal}, then releases`, async () => {
      const n = node('hold');
      const hold = startHold(n, 'cli-holder');
      expect(await hold.holding).toBe(true);
      const observer = libraryClient('observer');
      const first = await observer.inspect(n);
      expect(first).toMatchObject({ state: 'held', holder: 'cli-holder', leaseDurationSeconds: 12 });
      // It renews (polled: a renewal is due every 2 s, later under load).
      let later = first;
      const renewed = async () => {
        later = await observer.inspect(n);
        return later.renewTime!.getTime() > first.renewTime!.getTime();
      };
      expect(await eventually(renewed)).toBe(true);
      expect(later.holder).toBe('cli-holder');
      expect(await observer.tryAcquire(n)).toMatchObject({ acquired: false, because: 'held' });

      hold.child.kill(signal);
      const result = await hold.exited;
      expect(result.code).toBe(0);
      expect(result.stdout).toContain(`released the maintenance lease of node ${n} (${signal})`);
      expect(await observer.inspect(n)).toMatchObject({ state: 'free', holder: undefined });
    });
  }

  it('waits while someone else holds the lease, then holds it', async () => {
    const n = node('queued');
    // A 60 s lease, so the CLI can only get it by the release below.
    const other = libraryClient('other', 60);
    await other.tryAcquire(n);
    const hold = startHold(n, 'cli-holder');
    // It announces the wait (once the cold process is up), and gets the lease once the
    // other holder releases.
    expect(await eventually(() => hold.stderr().includes('waiting'))).toBe(true);
    expect(hold.stderr()).toContain('waiting: node ' + n + " is under maintenance by 'other'");
    await other.release(n);
    expect(await hold.holding).toBe(true);
    hold.child.kill('SIGTERM');
    expect((await hold.exited).code).toBe(0);
  });

  it('acquire --wait: a holder that keeps renewing keeps its lease (exit 1 after the wait)', async () => {
    const n = node('live');
    const hold = startHold(n, 'live-holder');
    expect(await hold.holding).toBe(true);
    // Bare --wait: one lease duration (12 s) plus a retry period, while the hold renews every 2 s.
    const waited = lease(['acquire', n, '--holder', 'taker', '--wait']);
    expect(waited.code).toBe(1);
    expect(waited.stderr).toContain('waiting up to');
    expect(waited.stderr).toContain(`node ${n} is under maintenance by 'live-holder'`);
    expect(hold.child.exitCode).toBe(null);
    hold.child.kill('SIGTERM');
    expect((await hold.exited).code).toBe(0);
  });

  it('exits 1 (lost the lease) when the lease is deleted under it', async () => {
    const n = node('deleted');
    const hold = startHold(n, 'cli-holder');
    expect(await hold.holding).toBe(true);
    await env.kubeConfig
      .makeApiClient(CoordinationV1Api)
      .deleteNamespacedLease({ name: n, namespace: env.namespace });
    const result = await hold.exited;
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      `capi-kit lease: lost the maintenance lease of node ${n}: the lease was deleted\n`,
    );
  });

  it('exits 1 (lost the lease) when someone else empties its holder', async () => {
    const n = node('emptied');
    const hold = startHold(n, 'cli-holder');
    expect(await hold.holding).toBe(true);
    await setLeaseHolder(env.kubeConfig, { name: n, namespace: env.namespace }, '');
    const result = await hold.exited;
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      `capi-kit lease: lost the maintenance lease of node ${n}: the lease was released by someone else (it has no holder)\n`,
    );
  });

  it('exits 1 when another holder takes the lease from it', async () => {
    const n = node('stolen');
    const hold = startHold(n, 'cli-holder');
    expect(await hold.holding).toBe(true);
    // A usurper whose identity would forge a line and clear the terminal: printed escaped.
    await setLeaseHolder(env.kubeConfig, { name: n, namespace: env.namespace }, hostileHolder);
    const result = await hold.exited;
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`the lease is now held by '${hostileHolderEscaped}'`);
    expectNoControlCharacters(result.stderr);
  });
});

describe.skipIf(noControlPlane())('capi-kit lease: options and failure paths', { timeout: 600_000 }, () => {
  const api = () => env.kubeConfig.makeApiClient(CoordinationV1Api);

  /** A lease written as another tool would, with a renewTime long past. */
  async function staleLease(name: string, holder: string) {
    await api().createNamespacedLease({
      namespace: env.namespace,
      body: {
        metadata: { name },
        spec: {
          holderIdentity: holder,
          leaseDurationSeconds: 10,
          acquireTime: '2020-01-01T00:00:00.000000Z',
          renewTime: '2020-01-01T00:00:00.000000Z',
        } as never,
      },
    });
  }

  it('prints a hostile holder identity escaped in every text output: status, acquire, renew, release', async () => {
    const n = node('hostile');
    await api().createNamespacedLease({
      namespace: env.namespace,
      body: {
        metadata: { name: n },
        spec: {
          holderIdentity: hostileHolder,
          leaseDurationSeconds: 600,
          acquireTime: new Date().toISOString().replace('Z', '000Z'),
          renewTime: new Date().toISOString().replace('Z', '000Z'),
        } as never,
      },
    });
    // Stored as written: the API server does not check holder identities.
    const stored = await api().readNamespacedLease({ name: n, namespace: env.namespace });
    expect(stored.spec?.holderIdentity).toBe(hostileHolder);

    const status = lease(['status', n]);
    expect(status.code).toBe(0);
    expect(status.stdout.split('\n')[1]).toBe(`  holder:       ${hostileHolderEscaped}`);
    expect(status.stdout.split('\n').filter((l) => l.includes('holder:'))).toHaveLength(1);
    expectNoControlCharacters(status.stdout);
    // --json carries the identity exactly, JSON-escaped.
    expect(JSON.parse(lease(['status', n, '--json']).stdout)).toMatchObject({ holder: hostileHolder });

    const refused = lease(['acquire', n, '--holder', 'bob']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(
      `capi-kit lease: node ${n} is under maintenance by '${hostileHolderEscaped}'`,
    );
    expect(refused.stderr.split('\n')).toHaveLength(2);
    expectNoControlCharacters(refused.stderr);
    for (const [action, says] of [
      ['renew', `it is held by '${hostileHolderEscaped}'\n`],
      ['release', `held by '${hostileHolderEscaped}', not released\n`],
    ] as const) {
      const result = lease([action, n, '--holder', 'bob']);
      expect(result.code, action).toBe(1);
      expect(result.stderr, action).toContain(says);
      expectNoControlCharacters(result.stderr);
      expect(result.stderr.split('\n'), action).toHaveLength(2);
    }

    // The caller's own identity is input too: C1 controls pass the identity check (it refuses
    // C0 and DEL only) and are escaped when printed.
    const own = node('own-c1');
    const acquired = lease(['acquire', own, '--holder', 'ops\u009b2J', '--duration', '30']);
    expect(acquired.code).toBe(0);
    expect(acquired.stdout).toContain("for 'ops\\x9b2J'");
    expectNoControlCharacters(acquired.stdout);
  });

  it('renew: exit 1 when the lease does not exist, with the reason as JSON under --json', () => {
    const n = node('absent');
    expect(lease(['renew', n, '--holder', 'alice'])).toMatchObject({
      code: 1,
      stderr: `capi-kit lease: 'alice' does not hold the lease of node ${n}: the lease does not exist\n`,
    });
    const asJson = lease(['renew', n, '--holder', 'alice', '--json']);
    expect(asJson.code).toBe(1);
    expect(JSON.parse(asJson.stdout)).toMatchObject({ renewed: false, because: 'absent' });
  });

  it('renew: exit 1 on a lease held by another identity, naming the holder; the lease is left as it was', async () => {
    const n = node('foreign');
    expect(await libraryClient('alice', 30).tryAcquire(n)).toMatchObject({ acquired: true });
    const before = await api().readNamespacedLease({ name: n, namespace: env.namespace });
    expect(lease(['renew', n, '--holder', 'bob'])).toMatchObject({
      code: 1,
      stdout: '',
      stderr: `capi-kit lease: 'bob' does not hold the lease of node ${n}: it is held by 'alice'\n`,
    });
    const asJson = lease(['renew', n, '--holder', 'bob', '--json']);
    expect(asJson.code).toBe(1);
    expect(JSON.parse(asJson.stdout)).toMatchObject({
      renewed: false,
      because: 'lost',
      holder: 'alice',
      lease: { node: n, holder: 'alice', heldByMe: false },
    });
    const after = await api().readNamespacedLease({ name: n, namespace: env.namespace });
    expect(after.metadata?.resourceVersion).toBe(before.metadata?.resourceVersion);
    expect(after.spec).toEqual(before.spec);
  });

  it('--json of renew and release prints the library result', () => {
    const n = node('json');
    expect(lease(['acquire', n, '--holder', 'alice', '--duration', '30'])).toMatchObject({ code: 0 });
    const renewed = lease(['renew', n, '--holder', 'alice', '--duration', '30', '--json']);
    expect(renewed.code).toBe(0);
    expect(JSON.parse(renewed.stdout)).toMatchObject({
      renewed: true,
      lease: { node: n, state: 'held', holder: 'alice', leaseDurationSeconds: 30 },
    });
    const refused = lease(['release', n, '--holder', 'bob', '--json']);
    expect(refused.code).toBe(1);
    expect(JSON.parse(refused.stdout)).toMatchObject({ released: false, holder: 'alice' });
    const released = lease(['release', n, '--holder', 'alice', '--json']);
    expect(released.code).toBe(0);
    expect(JSON.parse(released.stdout)).toEqual({ released: true });
  });

  it('--trust-renew-time: a lease whose renewTime is long past is taken at once; without it, refused', async () => {
    const n = node('stale');
    await staleLease(n, 'ghost');
    // By default another holder's lease counts as held for a whole duration from when this
    // process first sees it, whatever its renewTime says.
    expect(lease(['acquire', n, '--holder', 'alice'])).toMatchObject({
      code: 1,
      stderr: expect.stringContaining("under maintenance by 'ghost'"),
    });
    const taken = lease(['acquire', n, '--holder', 'alice', '--trust-renew-time', '--json']);
    expect(taken.code).toBe(0);
    expect(JSON.parse(taken.stdout)).toMatchObject({ acquired: true, how: 'taken' });
  });

  it('acquire --wait takes over a lease whose holder stopped renewing', async () => {
    const n = node('abandoned');
    // A 2 s lease acquired once and never renewed: its holder has died.
    expect(await libraryClient('dead', 2).tryAcquire(n)).toMatchObject({ acquired: true });
    const taken = lease(['acquire', n, '--holder', 'alice', '--wait', '--json']);
    expect(taken.code).toBe(0);
    expect(JSON.parse(taken.stdout)).toMatchObject({ acquired: true, how: 'taken' });
    expect(taken.stderr).toContain('waiting up to');
    expect(JSON.parse(lease(['status', n, '--json']).stdout)).toMatchObject({ holder: 'alice' });
  });

  // A default --wait lasts one duration of the lease as read, and anyone may write a huge one:
  // 3,000,000 s made the wait's timer overflow (fired after 1 ms: the lease read every few ms,
  // a TimeoutOverflowWarning each time), 2,147,483,647 s made it throw (internal error, exit 70).
  for (const leaseDurationSeconds of [3_000_000, 2_147_483_647]) {
    it(`acquire --wait on a lease written with leaseDurationSeconds ${leaseDurationSeconds} waits calmly until stopped`, async () => {
      const n = node('huge');
      await api().createNamespacedLease({
        namespace: env.namespace,
        body: {
          metadata: { name: n },
          spec: { holderIdentity: 'other', leaseDurationSeconds, renewTime: new V1MicroTime() },
        },
      });
      const child = spawn(
        process.execPath,
        [cliBin, 'lease', 'acquire', n, '--holder', 'taker', '--wait', '--namespace', env.namespace],
        { env: { ...process.env, KUBECONFIG: env.kubeconfigPath }, stdio: ['ignore', 'pipe', 'pipe'] },
      );
      let stderr = '';
      child.stderr!.on('data', (chunk) => {
        stderr += chunk;
      });
      const exited = once(child, 'exit');
      expect(await eventually(() => stderr.includes('waiting up to') || child.exitCode !== null)).toBe(true);
      // The next attempt is due a retry period (10 s or more) later: nothing more in 3 s.
      await new Promise((resolve) => setTimeout(resolve, 3000));
      child.kill('SIGTERM');
      const [code] = await exited;
      expect(stderr).not.toContain('internal error');
      expect(stderr).not.toContain('TimeoutOverflowWarning');
      expect(stderr.match(/waiting up to/g)).toHaveLength(1);
      expect(stderr).toContain('capi-kit lease: stopped by SIGTERM before acquiring');
      expect(code).toBe(1);
      const after = await api().readNamespacedLease({ name: n, namespace: env.namespace });
      expect(after.spec).toMatchObject({ holderIdentity: 'other', leaseDurationSeconds });
    });
  }

  it('status says how to take over a lease whose renewTime is older than its duration', async () => {
    const n = node('stale-status');
    expect(await libraryClient('dead', 2).tryAcquire(n)).toMatchObject({ acquired: true });
    const hint = /renewTime is \d+ seconds old; run with --wait or --trust-renew-time to take over/;
    expect(await eventually(() => hint.test(lease(['status', n]).stdout))).toBe(true);
    // A renewTime from 2020: counted in minutes.
    const old = node('stale-minutes');
    await staleLease(old, 'ghost');
    expect(lease(['status', old]).stdout).toMatch(
      /renewTime is \d{4,} minutes old; run with --wait or --trust-renew-time to take over/,
    );
    // A live lease says nothing of the kind.
    const live = node('fresh');
    expect(lease(['acquire', live, '--holder', 'alice', '--duration', '600'])).toMatchObject({ code: 0 });
    expect(lease(['status', live]).stdout).not.toContain('renewTime is');
  });

  it('--ensure-namespace creates a missing lease namespace; without it, exit 3', () => {
    const namespace = `${env.namespace}-made`.slice(0, 63);
    const run = (...extra: string[]) =>
      runCli(['lease', 'acquire', node('ns'), '--holder', 'alice', '--namespace', namespace, ...extra], {
        env: { KUBECONFIG: env.kubeconfigPath },
      });
    const refused = run();
    expect(refused.code).toBe(3);
    expect(refused.stderr).toContain(namespace);
    expect(run('--ensure-namespace')).toMatchObject({ code: 0, stdout: expect.stringContaining('(created') });
  });

  it('hold --json: one JSON line when holding, one when released', async () => {
    const n = node('hold-json');
    const child = spawn(
      process.execPath,
      [
        cliBin,
        'lease',
        'hold',
        n,
        '--holder',
        'cli',
        '--duration',
        '12',
        '--namespace',
        env.namespace,
        '--json',
      ],
      { env: { ...process.env, KUBECONFIG: env.kubeconfigPath }, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    const lines = createInterface({ input: child.stdout! });
    const received: string[] = [];
    const exited = once(child, 'exit');
    for await (const line of lines) {
      received.push(line);
      if (received.length === 1) child.kill('SIGTERM');
    }
    const [code] = await exited;
    expect(code).toBe(0);
    expect(received.map((l) => JSON.parse(l))).toMatchObject([
      { holding: n, holder: 'cli', lease: { node: n, state: 'held', holder: 'cli' } },
      { released: n, result: { released: true } },
    ]);
  });

  it('hold: exit 1 when stopped before it could acquire', async () => {
    const n = node('never');
    const other = libraryClient('other', 60);
    await other.tryAcquire(n);
    const child = spawn(
      process.execPath,
      [cliBin, 'lease', 'hold', n, '--holder', 'cli', '--duration', '12', '--namespace', env.namespace],
      { env: { ...process.env, KUBECONFIG: env.kubeconfigPath }, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let stderr = '';
    child.stderr!.on('data', (chunk) => {
      stderr += chunk;
    });
    const exited = once(child, 'exit');
    expect(await eventually(() => stderr.includes('waiting'))).toBe(true);
    child.kill('SIGINT');
    const [code] = await exited;
    expect(code).toBe(1);
    expect(stderr).toContain('capi-kit lease: stopped by SIGINT before acquiring');
    expect(await other.inspect(n)).toMatchObject({ holder: 'other' });
  });

  it.skipIf(noControlPlane('client-certificates'))(
    'hold: exit 3 when renewals keep failing past the renew deadline (its rights revoked)',
    async () => {
      const n = node('revoked');
      const rbac = env.kubeConfig.makeApiClient(RbacAuthorizationV1Api);
      const name = `lease-holder-${counter}`;
      await env.grant(
        name,
        [{ apiGroups: ['coordination.k8s.io'], resources: ['leases'], verbs: ['get', 'create', 'update'] }],
        { namespace: env.namespace },
      );
      const kubeconfig = writeKubeconfig(name, await env.kubeConfigFor(name, []));
      // RBAC reaches the authorizer through an informer: wait until the binding applies.
      const leases = { namespace: env.namespace, group: 'coordination.k8s.io', resource: 'leases' };
      expect(await waitForAccess(env.kubeConfig, name, { ...leases, verb: 'update' })).toBe(true);
      const child = spawn(
        process.execPath,
        [cliBin, 'lease', 'hold', n, '--holder', name, '--duration', '6', '--namespace', env.namespace],
        { env: { ...process.env, KUBECONFIG: kubeconfig }, stdio: ['ignore', 'pipe', 'pipe'] },
      );
      let stderr = '';
      let holding = false;
      child.stderr!.on('data', (chunk) => {
        stderr += chunk;
      });
      child.stdout!.on('data', (chunk) => {
        if (String(chunk).startsWith('holding')) holding = true;
      });
      const exited = once(child, 'exit');
      expect(await eventually(() => holding)).toBe(true);
      await rbac.deleteNamespacedRoleBinding({ namespace: env.namespace, name });
      const [code] = await exited;
      expect(code).toBe(3);
      expect(stderr).toMatch(/renew deadline/);
    },
  );
});
