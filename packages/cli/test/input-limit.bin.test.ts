import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cliBin } from './helpers/run-cli.js';

// An input read whole is refused past 256 MiB (MAX_INPUT_BYTES), a line read a line at a
// time past 4 MiB (MAX_LINE_BYTES): exit 1, a message naming the input, nothing on stdout, and
// the command ends. Without the limits, each of these read until Node ran out of memory.
// (Each run reads 256 MiB: about a second and 350 MB, one at a time.)
const STACK = /^\s+at .+[(:]\d+/m;
const LIMIT_MS = 60_000;
const dir = mkdtempSync(join(tmpdir(), 'capi-kit-input-limit-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const MANIFEST =
  'apiVersion: cluster.x-k8s.io/v1alpha2\nkind: Cluster\nmetadata:\n  name: c1\n  namespace: ns\n';

/** A child process writing `unit` forever (until killed, or its reader is gone) to its stdout, or to the FIFO `fifo`. */
function generator(unit: string, fifo?: string): ChildProcess {
  const out =
    fifo === undefined ? 'process.stdout' : `require('node:fs').createWriteStream(${JSON.stringify(fifo)})`;
  const script = `const out = ${out}; const b = Buffer.from(${JSON.stringify(unit)}.repeat(Math.ceil(65536 / ${unit.length})));
out.on('error', () => process.exit(0));
(function w() { while (out.write(b)); out.once('drain', w); })();`;
  return spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'ignore'] });
}

/** A new FIFO (named pipe) in the test's directory: what `-f <(cmd)` reads is a pipe too. */
function fifo(name: string): string {
  const path = join(dir, name);
  const made = spawnSync('mkfifo', [path]);
  if (made.status !== 0) throw new Error(`mkfifo: ${made.stderr}`);
  return path;
}

/** Runs the built CLI with `stdin` (a generator's stdout, or a text) as its stdin; killed past LIMIT_MS (code null). */
async function run(
  args: readonly string[],
  stdin: ChildProcess | string = '',
  feeders: readonly ChildProcess[] = [],
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [cliBin, ...args], {
    stdio: [typeof stdin === 'object' ? stdin.stdout! : 'pipe', 'pipe', 'pipe'],
  });
  if (typeof stdin === 'string') {
    child.stdin!.on('error', () => {}); // (the CLI may exit before reading it all)
    child.stdin!.end(stdin);
  }
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d: Buffer) => {
    stdout += d.toString('utf8');
  });
  child.stderr!.on('data', (d: Buffer) => {
    stderr += d.toString('utf8');
  });
  const timer = setTimeout(() => child.kill('SIGKILL'), LIMIT_MS);
  try {
    const code = await new Promise<number | null>((resolve) => child.on('close', (c) => resolve(c)));
    return { code, stdout, stderr };
  } finally {
    clearTimeout(timer);
    for (const f of [stdin, ...feeders]) if (typeof f === 'object') f.kill('SIGKILL');
  }
}

function expectRefused(
  r: { code: number | null; stdout: string; stderr: string },
  message: string,
  code = 1,
) {
  expect(r.code, r.stderr).toBe(code);
  expect(r.stderr).toContain(message);
  expect(r.stderr).not.toMatch(STACK);
  expect(r.stdout).toBe('');
}

describe('inputs read whole are refused past 256 MiB (built CLI)', () => {
  for (const command of ['convert', 'validate', 'phase']) {
    it(`${command} -f /dev/zero: exit 1, the message, nothing on stdout`, () => {
      const r = spawnSync(process.execPath, [cliBin, command, '-f', '/dev/zero'], {
        encoding: 'utf8',
        timeout: LIMIT_MS,
      });
      expectRefused(
        { code: r.status, stdout: r.stdout, stderr: r.stderr },
        `capi-kit ${command}: -f /dev/zero: more than 256 MiB; capi-kit reads a manifest whole\n`,
      );
    }, 90_000);
  }

  it('validate -f - with stdin fed forever by a generator ends with exit 1', async () => {
    const r = await run(['validate', '-f', '-'], generator('a: b\n'));
    expectRefused(r, 'capi-kit validate: <stdin>: more than 256 MiB; capi-kit reads standard input whole\n');
  }, 90_000);

  it('convert -f FIFO, a named pipe fed forever, ends with exit 1', async () => {
    const path = fifo('endless');
    const r = await run(['convert', '-f', path], '', [generator('# x\n', path)]);
    expectRefused(r, `capi-kit convert: -f ${path}: more than 256 MiB; capi-kit reads a manifest whole\n`);
  }, 90_000);

  it('providerid parse with stdin fed forever ends with exit 1 and nothing on stdout', async () => {
    const r = await run(
      ['providerid', 'parse', '--json'],
      generator('aws:///us-east-1a/i-0123456789abcdef0\n'),
    );
    expectRefused(
      r,
      'capi-kit providerid: <stdin>: more than 256 MiB; capi-kit reads standard input whole\n',
    );
  }, 90_000);

  it('a kubeconfig past 256 MiB (a sparse file) is a kubeconfig error, exit 3', async () => {
    const kubeconfig = join(dir, 'huge-kubeconfig');
    writeFileSync(kubeconfig, '');
    truncateSync(kubeconfig, 300 * 1024 * 1024);
    const r = await run(['get', 'clusters', '--kubeconfig', kubeconfig]);
    expectRefused(r, `kubeconfig ${kubeconfig}: more than 256 MiB; capi-kit reads a kubeconfig whole\n`, 3);
  }, 90_000);
});

