import { join } from 'node:path';
import * as E from 'fp-ts/lib/Either.js';

/** The CRDs of both Cluster API versions, from the repository's testdata. */
export const crdRoot = join(import.meta.dirname, '../../../../testdata/crds');
export const capiCrdDirs = [join(crdRoot, 'v1alpha1'), join(crdRoot, 'v1alpha2')];

/** The right side of an Either, or a thrown error that shows the left side. */
export function unwrap<L, R>(either: E.Either<L, R>): R {
  if (E.isLeft(either)) throw new Error(`expected Right, got Left: ${JSON.stringify(either.left, null, 1)}`);
  return either.right;
}

/** The left side of an Either, or a thrown error that shows the right side. */
export function unwrapLeft<L, R>(either: E.Either<L, R>): L {
  if (E.isRight(either))
    throw new Error(`expected Left, got Right: ${JSON.stringify(either.right).slice(0, 500)}`);
  return either.left;
}

/** A v1alpha2 Machine of cluster `cluster`. */
export function v1alpha2Machine(
  namespace: string,
  name: string,
  cluster = 'prod',
  extra: { providerID?: string } = {},
) {
  return {
    apiVersion: 'cluster.x-k8s.io/v1alpha2' as const,
    kind: 'Machine' as const,
    metadata: { name, namespace, labels: { 'cluster.x-k8s.io/cluster-name': cluster } },
    spec: {
      bootstrap: { data: 'IyBjbG91ZC1jb25maWc=' },
      infrastructureRef: {
        apiVersion: 'infrastructure.cluster.x-k8s.io/v1alpha2',
        kind: 'AWSMachine',
        name,
      },
      ...(extra.providerID === undefined ? {} : { providerID: extra.providerID }),
    },
  };
}

/** A v1alpha2 MachineSet with `replicas`. */
export function v1alpha2MachineSet(namespace: string, name: string, replicas: number, cluster = 'prod') {
  return {
    apiVersion: 'cluster.x-k8s.io/v1alpha2' as const,
    kind: 'MachineSet' as const,
    metadata: { name, namespace, labels: { 'cluster.x-k8s.io/cluster-name': cluster } },
    spec: {
      replicas,
      selector: { matchLabels: { set: name } },
      template: {
        metadata: { labels: { set: name, 'cluster.x-k8s.io/cluster-name': cluster } },
        spec: {
          bootstrap: { data: 'IyBjbG91ZC1jb25maWc=' },
          infrastructureRef: {
            apiVersion: 'infrastructure.cluster.x-k8s.io/v1alpha2',
            kind: 'AWSMachineTemplate',
            name,
          },
        },
      },
    },
  };
}

/** A v1alpha1 Machine with an inline AWS providerSpec (what the AWS plug-in converts). */
export function v1alpha1Machine(
  namespace: string,
  name: string,
  cluster = 'legacy',
  extra: { providerID?: string } = {},
) {
  return {
    apiVersion: 'cluster.k8s.io/v1alpha1' as const,
    kind: 'Machine' as const,
    metadata: { name, namespace, labels: { 'cluster.k8s.io/cluster-name': cluster, set: 'workers' } },
    spec: {
      versions: { kubelet: 'v1.14.4' },
      ...(extra.providerID === undefined ? {} : { providerID: extra.providerID }),
      providerSpec: {
        value: {
          apiVersion: 'awsprovider/v1alpha1',
          kind: 'AWSMachineProviderSpec',
          instanceType: 'm5.large',
          keyName: 'ops-2019',
          availabilityZone: 'eu-west-1a',
        },
      },
    },
  };
}
