import { randomBytes } from 'node:crypto';
import { CoreV1Api, KubeConfig, type V1PolicyRule } from '@kubernetes/client-node';
import { type CrdInput, type InstalledCrd, installCRDs } from './crds.js';
import { EnvtestError } from './errors.js';
import { currentCluster, kubeConfigFromDocument, kubeconfigDocument } from './kubeconfig.js';
import { type CertificateAndKey, type CertificateAuthority, loadCertificateAuthority } from './pki.js';
import { type GrantOptions, type GrantSubject, grantAccess } from './rbac.js';

/** Which kind of control plane serves the tests. */
export type BackendKind = 'existing' | 'local' | 'k3s';

/**
 * Everything a test worker needs to use a running control plane. Plain data, so the vitest
 * global setup can `provide` it to workers in other processes.
 */
export interface ControlPlaneConnection {
  backend: BackendKind;
  /** One line saying what runs and where it came from. */
  description: string;
  /** The admin kubeconfig as YAML or JSON text. */
  kubeconfig: string;
  /** The same kubeconfig as a file, for kubectl, the capi-kit CLI and other tools. */
  kubeconfigPath: string;
  /**
   * The CA kube-apiserver trusts for client certificates, when the backend lets us use it
   * (a throwaway test CA). kubeConfigFor() mints users from it.
   */
  clientCA?: CertificateAndKey;
}

/** What tests use: admin access, namespaces, CRDs and non-admin users. */
export interface ControlPlaneClient {
  readonly backend: BackendKind;
  readonly description: string;
  /** Admin (system:masters) access. */
  readonly kubeConfig: KubeConfig;
  readonly kubeconfigPath: string;
  /** Installs CRDs (v1beta1 ones are converted to v1) and waits until they are served. */
  installCRDs(input: CrdInput): Promise<InstalledCrd[]>;
  /** Creates a namespace named `<prefix>-<random>` and returns its name. */
  createNamespace(prefix?: string): Promise<string>;
  /**
   * A KubeConfig for a non-admin user with the given groups (RBAC applies; the user has
   * no permissions until a test grants some).
   */
  kubeConfigFor(user: string, groups?: readonly string[]): Promise<KubeConfig>;
  /**
   * Grants `rules` to `subject` (a user name, as `kubeConfigFor(user)` mints, or a User,
   * Group or ServiceAccount subject): a Role and RoleBinding in `options.namespace`, or a
   * ClusterRole and ClusterRoleBinding without one, named `options.name` (default: the
   * subject's name). Resolves once the authorizer allows each rule.
   */
  grant(subject: GrantSubject, rules: V1PolicyRule[], options?: GrantOptions): Promise<void>;
}

/** A DNS-1123 label from a free-form prefix: lowercase, [a-z0-9-], at most 63 chars. */
export function namespaceName(prefix = 'test'): string {
  const clean =
    prefix
      .toLowerCase()
      .replace(/[^a-z0-9-]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 50)
      .replace(/-+$/, '') || 'test';
  return `${clean}-${randomBytes(4).toString('hex')}`;
}

/** Builds the test-facing client of a control plane from its connection data. */
export function connect(connection: ControlPlaneConnection): ControlPlaneClient {
  const kubeConfig = new KubeConfig();
  if (connection.backend === 'existing') {
    // A user's kubeconfig may name certificate files relative to its own directory.
    kubeConfig.loadFromFile(connection.kubeconfigPath);
  } else {
    kubeConfig.loadFromString(connection.kubeconfig);
  }
  let clientCA: Promise<CertificateAuthority> | undefined;
  const core = kubeConfig.makeApiClient(CoreV1Api);

  return {
    backend: connection.backend,
    description: connection.description,
    kubeConfig,
    kubeconfigPath: connection.kubeconfigPath,
    installCRDs: (input) => installCRDs(kubeConfig, input),
    createNamespace: async (prefix) => {
      const name = namespaceName(prefix);
      await core.createNamespace({
        body: { metadata: { name, labels: { 'capi-kit.dev/envtest': 'true' } } },
      });
      return name;
    },
    grant: (subject, rules, options) => grantAccess(kubeConfig, subject, rules, options),
    kubeConfigFor: async (user, groups = []) => {
      if (!connection.clientCA) {
        throw new EnvtestError(
          'not-supported',
          `kubeConfigFor() needs the cluster's client CA, which the ${connection.backend} backend does not expose; ` +
            'use a local control plane, or give the test its own credentials',
        );
      }
      clientCA ??= loadCertificateAuthority(connection.clientCA);
      const credentials = await (await clientCA).issueClientCertificate(user, groups);
      const { server, caPem } = currentCluster(kubeConfig);
      if (!caPem)
        throw new EnvtestError(
          'invalid-kubeconfig',
          'the admin kubeconfig has no certificate authority to trust',
        );
      return kubeConfigFromDocument(kubeconfigDocument({ server, caPem, user, credentials, name: user }));
    },
  };
}
