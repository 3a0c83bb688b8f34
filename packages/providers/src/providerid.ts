import {
  type CloudProviderIDGrammar,
  createProviderIDRegistry,
  type IdentifiedProviderID,
  type ParseOptions,
  type ParseProviderIDResult,
  type ProviderIDEntry,
  type ProviderIDError,
  ProviderIDIndex,
  type SameInstanceResult,
} from '@capi-kit/core/providerid';
import { awsProviderID } from '@capi-kit/providers-aws';
import { azureProviderID } from '@capi-kit/providers-azure';
import { gceProviderID } from '@capi-kit/providers-gcp';
import { moreProviderIDGrammars } from '@capi-kit/providers-more';
import { openstackProviderID } from '@capi-kit/providers-openstack';
import { vsphereProviderID } from '@capi-kit/providers-vsphere';
import type { Either } from 'fp-ts/lib/Either.js';

/** Every cloud grammar capi-kit ships, major clouds first. */
export const allProviderIDGrammars: readonly CloudProviderIDGrammar[] = [
  awsProviderID,
  gceProviderID,
  azureProviderID,
  vsphereProviderID,
  openstackProviderID,
  ...moreProviderIDGrammars,
];

/** A registry with every cloud: the one `parseProviderID` and friends use. */
export const providerIDRegistry = createProviderIDRegistry(allProviderIDGrammars);

/** Parses a providerID of any known cloud (see ProviderIDRegistry.parse). */
export function parseProviderID(input: string, options?: ParseOptions): ParseProviderIDResult {
  return providerIDRegistry.parse(input, options);
}

/** Builds the canonical providerID of `cloud` from its fields. */
export function formatProviderID(
  cloud: string,
  fields: Readonly<Record<string, unknown>>,
): Either<ProviderIDError, string> {
  return providerIDRegistry.format(cloud, fields);
}

/** The identity key of any string (structural for strings no cloud grammar accepts). */
export function identifyProviderID(input: string, options?: ParseOptions): IdentifiedProviderID {
  return providerIDRegistry.identify(input, options);
}

/** Whether a Node's and a Machine's providerIDs denote the same instance, and why. */
export function sameInstance(
  nodeProviderID: string,
  machineProviderID: string,
  options?: ParseOptions,
): SameInstanceResult {
  return providerIDRegistry.sameInstance(nodeProviderID, machineProviderID, options);
}

/** An index of machines by providerID over every cloud; match nodes with `.match(nodes)`. */
export function createProviderIDIndex<M>(machines: Iterable<ProviderIDEntry<M>> = []): ProviderIDIndex<M> {
  return new ProviderIDIndex(providerIDRegistry, machines);
}
