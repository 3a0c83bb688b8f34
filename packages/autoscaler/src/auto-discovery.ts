import { type Either, left, right } from 'fp-ts/lib/Either.js';
import { clusterNameOf } from './cluster-name.js';
import { NodeGroupError } from './errors.js';
import { field, goStringMap, type KubeObject, namespaceOf } from './objects.js';

/**
 * One `--node-group-auto-discovery=clusterapi:…` spec: a MachineSet or MachineDeployment
 * is a candidate when it is in `namespace` and `clusterName` (each `''` for any) and carries
 * every label of `labelSelector`.
 */
export interface AutoDiscoverySpec {
  readonly namespace: string;
  readonly clusterName: string;
  readonly labelSelector: Readonly<Record<string, string>>;
  /**
   * Label keys the spec requires to equal two different values (`env=a,env=b`). Upstream
   * adds every pair to the selector as its own requirement and a selector needs them all,
   * so such a spec admits no MachineSet or MachineDeployment.
   */
  readonly conflictingLabels?: readonly string[];
}

export interface AutoDiscoveryError {
  readonly code: 'invalid-auto-discovery-spec';
  readonly message: string;
  /** Which spec, when parsing a list: `autoDiscovery[i]`. */
  readonly path?: string;
}

const discoverer = 'clusterapi';
// The two keys that are not labels, as upstream spells them.
const specialKeys: Readonly<Record<string, 'namespace' | 'clusterName'>> = {
  namespace: 'namespace',
  clusterName: 'clusterName',
};

// Kubernetes label syntax (apimachinery's IsQualifiedName and IsValidLabelValue). Lengths
// are checked before the patterns, which then run on at most 253 characters.
const LABEL_NAME = /^[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?$/;
const DNS_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

function labelKeyProblem(key: string): string | undefined {
  const slash = key.indexOf('/');
  const name = slash < 0 ? key : key.slice(slash + 1);
  if (slash >= 0) {
    const prefix = key.slice(0, slash);
    if (prefix.length === 0 || prefix.length > 253 || !DNS_SUBDOMAIN.test(prefix))
      return `label key ${JSON.stringify(key)}: the prefix must be a DNS subdomain (lower case, at most 253 characters)`;
  }
  if (name.length === 0 || name.length > 63 || !LABEL_NAME.test(name))
    return `label key ${JSON.stringify(key)}: the name must be 1-63 characters of [A-Za-z0-9-_.], starting and ending with a letter or digit`;
  return undefined;
}

function labelValueProblem(key: string, value: string): string | undefined {
  if (value === '') return undefined;
  if (value.length > 63 || !LABEL_NAME.test(value))
    return `label ${JSON.stringify(key)}: value ${JSON.stringify(value)} must be at most 63 characters of [A-Za-z0-9-_.], starting and ending with a letter or digit`;
  return undefined;
}

/**
 * Parses `clusterapi:namespace=NS,clusterName=NAME,label=value,…` as cluster-autoscaler
 * does: `namespace` and `clusterName` are special (a later one wins), every other pair is an
 * equality label requirement, all of which must hold (a key given two values admits
 * nothing: `conflictingLabels`); empty items are ignored.
 */
export function parseAutoDiscoverySpec(spec: string): Either<AutoDiscoveryError, AutoDiscoverySpec> {
  const fail = (message: string) =>
    left<AutoDiscoveryError>({ code: 'invalid-auto-discovery-spec', message });
  const tokens = spec.split(':');
  if (tokens.length !== 2)
    return fail(`spec ${JSON.stringify(spec)} should be discoverer:key=value,key=value`);
  const [kind, pairs] = tokens as [string, string];
  if (kind !== discoverer) return fail(`unsupported discoverer specified: ${kind}`);
  const out = { namespace: '', clusterName: '', labelSelector: {} as Record<string, string> };
  const conflicting = new Set<string>();
  for (const item of pairs.split(',')) {
    if (item === '') continue;
    const kv = item.split('=');
    if (kv.length !== 2)
      return fail(`invalid key=value pair ${JSON.stringify(item)} in spec ${JSON.stringify(spec)}`);
    const [key, value] = kv as [string, string];
    const special = Object.hasOwn(specialKeys, key) ? specialKeys[key] : undefined;
    if (special !== undefined) {
      out[special] = value;
      continue;
    }
    const problem = labelKeyProblem(key) ?? labelValueProblem(key, value);
    if (problem !== undefined) return fail(`failed to create label selector; ${problem}`);
    if (Object.hasOwn(out.labelSelector, key) && out.labelSelector[key] !== value) {
      conflicting.add(key);
      continue;
    }
    out.labelSelector[key] = value;
  }
  return right(conflicting.size === 0 ? out : { ...out, conflictingLabels: [...conflicting] });
}

/** Parses every spec; the first invalid one is the error, its index in `path`. */
export function parseAutoDiscovery(
  specs: readonly string[],
): Either<AutoDiscoveryError, AutoDiscoverySpec[]> {
  const parsed: AutoDiscoverySpec[] = [];
  for (const [i, spec] of specs.entries()) {
    const result = parseAutoDiscoverySpec(spec);
    if (result._tag === 'Left') return left({ ...result.left, path: `autoDiscovery[${i}]` });
    parsed.push(result.right);
  }
  return right(parsed);
}

/** Whether one spec admits a MachineSet or MachineDeployment. */
export function allowedByAutoDiscoverySpec(resource: KubeObject, spec: AutoDiscoverySpec): boolean {
  if (spec.namespace !== '' && spec.namespace !== namespaceOf(resource)) return false;
  if (spec.clusterName !== '' && spec.clusterName !== clusterNameOf(resource)) return false;
  if ((spec.conflictingLabels?.length ?? 0) > 0) return false;
  // (as upstream's GetLabels: labels with a value that is not a string are no labels)
  const labels = goStringMap(field(resource, 'metadata', 'labels'));
  for (const [key, value] of Object.entries(spec.labelSelector ?? {}))
    if (!Object.hasOwn(labels, key) || labels[key] !== value) return false;
  return true;
}

/**
 * Whether any spec admits the resource (specs are OR-ed); with no spec, everything is
 * admitted. A spec may be given as text; text that does not parse is a caller's mistake
 * and throws a `NodeGroupError` with code `invalid-options` (and the spec's `path` in a
 * list) rather than silently admitting or refusing everything.
 */
export function allowedByAutoDiscovery(
  resource: KubeObject,
  specs: AutoDiscoverySpec | string | readonly (AutoDiscoverySpec | string)[] | undefined,
): boolean {
  const list =
    specs === undefined ? [] : Array.isArray(specs) ? specs : [specs as AutoDiscoverySpec | string];
  if (list.length === 0) return true;
  return list.some((spec, i) =>
    allowedByAutoDiscoverySpec(
      resource,
      typeof spec === 'string'
        ? parsedOrThrow(spec, Array.isArray(specs) ? `autoDiscovery[${i}]` : undefined)
        : spec,
    ),
  );
}

function parsedOrThrow(spec: string, path: string | undefined): AutoDiscoverySpec {
  const result = parseAutoDiscoverySpec(spec);
  if (result._tag === 'Left') {
    throw new NodeGroupError('invalid-options', result.left.message, path === undefined ? {} : { path });
  }
  return result.right;
}
