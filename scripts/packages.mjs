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

/**
 * Public subpaths of a package (`.`, `./kit`, ...): its `exports` keys, less blocked and
 * metadata ones, with each pattern (`./clouds/*`) expanded to the subpaths its source
 * files give (`./clouds/aws`, ...), read from the pattern's `@capi-kit/source` target.
 */
export function subpaths(dir, manifest) {
  return Object.entries(manifest.exports ?? {}).flatMap(([key, target]) => {
    if (target === null || key === './package.json') return [];
    if (!key.includes('*')) return [key];
    const source = target['@capi-kit/source'];
    const [prefix, suffix] = source.split('*');
    const folder = join(dir, prefix);
    return readdirSync(folder)
      .filter((file) => file.endsWith(suffix))
      .sort()
      .map((file) => key.replace('*', file.slice(0, file.length - suffix.length)));
  });
}

/** Public entry points of a package, as import specifiers (`@capi-kit/providerid/kit`). */
export function entryPoints(dir, manifest) {
  return subpaths(dir, manifest).map((key) =>
    key === '.' ? manifest.name : `${manifest.name}/${key.slice(2)}`,
  );
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

/**
 * Every third-party package pnpm-lock.yaml resolves, and its versions (name → versions).
 */
export function lockedPackages() {
  const lock = readFileSync(join(root, 'pnpm-lock.yaml'), 'utf8');
  const start = lock.indexOf('\npackages:\n');
  const end = lock.indexOf('\nsnapshots:\n');
  // (a lockfile of another layout would pin nothing, and the smoke test would go back to
  // resolving fresh without saying so)
  if (start < 0 || end < start) throw new Error('pnpm-lock.yaml: no packages: section before snapshots:');
  const section = lock.slice(start, end);
  const packages = new Map();
  for (const [, name, version] of section.matchAll(/^ {2}'?((?:@[^@/\s']+\/)?[^@\s']+)@([^'\s]+)'?:$/gm)) {
    if (name.startsWith('@capi-kit/')) continue;
    const versions = packages.get(name);
    if (versions === undefined) packages.set(name, [version]);
    else versions.push(version);
  }
  return packages;
}

/**
 * pnpm-lock.yaml's versions (`lockedPackages`) as npm `overrides`, so a throwaway npm install
 * gets the tree the tests ran against instead of whatever the registry's metadata says today:
 * a mirror can list a new release (openid-client 6.9.1) before it serves that release's own
 * new dependency (oauth4webapi 3.8.9), and a fresh resolution then fails with ETARGET.
 *
 * A package locked at one version is pinned to it everywhere. A package locked at several
 * gets one rule per version, keyed `name@version`, highest first: npm applies the first rule
 * whose key intersects the range a dependent asks for, so each dependent gets the highest
 * locked version its range allows, which is how pnpm chose among them.
 */
export function lockedVersions(packages = lockedPackages()) {
  const overrides = {};
  for (const [name, versions] of packages) {
    if (versions.length === 1) {
      overrides[name] = versions[0];
      continue;
    }
    const highestFirst = [...versions].sort((a, b) => compareVersions(b, a));
    for (const version of highestFirst) overrides[`${name}@${version}`] = version;
  }
  return overrides;
}

/** Orders two semver versions (a prerelease before its release; prerelease tags compared as text). */
function compareVersions(a, b) {
  const [coreA, preA] = splitVersion(a);
  const [coreB, preB] = splitVersion(b);
  for (let i = 0; i < 3; i++) if (coreA[i] !== coreB[i]) return coreA[i] - coreB[i];
  if (preA === preB) return 0;
  if (preA === undefined) return 1;
  if (preB === undefined) return -1;
  return preA < preB ? -1 : 1;
}

function splitVersion(version) {
  const dash = version.indexOf('-');
  const core = dash < 0 ? version : version.slice(0, dash);
  return [core.split('.').map(Number), dash < 0 ? undefined : version.slice(dash + 1)];
}
