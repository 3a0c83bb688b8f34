import { bufferFromFileOrString, KubeConfig } from '@kubernetes/client-node';
import { EnvtestError } from './errors.js';

/** Credentials of one user: a client certificate, or a bearer token. */
export type UserCredentials = { certPem: string; keyPem: string } | { token: string };

const b64 = (text: string): string => Buffer.from(text, 'utf8').toString('base64');

/**
 * A kubeconfig document (plain object, serialisable to YAML/JSON) with one cluster, one
 * user and one current context. Certificates are embedded, so the file stands alone.
 */
export function kubeconfigDocument(options: {
  server: string;
  caPem: string;
  user: string;
  credentials: UserCredentials;
  name?: string;
  namespace?: string;
}): Record<string, unknown> {
  const name = options.name ?? 'capi-kit-envtest';
  const userEntry =
    'token' in options.credentials
      ? { token: options.credentials.token }
      : {
          'client-certificate-data': b64(options.credentials.certPem),
          'client-key-data': b64(options.credentials.keyPem),
        };
  return {
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [
      { name, cluster: { server: options.server, 'certificate-authority-data': b64(options.caPem) } },
    ],
    users: [{ name: options.user, user: userEntry }],
    contexts: [
      {
        name,
        context: {
          cluster: name,
          user: options.user,
          ...(options.namespace ? { namespace: options.namespace } : {}),
        },
      },
    ],
    'current-context': name,
    preferences: {},
  };
}

/** Loads a kubeconfig document into a client-node KubeConfig. */
export function kubeConfigFromDocument(document: Record<string, unknown>): KubeConfig {
  const kc = new KubeConfig();
  kc.loadFromString(JSON.stringify(document));
  return kc;
}

/** The server URL and CA of a KubeConfig's current cluster. */
export function currentCluster(kc: KubeConfig): { server: string; caPem: string | undefined } {
  const cluster = kc.getCurrentCluster();
  if (!cluster) throw new EnvtestError('invalid-kubeconfig', 'kubeconfig has no current cluster');
  // The CA exactly as client-node itself loads it for requests (a caFile wins over caData).
  const caPem = bufferFromFileOrString(cluster.caFile, cluster.caData)?.toString('utf8');
  return { server: cluster.server, caPem };
}
