import { readManifest } from '@capi-kit/core/manifest';
import { isPlainObject } from '@capi-kit/core/objects';
import * as E from 'fp-ts/lib/Either.js';

/**
 * A kubeconfig read from a cluster (a `<cluster>-kubeconfig` Secret) is data that anyone who
 * may write that Secret controls. client-node honours fields that act on the machine it runs
 * on: `exec` and `auth-provider` (gcp and azure run their `cmd-path`) run commands,
 * `token-file` is read while the kubeconfig loads, and the other paths are read and their
 * contents sent to the kubeconfig's server. Cluster API writes inline credentials only
 * (`client-certificate-data`, `token`, …), so these fields are refused, not acted on.
 */
const LOCAL_FIELDS = {
  users: {
    entry: 'user',
    fields: ['exec', 'auth-provider', 'token-file', 'client-certificate', 'client-key'],
  },
  clusters: { entry: 'cluster', fields: ['certificate-authority'] },
} as const;

/**
 * The served kubeconfig as JSON text for client-node's loader, or why it is refused. It is
 * parsed once, here: client-node then loads exactly the value that was checked, so no
 * difference between two YAML parsers can slip a field past the check.
 */
export function servedKubeconfigText(text: string): E.Either<string, string> {
  const read = readManifest(text);
  if (E.isLeft(read)) return E.left(`is not a kubeconfig: ${read.left[0]?.message ?? 'unreadable'}`);
  const [document, ...more] = read.right;
  if (document === undefined || more.length > 0 || !isPlainObject(document.value))
    return E.left('is not a kubeconfig: expected one YAML mapping');
  const config = document.value;
  for (const [list, { entry, fields }] of Object.entries(LOCAL_FIELDS)) {
    const entries = config[list];
    if (!Array.isArray(entries)) continue;
    for (const [i, item] of entries.entries()) {
      const body = isPlainObject(item) ? item[entry] : undefined;
      const field = isPlainObject(body) ? fields.find((f) => body[f] != null) : undefined;
      if (field !== undefined)
        return E.left(
          `${list}[${i}].${entry}.${field} is refused: a kubeconfig served by a cluster may not run commands or read local files (use inline credentials: token, client-certificate-data, client-key-data, certificate-authority-data)`,
        );
    }
  }
  return E.right(JSON.stringify(config));
}
