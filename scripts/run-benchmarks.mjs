#!/usr/bin/env node
// Runs benchmark scripts: every packages/*/bench/*.bench.ts, or only those of the package
// directories given as arguments. Each file runs in its own Node process (with tsx, against
// the TypeScript source), so one benchmark's JIT state and heap never colour another's.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(fileURLToPath(new URL('..', import.meta.url)));
const packageDirs =
  process.argv.length > 2
    ? process.argv.slice(2).map((d) => resolve(d))
    : readdirSync(join(root, 'packages')).map((d) => join(root, 'packages', d));

let failed = 0;
for (const dir of packageDirs) {
  const benchDir = join(dir, 'bench');
  if (!existsSync(benchDir)) continue;
  for (const file of readdirSync(benchDir)
    .filter((f) => f.endsWith('.bench.ts'))
    .sort()) {
    const path = join(benchDir, file);
    console.log(`\n=== ${relative(root, path)} ===`);
    const run = spawnSync(process.execPath, ['--conditions=@capi-kit/source', '--import', 'tsx', path], {
      stdio: 'inherit',
      cwd: dir,
    });
    if (run.status !== 0) failed++;
  }
}
process.exitCode = failed === 0 ? 0 : 1;
