#!/usr/bin/env node
// Packaging guard for every package, on the tarball a publish would upload:
//   publint --strict   (exports, files, types conditions, package.json hygiene)
//   attw --profile esm-only   (are the types right for each entry point under node16/bundler)
// Run after `pnpm build`.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { packAll, root, subpaths, workspacePackages } from './packages.mjs';

const bin = (name) => join(root, 'node_modules', '.bin', name);
const tarballs = packAll();
let failures = 0;
for (const { dir, manifest } of workspacePackages()) {
  const name = manifest.name;
  const tarball = tarballs.get(name);
  // attw skips pattern exports (`./clouds/*`) unless each subpath they give is named.
  const patterns = subpaths(dir, manifest).filter((key) => !(key in (manifest.exports ?? {})));
  const included = patterns.length > 0 ? ['--include-entrypoints', ...patterns] : [];
  for (const [tool, args] of [
    ['publint', ['run', tarball, '--strict']],
    ['attw', [tarball, '--profile', 'esm-only', '--format', 'table-flipped', '--no-emoji', ...included]],
  ]) {
    const run = spawnSync(bin(tool), args, { encoding: 'utf8' });
    const ok = run.status === 0;
    if (!ok) failures++;
    console.log(`${ok ? 'ok  ' : 'FAIL'} ${tool.padEnd(8)} ${name}`);
    if (!ok) console.log(`${run.stdout}${run.stderr}`.replace(/^/gm, '     '));
  }
}
if (failures > 0) {
  console.error(`\n${failures} packaging check(s) failed`);
  process.exitCode = 1;
}
