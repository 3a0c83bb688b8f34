import type { ClientError } from './errors.js';

/**
 * Names that go into request paths. client-node percent-encodes a path parameter, but the URL
 * parser still resolves `.` and `..` (encoded or not), so a name of `..` addressed the parent
 * resource; the API server's own rules are the ones checked: namespaces are DNS-1123 labels,
 * object names DNS-1123 subdomains.
 */

const DNS1123_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;

export const NAMESPACE_RULE = "a DNS-1123 label: lowercase letters, digits and '-', at most 63 characters";
export const SUBDOMAIN_RULE =
  "a DNS-1123 subdomain: lowercase letters, digits, '-' and '.', at most 253 characters";

export const isNamespaceName = (name: unknown): name is string =>
  typeof name === 'string' && name.length <= 63 && DNS1123_LABEL.test(name);

export const isSubdomainName = (name: unknown): name is string =>
  typeof name === 'string' && name.length <= 253 && name.split('.').every((part) => DNS1123_LABEL.test(part));

/**
 * A value a caller gave, for a message: JSON-quoted (control characters escaped), cut short
 * when long (a name of a megabyte is not echoed whole), or its type when it is no string.
 */
export function shownValue(value: unknown): string {
  if (value === null || value === undefined) return `(${value})`;
  if (typeof value !== 'string') return `(${typeof value === 'object' ? 'an' : 'a'} ${typeof value})`;
  if (value.length <= 100) return JSON.stringify(value);
  return `${JSON.stringify(value.slice(0, 60))}… (${value.length} characters)`;
}

/**
 * Why a namespace or object name cannot go into a request path, if one cannot, as
 * `invalid-option` with `path` naming it. client-node only percent-encodes them: an empty
 * name made `…/machines/`, which the API server reads as the collection (a DELETE of it is a
 * deletecollection: every Machine of the namespace), `..` the parent path, `a/status` could
 * reach a subresource, and a namespace of `..` the cluster-wide collection (every
 * namespace's). `where` names the fields (`metadata.name` for an object given whole). Only
 * the fields present in `target` are checked.
 */
export function pathProblem(
  target: { readonly namespace?: unknown; readonly name?: unknown },
  where: { readonly namespace: string; readonly name: string } = { namespace: 'namespace', name: 'name' },
): ClientError | undefined {
  if ('namespace' in target && !isNamespaceName(target.namespace))
    return {
      code: 'invalid-option',
      path: where.namespace,
      message: `${where.namespace} ${shownValue(target.namespace)} is not a valid namespace (${NAMESPACE_RULE})`,
    };
  if ('name' in target && !isSubdomainName(target.name))
    return {
      code: 'invalid-option',
      path: where.name,
      message: `${where.name} ${shownValue(target.name)} is not a valid object name (${SUBDOMAIN_RULE})`,
    };
  return undefined;
}
