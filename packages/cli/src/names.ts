import { yamlTypeName } from '@capi-kit/core/objects';
import { UsageError } from './exit-codes.js';
import { KubeconfigError } from './kubeconfig.js';
import { printable, shortened } from './text.js';

/**
 * Names the CLI puts into request paths: namespaces and object names. `.`, `..` or a `/`
 * would address another resource (`get clusters -n ..` listed every namespace, `lease
 * acquire .` PUT a LeaseList to the collection). They are checked before any request, as
 * the API server checks them: namespaces are DNS-1123 labels, node and object names DNS-1123
 * subdomains.
 */

const DNS1123_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;

export function isNamespaceName(name: string): boolean {
  return name.length <= 63 && DNS1123_LABEL.test(name);
}

export function isSubdomainName(name: string): boolean {
  return name.length <= 253 && name.split('.').every((part) => DNS1123_LABEL.test(part));
}

const NAMESPACE_RULE = "lowercase letters, digits and '-', at most 63 characters";
const SUBDOMAIN_RULE = "lowercase letters, digits, '-' and '.', at most 253 characters";

/** A namespace flag (`-n`, `--lease-namespace`), when given: exit 2 naming the flag. */
export function checkNamespaceFlag(value: string | undefined, flag = '--namespace'): void {
  if (value !== undefined && !isNamespaceName(value)) {
    throw new UsageError(`${flag} ${JSON.stringify(value)} is not a valid namespace (${NAMESPACE_RULE})`);
  }
}

/** An object name from the command line (`NODE`, a Cluster `NAME`): exit 2 naming the argument. */
export function checkObjectName(argument: string, value: string, noun: string): void {
  if (!isSubdomainName(value)) {
    throw new UsageError(`${argument} ${JSON.stringify(value)} is not a valid ${noun} (${SUBDOMAIN_RULE})`);
  }
}

/**
 * The namespace a command works in: the flag (checked), else the kubeconfig context's
 * (checked too: a kubeconfig is input as well; exit 3 like any unusable kubeconfig), else
 * `default`.
 */
export function commandNamespace(flag: string | undefined, contextNamespace: unknown): string {
  checkNamespaceFlag(flag);
  if (flag !== undefined) return flag;
  if (contextNamespace === undefined || contextNamespace === null || contextNamespace === '')
    return 'default';
  // (client-node keeps a `namespace: 5` as the number: it was "namespace 5 is not a valid namespace")
  if (typeof contextNamespace !== 'string') {
    throw new KubeconfigError(
      'kubeconfig-invalid',
      `the current context's namespace is ${yamlTypeName(contextNamespace)}${typeof contextNamespace === 'object' ? '' : ` (${printable(shortened(String(contextNamespace)))})`}, not a namespace's name`,
    );
  }
  if (!isNamespaceName(contextNamespace)) {
    throw new KubeconfigError(
      'kubeconfig-invalid',
      `the current context's namespace ${JSON.stringify(contextNamespace)} is not a valid namespace (${NAMESPACE_RULE})`,
    );
  }
  return contextNamespace;
}
