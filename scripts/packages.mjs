// The workspace's publishable packages and their tarballs, shared by the packaging checks.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = resolve(fileURLToPath(new URL('..', import.meta.url)));
export const packDir = join(root, '.tmp', 'packs');

/** Every package under packages/, with its manifest. */
export function workspacePackages() {
  return readdirSync(join(root, 'packages'))
    .sort()
    .map((dir) => {
      const path = join(root, 'packages', dir);
      return { dir: path, manifest: JSON.parse(readFileSync(join(path, 'package.json'), 'utf8')) };
    })
    .filter((p) => !p.manifest.private);
}

/** Public entry points of a package: its `exports` keys, less blocked and metadata ones. */
export function entryPoints(manifest) {
  return Object.entries(manifest.exports ?? {})
    .filter(([key, target]) => target !== null && !key.includes('*') && key !== './package.json')
    .map(([key]) => (key === '.' ? manifest.name : `${manifest.name}/${key.slice(2)}`));
}

/**
 * Packs every package with pnpm (which rewrites `workspace:` ranges to real versions, as a
 * publish would) and returns the tarball paths by package name.
 */
export function packAll() {
  rmSync(packDir, { recursive: true, force: true });
  mkdirSync(packDir, { recursive: true });
  const tarballs = new Map();
  for (const { dir, manifest } of workspacePackages()) {
    const out = execFileSync('pnpm', ['pack', '--pack-destination', packDir, '--json'], {
      cwd: dir,
      encoding: 'utf8',
    });
    const info = JSON.parse(out.slice(out.indexOf('{')));
    tarballs.set(manifest.name, info.filename.startsWith('/') ? info.filename : join(packDir, info.filename));
  }
  return tarballs;
}
