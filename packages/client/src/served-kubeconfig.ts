import { readManifest } from '@capi-kit/core/manifest';
import { isPlainObject, yamlTypeName } from '@capi-kit/core/objects';
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
  const current = config['current-context'];
  const contextProblem =
    typeof current === 'string' ? contextFieldProblem(config.contexts, current) : undefined;
  if (contextProblem !== undefined) return E.left(contextProblem);
  return E.right(JSON.stringify(config));
}

/** The fields of a context client-node reads as `value || undefined`, and what each names. */
const DROPPED_CONTEXT_FIELDS = [
  ['user', "a user's name", 'no user (every request went anonymous)'],
  ['namespace', 'a namespace', 'no namespace (the command used "default")'],
] as const;

/**
 * Why context `name` of a kubeconfig as written (`contexts`, the parsed list, before
 * client-node loads it) cannot be used, if it cannot, as a phrase naming the field
 * (`contexts[0].context.user of context "prod" is false, …`). client-node reads a context's
 * `user` and `namespace` as `value || undefined`, so `user: false` or `user: 0` became no user
 * and every request went anonymous, and `namespace: 0` the `default` namespace; kubectl
 * refuses both as the wrong type. The first context of that name is the one used. `quote`
 * renders a name.
 */
export function contextFieldProblem(
  contexts: unknown,
  name: string,
  quote: (text: string) => string = JSON.stringify,
): string | undefined {
  if (!Array.isArray(contexts)) return undefined;
  const i = contexts.findIndex((c) => isPlainObject(c) && c.name === name);
  const context = i < 0 ? undefined : (contexts[i] as Record<string, unknown>).context;
  if (!isPlainObject(context)) return undefined;
  for (const [field, expected, taken] of DROPPED_CONTEXT_FIELDS) {
    const value = context[field];
    // (other values client-node keeps as they are, and they are refused once loaded)
    if (value === undefined || value === null || typeof value === 'string' || value) continue;
    return `contexts[${i}].context.${field} of context ${quote(name)} is ${String(value)} (${yamlTypeName(value)}), not ${expected}: client-node took it as ${taken}`;
  }
  return undefined;
}

/**
 * Why a kubeconfig's server URL cannot be used (undefined: it can), as a phrase about the
 * cluster ("its server …"). fetch refuses a URL with a user name or password by quoting it
 * whole, password and all, into the error every request then fails with, so such a URL is
 * never shown; one that is no http(s) URL (`ftp://…`, a bare `host:6443`) failed each request
 * with client-node's "You need to define an absolute base url". `quote` renders the URL.
 */
export function serverUrlProblem(
  server: string,
  quote: (text: string) => string = JSON.stringify,
): string | undefined {
  const url = URL.parse(server);
  if (url === null && server.includes('@'))
    return 'its server is not a URL (not shown: it may hold a password)';
  if (url !== null && (url.username !== '' || url.password !== ''))
    return 'its server URL holds a user name or password (not shown); give them in the kubeconfig user instead';
  if (url === null || (url.protocol !== 'https:' && url.protocol !== 'http:'))
    return `its server ${quote(server)} is not an https:// (or http://) URL`;
  return undefined;
}

/** What `currentUserProblem` reads of a KubeConfig (client-node's, or one like it). */
export interface KubeConfigContexts {
  getCurrentContext(): string;
  getContextObject(name: string): { readonly user?: unknown } | null;
  getUser(name: string): unknown;
}

/**
 * Why the current context's user cannot be used (undefined: it can), as a phrase ("context
 * "prod" names user "ghost", which is not in users"). client-node takes a user the context
 * names but `users` lacks as no user at all, and sent every request anonymously; client-go's
 * kubeconfig validation refuses it ("user %q was not found for context %q"), and so does this.
 * A context that names no user (no `user`, or an empty one) is anonymous on purpose, as in
 * kubectl. `quote` renders a name.
 */
export function currentUserProblem(
  config: KubeConfigContexts,
  quote: (text: string) => string = JSON.stringify,
): string | undefined {
  const name = config.getCurrentContext();
  const user = name ? config.getContextObject(name)?.user : undefined;
  if (user === undefined || user === null || user === '') return undefined;
  if (typeof user !== 'string')
    return `context ${quote(name)} names its user with ${yamlTypeName(user)}, not a user's name`;
  if (config.getUser(user) !== null) return undefined;
  return `context ${quote(name)} names user ${quote(user)}, which is not in users`;
}