describe('files a kubeconfig names are refused past 1 MiB (built CLI)', () => {
  it('a CA file of 2 GiB (a sparse file) is a kubeconfig error, exit 3, before any of it is read', async () => {
    const ca = join(dir, 'huge-ca.pem');
    writeFileSync(ca, '');
    truncateSync(ca, 2 * 1024 * 1024 * 1024);
    const kubeconfig = join(dir, 'kubeconfig-huge-ca');
    writeFileSync(
      kubeconfig,
      `apiVersion: v1
kind: Config
clusters: [{name: c, cluster: {server: 'https://127.0.0.1:1', certificate-authority: ${ca}}}]
users: [{name: u, user: {token: t}}]
contexts: [{name: x, context: {cluster: c, user: u}}]
current-context: x
`,
    );
    const r = await run(['get', 'clusters', '--kubeconfig', kubeconfig]);
    expectRefused(
      r,
      `capi-kit get: kubeconfig cluster "c": certificate-authority ${ca}: more than 1 MiB; capi-kit reads a CA file whole\n`,
      3,
    );
  }, 90_000);
});

describe('a line read a line at a time is refused past 4 MiB (built CLI)', () => {
  it('providerid match on one endless line ends with exit 1', async () => {
    const r = await run(['providerid', 'match'], generator('aws:///us-east-1a/i-0'));
    expectRefused(
      r,
      'capi-kit providerid: <stdin>: line 1 is longer than 4 MiB; capi-kit reads standard input a line at a time\n',
    );
  }, 90_000);

  it('providerid match: the lines before the endless one are answered, then exit 1', async () => {
    const pair = 'aws:///us-east-1a/i-0123456789abcdef0\taws://us-east-1a/i-0123456789abcdef0\n';
    const r = await run(['providerid', 'match', '--json'], `${pair}${pair}${'x'.repeat(5 << 20)}\n${pair}`);
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toContain('<stdin>: line 3 is longer than 4 MiB');
    expect(r.stdout.split('\n').filter((l) => l !== '')).toHaveLength(2);
  }, 90_000);
});

describe('ordinary input through a pipe still works (built CLI)', () => {
  it('validate -f - and convert -f FIFO read a manifest from a pipe', async () => {
    const validated = await run(['validate', '-f', '-'], MANIFEST);
    expect(validated.code, validated.stderr).toBe(0);
    const path = fifo('manifest');
    const writer = spawn(process.execPath, [
      '-e',
      `require('node:fs').writeFileSync(process.argv[1], process.argv[2])`,
      path,
      MANIFEST,
    ]);
    const converted = await run(['convert', '-f', path, '--to', 'cluster.k8s.io/v1alpha1'], '', [writer]);
    expect(converted.code, converted.stderr).toBe(0);
    expect(converted.stdout).toContain('apiVersion: cluster.k8s.io/v1alpha1\nkind: Cluster\n');
  });

  it('providerid match reads a 3 MiB line of two 1.5 MiB IDs (under the limit)', async () => {
    const id = `aws:///us-east-1a/i-${'0'.repeat(3 << 19)}`;
    const r = await run(['providerid', 'match', '--json'], `${id}\t${id}\n`);
    expect(r.stderr).not.toContain('longer than');
    expect(r.stdout.split('\n').filter((l) => l !== '')).toHaveLength(1);
  });
});
