import { createHash } from 'node:crypto';
import { isObject, type JsonObject } from './path.js';
import { V1ALPHA1 } from './versions.js';

/**
 * A v1alpha1 Machine named only by `metadata.generateName` (clusterctl v0.1 and CAPA v0.3
 * worker manifests) has no name for its generated infrastructure and bootstrap objects to be
 * named after, nor for its references to them to resolve. Conversion gives it a name the
 * way the API server would (the prefix plus a short suffix), but deterministic: the suffix
 * hashes the document's position and content, so converting the same manifest twice names
 * the same objects, and two identical Machines in one manifest still get different names.
 */

/** Kubernetes' object-name limit (DNS-1123 subdomain). */
const MAX_NAME = 253;
const SUFFIX_LENGTH = 8;

/** The objects whose conversion generates objects named after them. */
const NAMED_AFTER = new Set(['Machine']);

export interface NamedFromGenerateName {
  readonly value: JsonObject;
  readonly warning: string;
}

/**
 * `value` with `metadata.name` set from its `generateName`, when it is a v1alpha1 Machine
 * with a `generateName` and no name; `undefined` otherwise. `position` identifies the
 * document (and the item of a List) in the manifest.
 */
export function nameFromGenerateName(value: unknown, position: string): NamedFromGenerateName | undefined {
  if (!isObject(value) || value.apiVersion !== V1ALPHA1 || typeof value.kind !== 'string') return undefined;
  if (!NAMED_AFTER.has(value.kind)) return undefined;
  const metadata = value.metadata;
  if (!isObject(metadata)) return undefined;
  const { name, generateName } = metadata;
  if (name !== undefined && name !== '') return undefined;
  if (typeof generateName !== 'string' || generateName === '') return undefined;
  const suffix = createHash('sha256')
    .update(`${position}\n${JSON.stringify(value)}`)
    .digest('hex')
    .slice(0, SUFFIX_LENGTH);
  const given = `${generateName.slice(0, MAX_NAME - SUFFIX_LENGTH)}${suffix}`;
  return {
    value: { ...value, metadata: { ...metadata, name: given } },
    warning: `had only metadata.generateName ${JSON.stringify(generateName)}: named ${JSON.stringify(given)} (the prefix and a hash of the document) so that its generated infrastructure and bootstrap objects and its references to them share one name; apply the converted objects together`,
  };
}
