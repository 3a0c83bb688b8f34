#!/usr/bin/env node
// Runs benchmark scripts: every packages/*/bench/*.bench.ts, or only those of the package
// directories given as arguments. Each file runs in its own Node process, so one benchmark's
// JIT state and heap never colour another's.
//
// Benchmarks measure the built packages (`dist/`, what `npm install` gives a user): the
// project is built first (`tsc -b`), and no bench runs with the `@capi-kit/source` condition.
// tsx only loads the bench file itself. (Run through tsx, the TypeScript source pays for
// esbuild's keepNames wrappers, one `__name` call per closure made: 5-10 % of a conversion
// on 2026-12-02, a cost no installed package has.)
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(fileURLToPath(new URL('..', import.meta.url)));
const packageDirs =
  process.argv.length > 2
    ? process.argv.slice(2).map((d) => resolve(d))
    : readdirSync(join(root, 'packages')).map((d) => join(root, 'packages', d));

const build = spawnSync(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-b'], {
  stdio: 'inherit',
  cwd: root,
});
if (build.status !== 0) {
  console.error('run-benchmarks: the build (tsc -b) failed; nothing was measured');
  process.exit(1);
}

let failed = 0;
for (const dir of packageDirs) {
  const benchDir = join(dir, 'bench');
  if (!existsSync(benchDir)) continue;
  for (const file of readdirSync(benchDir)
    .filter((f) => f.endsWith('.bench.ts'))
    .sort()) {
    const path = join(benchDir, file);
    console.log(`\n=== ${relative(root, path)} ===`);
    const run = spawnSync(process.execPath, ['--import', 'tsx', path], {
      stdio: 'inherit',
      cwd: dir,
    });
    if (run.status !== 0) failed++;
  }
}
process.exitCode = failed === 0 ? 0 : 1;
