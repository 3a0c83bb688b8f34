#!/usr/bin/env node
// `pnpm test` (after `tsc -b`): makes sure the integration tests have a control plane,
// runs vitest, and ends with one summary line.
//
// The control plane: when no backend is configured and the kube-apiserver + etcd binaries
// are missing, they are built with Go (packages/envtest/scripts/build-control-plane.sh)
// if Go >= 1.26 is on PATH or in /usr/local/go/bin. Only when they cannot be built do the
// integration tests skip, and then the last line says how many and why. Under CI=true the
// run fails instead (the envtest global setup refuses to skip).
//
// Arguments go to vitest: `pnpm test --project core` (or `pnpm test -- --project core`).
import { spawn, spawnSync } from 'node:child_process';
import { createWriteStream, mkdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { findControlPlaneBinaries } from '../packages/envtest/dist/binaries.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
// pnpm passes a `--` on (`pnpm test -- --project core`), and vitest ignores everything after
// one, which would run every project: a leading `--` is dropped.
const args = process.argv.slice(2);
if (args[0] === '--') args.shift();
const minGo = [1, 26];
const log = (line) => process.stderr.write(`[test] ${line}\n`);

/** `go` on PATH, else Go's default install directory (often left off PATH). */
function findGo() {
  for (const go of ['go', '/usr/local/go/bin/go']) {
    const run = spawnSync(go, ['env', 'GOVERSION', 'GOROOT'], { encoding: 'utf8' });
    if (run.status !== 0) continue;
    const [version, goroot] = run.stdout.trim().split('\n');
    const m = /^go(\d+)\.(\d+)/.exec(version ?? '');
    return {
      version,
      bin: join(goroot, 'bin'),
      ok: !!m && (+m[1] > minGo[0] || (+m[1] === minGo[0] && +m[2] >= minGo[1])),
    };
  }
  return undefined;
}

/** The projects named by --project, or [] when all run. */
function requestedProjects() {
  const names = [];
  args.forEach((a, i) => {
    if (a === '--project' && args[i + 1]) names.push(args[i + 1]);
    else if (a.startsWith('--project=')) names.push(a.slice('--project='.length));
  });
  return names;
}

/** Builds the binaries when needed; returns why the integration tests will skip, if they will. */
async function ensureControlPlane() {
  const backend = process.env.CAPI_KIT_ENVTEST_BACKEND;
  if (process.env.CAPI_KIT_ENVTEST_KUBECONFIG || backend === 'existing' || backend === 'k3s')
    return undefined;
  const projects = requestedProjects();
  if (projects.length > 0 && !projects.some((p) => p.includes('integration'))) return undefined;
  if (findControlPlaneBinaries().found) return undefined;

  const go = findGo();
  if (!go)
    return 'its binaries are not built and no Go was found (on PATH or in /usr/local/go/bin) to build them; install Go >= 1.26';
  if (!go.ok)
    return `its binaries are not built and ${go.version} is older than go${minGo.join('.')}, which building them needs`;

  mkdirSync(join(root, '.tmp'), { recursive: true });
  const logPath = join(root, '.tmp', 'control-plane-build.log');
  log(
    `no kube-apiserver + etcd binaries yet: building them with ${go.version} (about 6 minutes on 2 cores the first time; once only). Log: ${logPath}`,
  );
  const started = Date.now();
  const logFile = createWriteStream(logPath);
  const build = spawn('bash', [join(root, 'packages/envtest/scripts/build-control-plane.sh')], {
    cwd: root,
    env: { ...process.env, PATH: `${process.env.PATH}:${go.bin}` },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  build.stdout.pipe(logFile, { end: false });
  build.stderr.on('data', (chunk) => {
    process.stderr.write(chunk);
    logFile.write(chunk);
  });
  const code = await new Promise((resolve) => build.on('close', resolve));
  logFile.end();
  if (code !== 0) return `building its binaries failed (exit ${code}; see ${logPath})`;
  log(`control-plane binaries built in ${Math.round((Date.now() - started) / 1000)} s`);
  return findControlPlaneBinaries().found
    ? undefined
    : `the build reported success but left no binaries (see ${logPath})`;
}

const skipReason = await ensureControlPlane();
if (skipReason)
  log(
    `no control plane: ${skipReason}. Integration tests will be skipped${process.env.CI === 'true' ? ' (under CI=true: fail)' : ''}.`,
  );

// A report left by an earlier run must not stand in for this one's.
const report = join(root, '.tmp/vitest-report.json');
rmSync(report, { force: true });
const vitest = spawnSync(process.execPath, [join(root, 'node_modules/vitest/vitest.mjs'), 'run', ...args], {
  cwd: root,
  stdio: 'inherit',
});
const summary = spawnSync(
  process.execPath,
  [
    join(root, 'scripts/test-summary.mjs'),
    report,
    ...(skipReason ? ['--skip-reason', `no control plane — ${skipReason}`] : []),
  ],
  { cwd: root, stdio: 'inherit' },
);
process.exitCode = vitest.status || summary.status || (vitest.signal ? 1 : 0);
