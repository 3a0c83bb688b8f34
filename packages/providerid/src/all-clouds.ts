import type { Either } from 'fp-ts/lib/Either.js';
import { allProviderIDGrammars } from './cloud-table.js';
import { type ProviderIDEntry, ProviderIDIndex } from './provider-id-index.js';
import { createProviderIDRegistry, type IdentifiedProviderID } from './registry.js';
import type { ParseOptions, ParseProviderIDResult, ProviderIDError, SameInstanceResult } from './types.js';

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
