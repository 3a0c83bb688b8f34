#!/usr/bin/env node
// Installs the packed tarballs into a throwaway npm project, outside the workspace, and
// imports every public entry point with plain `node` — both `import` and `require` — then
// runs the installed `capi-kit` binary. This catches what workspace links hide: missing
// files, wrong `exports`, dependencies that only resolve inside the monorepo. Third-party
// versions are pinned to pnpm-lock.yaml's (see `lockedVersions`), so the result does not
// depend on the day's registry metadata, and checked: a version the lock lacks fails.
// Run after `pnpm build`.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { entryPoints, lockedPackages, lockedVersions, packAll, workspacePackages } from './packages.mjs';

const tarballs = packAll();
const locked = lockedPackages();
const project = mkdtempSync(join(tmpdir(), 'capi-kit-smoke-'));
let failures = 0;
try {
  writeFileSync(
    join(project, 'package.json'),
    JSON.stringify({ name: 'smoke', private: true, type: 'commonjs', overrides: lockedVersions(locked) }),
  );
  console.log(`installing ${tarballs.size} tarballs into ${project}`);
  execFileSync('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error', ...tarballs.values()], {
    cwd: project,
    stdio: 'inherit',
  });

  const offTheLock = installedOffTheLock(project, locked);
  if (offTheLock.length > 0) failures++;
  console.log(
    offTheLock.length === 0
      ? 'ok   every installed third-party version is the one pnpm-lock.yaml holds'
      : `FAIL installed versions pnpm-lock.yaml does not hold: ${offTheLock.join(', ')}`,
  );

  const check = (label, args) => {
    const run = spawnSync(process.execPath, args, { cwd: project, encoding: 'utf8' });
    const ok = run.status === 0;
    if (!ok) failures++;
    console.log(
      `${ok ? 'ok  ' : 'FAIL'} ${label}${ok ? '' : `\n${run.stderr.trim().replace(/^/gm, '     ')}`}`,
    );
  };
  for (const { dir, manifest } of workspacePackages()) {
    for (const entry of entryPoints(dir, manifest)) {
      const spec = JSON.stringify(entry);
      check(`import  ${entry}`, [
        '--input-type=module',
        '-e',
        `const m = await import(${spec}); if (typeof m !== 'object') process.exit(1);`,
      ]);
      check(`require ${entry}`, [
        '-e',
        `const m = require(${spec}); if (typeof m !== 'object') process.exit(1);`,
      ]);
    }
  }
  check('bin     capi-kit --version', [
    join(project, 'node_modules', '@capi-kit', 'cli', 'dist', 'bin.js'),
    '--version',
  ]);
  const viaNpx = spawnSync('npx', ['--no-install', 'capi-kit', '--help'], { cwd: project, encoding: 'utf8' });
  if (viaNpx.status !== 0 || !viaNpx.stdout.includes('Usage: capi-kit')) failures++;
  console.log(`${viaNpx.status === 0 ? 'ok  ' : 'FAIL'} npx     capi-kit --help`);
} finally {
  rmSync(project, { recursive: true, force: true });
}

if (failures > 0) {
  console.error(`\n${failures} smoke check(s) failed`);
  process.exitCode = 1;
} else {
  console.log('\nall tarballs install and import');
}

/**
 * The third-party packages installed in `project` at a version `locked` (pnpm-lock.yaml's,
 * from `lockedPackages`) does not hold, as sorted `name@version`: each was resolved fresh
 * from the registry, which the overrides are there to stop. An `npm ls` that prints no JSON is reported as one such problem.
 */
function installedOffTheLock(project, locked) {
  const tree = spawnSync('npm', ['ls', '--all', '--json', '--long'], { cwd: project, encoding: 'utf8' });
  let root;
  try {
    root = JSON.parse(tree.stdout);
  } catch {
    return [`(npm ls printed no JSON: ${tree.stderr.trim().split('\n')[0] || `exit ${tree.status}`})`];
  }
  const off = new Set();
  const walk = (dependencies = {}) => {
    // (`--long` gives each entry its package's own name: an alias such as `string-width-cjs`
    // is keyed by the alias)
    for (const [key, { name = key, version, dependencies: nested }] of Object.entries(dependencies)) {
      if (!name.startsWith('@capi-kit/') && version !== undefined && !locked.get(name)?.includes(version))
        off.add(`${name}@${version}`);
      walk(nested);
    }
  };
  walk(root.dependencies);
  return [...off].sort();
}
