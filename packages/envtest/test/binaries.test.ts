import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { findControlPlaneBinaries, setupEnvtestStore, storeVersions } from '../src/binaries.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'envtest-binaries-'));
  dirs.push(d);
  return d;
}

function fakeBinaries(dir: string, names = ['kube-apiserver', 'etcd']): void {
  mkdirSync(dir, { recursive: true });
  for (const n of names) {
    writeFileSync(join(dir, n), '#!/bin/sh\n');
    chmodSync(join(dir, n), 0o755);
  }
}

const arch = process.arch === 'x64' ? 'amd64' : process.arch;
const platform = `${process.platform}-${arch}`;

describe('findControlPlaneBinaries', () => {
  it('prefers TEST_ASSET_* over KUBEBUILDER_ASSETS over the setup-envtest store', () => {
    const home = tempDir();
    const assets = join(home, 'assets');
    const explicit = join(home, 'explicit');
    fakeBinaries(assets);
    fakeBinaries(explicit);
    fakeBinaries(join(home, 'data/kubebuilder-envtest/k8s', `1.36.3-${platform}`));
    const env = { XDG_DATA_HOME: join(home, 'data'), KUBEBUILDER_ASSETS: assets };

    const fromStore = findControlPlaneBinaries({ XDG_DATA_HOME: join(home, 'data') });
    expect(fromStore).toMatchObject({
      found: true,
      binaries: { etcd: join(home, 'data/kubebuilder-envtest/k8s', `1.36.3-${platform}`, 'etcd') },
    });

    expect(findControlPlaneBinaries(env)).toMatchObject({
      found: true,
      binaries: { kubeApiServer: join(assets, 'kube-apiserver'), source: `KUBEBUILDER_ASSETS=${assets}` },
    });
    expect(
      findControlPlaneBinaries({
        ...env,
        TEST_ASSET_KUBE_APISERVER: join(explicit, 'kube-apiserver'),
        TEST_ASSET_ETCD: join(explicit, 'etcd'),
      }),
    ).toMatchObject({
      found: true,
      binaries: { kubeApiServer: join(explicit, 'kube-apiserver'), source: 'TEST_ASSET_*' },
    });
  });

  it('takes the newest store version and reports every place tried when nothing fits', () => {
    const home = tempDir();
    const store = join(home, 'kubebuilder-envtest/k8s');
    fakeBinaries(join(store, `1.9.0-${platform}`));
    fakeBinaries(join(store, `1.36.3-${platform}`));
    fakeBinaries(join(store, `1.40.0-${platform}`), ['etcd']); // incomplete: skipped
    expect(storeVersions(store)).toEqual(['1.40.0', '1.36.3', '1.9.0']);
    const found = findControlPlaneBinaries({ XDG_DATA_HOME: home });
    expect(found).toMatchObject({
      found: true,
      binaries: { source: `setup-envtest store ${join(store, `1.36.3-${platform}`)}` },
    });

    const empty = tempDir();
    const missing = findControlPlaneBinaries({
      XDG_DATA_HOME: empty,
      KUBEBUILDER_ASSETS: join(empty, 'nope'),
      CAPI_KIT_ENVTEST_LEGACY_DIR: join(empty, 'legacy'),
    });
    expect(missing.found).toBe(false);
    if (!missing.found) {
      expect(missing.tried.join('\n')).toContain(`KUBEBUILDER_ASSETS=${join(empty, 'nope')}: not executable`);
      expect(missing.tried.join('\n')).toContain('setup-envtest store');
      expect(missing.tried.join('\n')).toContain(`${join(empty, 'legacy')}: not executable`);
    }
  });

  it('falls back to the legacy directory last (/usr/local/kubebuilder/bin unless overridden)', () => {
    const home = tempDir();
    const legacy = join(home, 'kubebuilder/bin');
    fakeBinaries(legacy);
    expect(findControlPlaneBinaries({ XDG_DATA_HOME: home, CAPI_KIT_ENVTEST_LEGACY_DIR: legacy })).toEqual({
      found: true,
      binaries: { kubeApiServer: join(legacy, 'kube-apiserver'), etcd: join(legacy, 'etcd'), source: legacy },
    });
    const lookup = findControlPlaneBinaries({ XDG_DATA_HOME: home });
    if (!lookup.found) expect(lookup.tried.at(-1)).toMatch(/^\/usr\/local\/kubebuilder\/bin: not executable/);
    else expect(lookup.binaries.source).toBe('/usr/local/kubebuilder/bin');
  });

  it('locates the store under XDG_DATA_HOME or ~/.local/share', () => {
    expect(setupEnvtestStore({ XDG_DATA_HOME: '/x' })).toBe('/x/kubebuilder-envtest/k8s');
    expect(setupEnvtestStore({ HOME: '/home/u' })).toBe('/home/u/.local/share/kubebuilder-envtest/k8s');
  });
});
