import { CoreV1Api, type KubeConfig } from '@kubernetes/client-node';
import * as E from 'fp-ts/lib/Either.js';
import { type ClientError, clientErrorFrom } from './errors.js';
import { isNamespaceName, isSubdomainName } from './names.js';
import { currentUserProblem, servedKubeconfigText, serverUrlProblem } from './served-kubeconfig.js';

/** The Secret key that holds a workload cluster's kubeconfig (both versions). */
export const KUBECONFIG_SECRET_KEY = 'value';

/** `<cluster>-kubeconfig`: the Secret Cluster API (or, for v1alpha1, the provider) writes. */
export function kubeconfigSecretName(clusterName: string): string {
  return `${clusterName}-kubeconfig`;
}

/** Why a workload cluster's kubeconfig could not be had. Each names the Secret (`ns/name`). */
export type WorkloadKubeConfigError =
  | {
      /** The Secret does not exist. */
      readonly code: 'kubeconfig-secret-not-found';
      readonly secret: string;
      readonly message: string;
    }
  | {
      /** The Secret could not be read (forbidden, unreachable, …); `cause` is the API error. */
      readonly code: 'kubeconfig-secret-unreadable';
      readonly secret: string;
      readonly cause: ClientError;
      readonly message: string;
    }
  | {
      /**
       * The Cluster's name or namespace (`path`: `metadata.name`, `metadata.namespace`) cannot
       * name the Secret: a `/`, upper case, … No request is made.
       */
      readonly code: 'invalid-cluster-ref';
      readonly secret: string;
      readonly path: string;
      readonly message: string;
    }
  | {
      /** The Secret is there, but `path` does not hold a usable kubeconfig. */
      readonly code: 'kubeconfig-secret-malformed';
      readonly secret: string;
      readonly path: string;
      readonly message: string;
    };

/** The Cluster whose workload cluster to reach: its name and namespace. */
export interface ClusterRef {
  readonly metadata?: { readonly name?: string; readonly namespace?: string } | null;
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/**
 * Why a Cluster's name or namespace cannot name its kubeconfig Secret, if it cannot. Both go
 * into the request path: a name with a `/` (a spec.clusterName, which the API server does not
 * check) was read as a Secret that does not exist.
 */
function clusterRefProblem(
  name: string,
  namespace: string,
  secret: string,
): E.Either<WorkloadKubeConfigError, never> | undefined {
  const quote = JSON.stringify;
  if (!isNamespaceName(namespace))
    return E.left({
      code: 'invalid-cluster-ref',
      secret,
      path: 'metadata.namespace',
      message: `the workload cluster's namespace ${quote(namespace)} is not a valid namespace (lowercase letters, digits and '-', at most 63 characters)`,
    });
  const secretName = kubeconfigSecretName(name);
  if (!isSubdomainName(secretName))
    return E.left({
      code: 'invalid-cluster-ref',
      secret,
      path: 'metadata.name',
      message: `the workload cluster's name ${quote(name)} is not a valid Cluster name: its kubeconfig Secret would be ${quote(secretName)}, not a valid Secret name (lowercase letters, digits, '-' and '.', at most 253 characters)`,
    });
  return undefined;
}

/**
 * Builds a KubeConfig for a Cluster's workload cluster from the `<cluster>-kubeconfig`
 * Secret (key `value`, the Cluster's namespace; the same for v1alpha1 and v1alpha2).
 * A missing, unreadable or malformed Secret is a typed error naming it; nothing is thrown.
 */
export async function workloadKubeConfig(
  management: KubeConfig,
  cluster: ClusterRef,
): Promise<E.Either<WorkloadKubeConfigError, KubeConfig>> {
  const name = kubeconfigSecretName(cluster.metadata?.name ?? '');
  const namespace = cluster.metadata?.namespace ?? 'default';
  const secret = `${namespace}/${name}`;
  const refProblem = clusterRefProblem(cluster.metadata?.name ?? '', namespace, secret);
  if (refProblem !== undefined) return refProblem;
  const malformed = (path: string, why: string): E.Either<WorkloadKubeConfigError, KubeConfig> =>
    E.left({
      code: 'kubeconfig-secret-malformed',
      secret,
      path,
      message: `Secret ${secret}: ${path}: ${why}`,
    });

  let data: Record<string, string> | undefined;
  try {
    const read = await management.makeApiClient(CoreV1Api).readNamespacedSecret({ name, namespace });
    data = read.data;
  } catch (error) {
    const cause = clientErrorFrom(error, { apiVersion: 'v1', kind: 'Secret', namespace, name }, 'read');
    if (cause.code === 'not-found') {
      return E.left({
        code: 'kubeconfig-secret-not-found',
        secret,
        message: `the workload kubeconfig Secret ${secret} does not exist`,
      });
    }
    return E.left({
      code: 'kubeconfig-secret-unreadable',
      secret,
      cause,
      message: `the workload kubeconfig Secret ${secret} cannot be read: ${cause.message}`,
    });
  }
  const path = `data.${KUBECONFIG_SECRET_KEY}`;
  const encoded = data?.[KUBECONFIG_SECRET_KEY];
  if (typeof encoded !== 'string' || encoded === '') return malformed(path, 'missing or empty');
  if (!BASE64.test(encoded)) return malformed(path, 'is not base64');
  const text = Buffer.from(encoded, 'base64').toString('utf8');
  // Checked before loading (client-node reads a token-file while it loads).
  const served = servedKubeconfigText(text);
  if (E.isLeft(served)) return malformed(path, served.left);
  // Made with the management KubeConfig's own class: a subclass that signs every request
  // (the CLI's request deadline, a proxy) then reaches the workload cluster too.
  const kubeConfig = new (management.constructor as new () => KubeConfig)();
  try {
    kubeConfig.loadFromString(served.right);
  } catch (error) {
    return malformed(
      path,
      `is not a kubeconfig: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`,
    );
  }
  const current = kubeConfig.getCurrentCluster();
  const context = kubeConfig.getContextObject(kubeConfig.getCurrentContext());
  if (current === null && context !== null)
    return malformed(
      path,
      `the kubeconfig's context ${JSON.stringify(context.name)} names cluster ${JSON.stringify(context.cluster)}, which is not in clusters`,
    );
  if (current === null || !current.server)
    return malformed(path, 'the kubeconfig has no current cluster with a server');
  const serverProblem = serverUrlProblem(current.server);
  if (serverProblem !== undefined)
    return malformed(path, `the kubeconfig's cluster ${JSON.stringify(current.name)}: ${serverProblem}`);
  // (client-node sent a user the context names but users lacks as no user: anonymously)
  const userProblem = currentUserProblem(kubeConfig);
  if (userProblem !== undefined) return malformed(path, `the kubeconfig's ${userProblem}`);
  return E.right(kubeConfig);
}
