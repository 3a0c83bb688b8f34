// @capi-kit/envtest/vitest: use the control plane that the global setup started.

import type { KubeConfig, V1PolicyRule } from '@kubernetes/client-node';
import { CoreV1Api } from '@kubernetes/client-node';
import { afterAll, beforeAll, beforeEach, inject } from 'vitest';
import { type BackendKind, type ControlPlaneClient, connect } from '../connection.js';
import type { CrdInput, InstalledCrd } from '../crds.js';
import { EnvtestError } from '../errors.js';
import type { GrantOptions, GrantSubject } from '../rbac.js';
import { type ProvidedControlPlane, providedKey } from './context.js';

export type { ProvidedControlPlane } from './context.js';

/** Options for {@link useControlPlane}. */
export interface UseControlPlaneOptions {
  /** Prefix of this file's namespace (default: derived from the test file's name). */
  namespacePrefix?: string;
}

/** What a test file gets from {@link useControlPlane}. Properties are read inside tests and hooks. */
export interface ControlPlaneHandle {
  readonly backend: BackendKind;
  readonly description: string;
  /** Admin (system:masters) access to the shared control plane. */
  readonly kubeConfig: KubeConfig;
  /** The admin kubeconfig as a file (for the CLI, kubectl, child processes). */
  readonly kubeconfigPath: string;
  /** A namespace created for this test file before its first test. */
  readonly namespace: string;
  /** A KubeConfig for a non-admin user in the given groups; RBAC applies. */
  kubeConfigFor(user: string, groups?: readonly string[]): Promise<KubeConfig>;
  /**
   * Grants `rules` to `subject` (a user name, or a User, Group or ServiceAccount subject): a
   * Role and RoleBinding in `options.namespace`, or a ClusterRole and ClusterRoleBinding
   * without one, named `options.name` (default: the subject's name). Resolves once the
   * authorizer allows each rule.
   */
  grant(subject: GrantSubject, rules: V1PolicyRule[], options?: GrantOptions): Promise<void>;
  /** Installs CRDs (v1beta1 manifests are converted to v1) and waits until they are served. */
  installCRDs(input: CrdInput): Promise<InstalledCrd[]>;
  /** Creates another namespace, `<prefix>-<random>`. */
  createNamespace(prefix?: string): Promise<string>;
}

/**
 * What a test file needs from the run's control plane:
 * - `shared`: the control plane of the run, whatever its backend (`useControlPlane()`);
 * - `client-certificates`: the shared one, able to mint users (`kubeConfigFor()`): not an
 *   existing cluster, whose client CA envtest does not hold;
 * - `private-local`: a control plane of its own from the local binaries
 *   (`startControlPlane({ backend: 'local' })`), for feature gates, extra flags or
 *   `restartApiServer()`: only when the run itself uses the local backend.
 */
export type ControlPlaneNeed = 'shared' | 'client-certificates' | 'private-local';

const backendsFor: Record<ControlPlaneNeed, { backends: readonly BackendKind[]; why: string }> = {
  shared: { backends: ['existing', 'local', 'k3s'], why: 'a control plane' },
  'client-certificates': {
    backends: ['local', 'k3s'],
    why: 'client certificates from the cluster CA (kubeConfigFor), which an existing cluster does not give',
  },
  'private-local': {
    backends: ['local'],
    why: 'a private local control plane (own flags or restarts), which only the local backend gives',
  },
};

function provided(): ProvidedControlPlane {
  const value = inject(providedKey) as ProvidedControlPlane | undefined;
  if (value === undefined) {
    throw new EnvtestError(
      'not-set-up',
      'found no control plane: add @capi-kit/envtest/vitest/global-setup to ' +
        'test.globalSetup in the vitest config of this project',
    );
  }
  return value;
}

/**
 * Why the tests that need `need` cannot run in this run, or `false` when they can. Call it
 * at collection time, the one way integration tests skip:
 *
 *     describe.skipIf(noControlPlane())('…', () => { beforeAll(…); it(…); });
 *
 * A skipped describe runs none of its hooks, so a `beforeAll` that talks to the server
 * never fails for want of one. Under `CI=true` the global setup fails the run before
 * this is asked, so CI never skips for a missing control plane.
 */
export function noControlPlane(need: ControlPlaneNeed = 'shared'): string | false {
  const run = provided();
  if (!run.available) return `no control plane: ${run.reason}`;
  const { backends, why } = backendsFor[need];
  if (backends.includes(run.connection.backend)) return false;
  return `needs ${why}; this run uses the ${run.connection.backend} backend`;
}

function prefixFromFile(name: string | undefined): string {
  const base = (name ?? '').split('/').pop() ?? '';
  return base.replace(/\.(integration\.)?(test|spec)\.[cm]?[jt]sx?$/, '') || 'test';
}

/**
 * Call at the top of a test file. Registers hooks that create a fresh namespace for the
 * file (and delete it afterwards) and returns a handle to the run's shared control plane.
 * When no control plane is available (and CI is not set), every test of the file is
 * skipped with the reason; wrap the file's tests in `describe.skipIf(noControlPlane())` so
 * that its own `beforeAll` hooks are skipped too.
 */
export function useControlPlane(options: UseControlPlaneOptions = {}): ControlPlaneHandle {
  const run = provided();
  if (!run.available) {
    // Tests outside a `describe.skipIf(noControlPlane())` are still skipped, one by one.
    beforeEach((context) => {
      context.skip(`no control plane: ${run.reason}`);
    });
    const unavailable = (): never => {
      throw new EnvtestError('no-control-plane', `no control plane: ${run.reason}`);
    };
    return {
      get backend(): BackendKind {
        return unavailable();
      },
      get description() {
        return unavailable();
      },
      get kubeConfig() {
        return unavailable();
      },
      get kubeconfigPath() {
        return unavailable();
      },
      get namespace() {
        return unavailable();
      },
      kubeConfigFor: unavailable,
      grant: unavailable,
      installCRDs: unavailable,
      createNamespace: unavailable,
    };
  }

  const client: ControlPlaneClient = connect(run.connection);
  const created: string[] = [];
  let namespace: string | undefined;
  const createNamespace = async (prefix?: string) => {
    const name = await client.createNamespace(prefix);
    created.push(name);
    return name;
  };

  // Vitest reads the first parameter as a fixtures pattern, which must be destructured.
  // biome-ignore lint/correctness/noEmptyPattern: no fixtures needed, only the suite
  beforeAll(async ({}, suite) => {
    // The top-level suite is the file itself; its name is the file's path.
    const file = 'filepath' in suite ? suite.filepath : (suite.file?.name ?? suite.name);
    namespace = await createNamespace(options.namespacePrefix ?? prefixFromFile(file));
  });
  afterAll(async () => {
    // Without a namespace controller the namespaces stay Terminating, but their deletion
    // still stops anyone from creating more objects in them.
    const core = client.kubeConfig.makeApiClient(CoreV1Api);
    await Promise.allSettled(created.map((name) => core.deleteNamespace({ name })));
  });

  return {
    backend: client.backend,
    description: client.description,
    kubeConfig: client.kubeConfig,
    kubeconfigPath: client.kubeconfigPath,
    get namespace(): string {
      if (namespace === undefined) {
        throw new EnvtestError(
          'not-set-up',
          'useControlPlane().namespace is created in beforeAll: read it inside tests or hooks',
        );
      }
      return namespace;
    },
    kubeConfigFor: (user, groups) => client.kubeConfigFor(user, groups),
    grant: (subject, rules, options) => client.grant(subject, rules, options),
    installCRDs: (input) => client.installCRDs(input),
    createNamespace,
  };
}
