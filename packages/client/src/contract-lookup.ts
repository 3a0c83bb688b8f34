import {
  type ContractCrd,
  CURRENT_CONTRACT,
  compatibleContracts,
  type ReferenceApiVersionLookup,
  referenceApiVersionsFromCrds,
} from '@capi-kit/conversion';
import { ApiextensionsV1Api, type KubeConfig } from '@kubernetes/client-node';
import * as E from 'fp-ts/lib/Either.js';
import { type ClientError, clientErrorFrom } from './errors.js';

/**
 * The live side of the v1beta2 → v1beta1 reference lookup: reads the provider CRDs of a
 * management cluster and hands `@capi-kit/conversion` the pure lookup it takes as
 * `referenceApiVersion` (conversion stays offline; this package may import it, not the
 * other way round).
 *
 * Only CRDs carrying a compatible contract label can answer, so the list asks the API server
 * for those by label (`cluster.x-k8s.io/v1beta2`, then `cluster.x-k8s.io/v1beta1`) rather
 * than reading every CRD of the cluster. Read once, up front: the conversion that uses the
 * lookup is synchronous and sees one consistent set of CRDs.
 */
export async function loadReferenceApiVersions(
  kubeConfig: KubeConfig,
  contract: string = CURRENT_CONTRACT,
): Promise<E.Either<ClientError, ReferenceApiVersionLookup>> {
  const api = kubeConfig.makeApiClient(ApiextensionsV1Api);
  const crds = new Map<string, ContractCrd>();
  for (const candidate of compatibleContracts(contract)) {
    const labelSelector = `cluster.x-k8s.io/${candidate}`;
    try {
      const list = await api.listCustomResourceDefinition({ labelSelector });
      for (const crd of list.items) crds.set(crd.metadata?.name ?? '', crd as ContractCrd);
    } catch (error) {
      const target = { apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition' };
      return E.left(clientErrorFrom(error, target, `list (label ${labelSelector})`));
    }
  }
  return E.right(referenceApiVersionsFromCrds([...crds.values()], contract));
}
