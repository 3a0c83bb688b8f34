import { accessSync, constants, readdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

// Where the control-plane binaries come from, in controller-runtime's order so that users
// who already run Go envtest suites need no extra setup:
//   1. TEST_ASSET_KUBE_APISERVER / TEST_ASSET_ETCD (full paths);
//   2. $KUBEBUILDER_ASSETS/{kube-apiserver,etcd};
//   3. the newest version in the setup-envtest store, which is also where
//      scripts/build-control-plane.sh installs what it builds;
//   4. /usr/local/kubebuilder/bin (CAPI_KIT_ENVTEST_LEGACY_DIR replaces it, so that tests
//      and fixture runs on machines that have that directory can still see "nothing found").

/** Paths of the two binaries and where they were found. */
export interface ControlPlaneBinaries {
  kubeApiServer: string;
  etcd: string;
  /** Human-readable origin, e.g. "KUBEBUILDER_ASSETS=/x" or "setup-envtest store 1.36.3". */
  source: string;
}

/** The result of a lookup: binaries, or every place tried and why it did not fit. */
export type BinaryLookup =
  | { found: true; binaries: ControlPlaneBinaries }
  | { found: false; tried: string[] };

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The setup-envtest store's k8s directory (`…/kubebuilder-envtest/k8s`). */
export function setupEnvtestStore(env: NodeJS.ProcessEnv = process.env): string {
  const dataHome = env.XDG_DATA_HOME || join(env.HOME || homedir(), '.local', 'share');
  return join(dataHome, 'kubebuilder-envtest', 'k8s');
}

function platform(): string {
  const arch = process.arch === 'x64' ? 'amd64' : process.arch;
  return `${process.platform}-${arch}`;
}

function compareVersions(a: string, b: string): number {
  const pa = a.split('.').map(Number);
  const pb = b.split('.').map(Number);
  for (let i = 0; i < 3; i++) {
    const d = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}

/** Versions present in the setup-envtest store for this platform, newest first. */
export function storeVersions(store: string): string[] {
  let entries: string[];
  try {
    entries = readdirSync(store);
  } catch {
    return [];
  }
  const suffix = `-${platform()}`;
  return entries
    .filter((e) => e.endsWith(suffix) && /^\d+\.\d+\.\d+-/.test(e))
    .map((e) => e.slice(0, -suffix.length))
    .sort(compareVersions)
    .reverse();
}

/** Finds kube-apiserver and etcd without building anything. */
export function findControlPlaneBinaries(env: NodeJS.ProcessEnv = process.env): BinaryLookup {
  const tried: string[] = [];
  const check = (apiServer: string, etcd: string, source: string): ControlPlaneBinaries | undefined => {
    const missing = [apiServer, etcd].filter((p) => !isExecutable(p));
    if (missing.length === 0) return { kubeApiServer: apiServer, etcd, source };
    tried.push(`${source}: not executable: ${missing.join(', ')}`);
    return undefined;
  };

  const apiAsset = env.TEST_ASSET_KUBE_APISERVER;
  const etcdAsset = env.TEST_ASSET_ETCD;
  const assets = env.KUBEBUILDER_ASSETS;
  if (apiAsset || etcdAsset) {
    // One of the two may come from KUBEBUILDER_ASSETS, as in controller-runtime.
    const api = apiAsset || (assets ? join(assets, 'kube-apiserver') : '');
    const etcd = etcdAsset || (assets ? join(assets, 'etcd') : '');
    const found = check(
      api || '(TEST_ASSET_KUBE_APISERVER unset)',
      etcd || '(TEST_ASSET_ETCD unset)',
      'TEST_ASSET_*',
    );
    if (found) return { found: true, binaries: found };
  }
  if (assets) {
    const found = check(join(assets, 'kube-apiserver'), join(assets, 'etcd'), `KUBEBUILDER_ASSETS=${assets}`);
    if (found) return { found: true, binaries: found };
  }
  const store = setupEnvtestStore(env);
  const versions = storeVersions(store);
  if (versions.length === 0) tried.push(`setup-envtest store ${store}: no ${platform()} version`);
  for (const version of versions) {
    const dir = join(store, `${version}-${platform()}`);
    const found = check(join(dir, 'kube-apiserver'), join(dir, 'etcd'), `setup-envtest store ${dir}`);
    if (found) return { found: true, binaries: found };
  }
  const legacy = env.CAPI_KIT_ENVTEST_LEGACY_DIR || '/usr/local/kubebuilder/bin';
  const found = check(join(legacy, 'kube-apiserver'), join(legacy, 'etcd'), legacy);
  if (found) return { found: true, binaries: found };
  return { found: false, tried };
}
