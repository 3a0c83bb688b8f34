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
  // client-node keeps a current-context of another type as it is, and finds no context by it
  const current = config['current-context'];
  if (current !== undefined && current !== null && typeof current !== 'string')
    return E.left(`current-context is ${shown(current)}, not a context's name`);
  // Every context, not only the current one: the KubeConfig is handed to the caller, who may
  // switch to another (setCurrentContext), and that one must hold what the current one does.
  const contextProblem = everyContextProblem(config.contexts);
  if (contextProblem !== undefined) return E.left(contextProblem);
  return E.right(JSON.stringify(config));
}

/** A value of the wrong type as a message shows it: `false (a boolean)`, `a mapping`. */
const shown = (value: unknown) =>
  typeof value === 'object' && value !== null
    ? yamlTypeName(value)
    : `${String(value)} (${yamlTypeName(value)})`;

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
  return i < 0 ? undefined : droppedFieldProblem(contexts, i, quote);
}

/**
 * Why any context of a kubeconfig as written cannot be used, if one cannot: the first, as a
 * phrase naming its field (`contexts[2].context.user of context "staging" is false …`). Each
 * context's `user`, `namespace` and `cluster` must be a string (or absent): besides the
 * values client-node drops (see contextFieldProblem), it keeps a `user: true`, a `namespace:
 * 5` or a `cluster: {…}` as it is, a name of the wrong type that names nothing. For a
 * kubeconfig whose user may switch to any of its contexts later (one served by a cluster);
 * kubectl refuses such a file whole. `quote` renders a name.
 */
export function everyContextProblem(
  contexts: unknown,
  quote: (text: string) => string = JSON.stringify,
): string | undefined {
  if (!Array.isArray(contexts)) return undefined;
  for (const [i, entry] of contexts.entries()) {
    const dropped = droppedFieldProblem(contexts, i, quote);
    if (dropped !== undefined) return dropped;
    const context = isPlainObject(entry) ? entry.context : undefined;
    if (!isPlainObject(context)) continue;
    for (const [field, expected] of CONTEXT_NAME_FIELDS) {
      const value = context[field];
      if (value === undefined || value === null || typeof value === 'string') continue;
      return `${where(entry, i, field, quote)} is ${shown(value)}, not ${expected}`;
    }
  }
  return undefined;
}

/** The fields of a context that name something, and what each names. */
const CONTEXT_NAME_FIELDS = [
  ['user', "a user's name"],
  ['namespace', 'a namespace'],
  ['cluster', "a cluster's name"],
] as const;

/** `contexts[2].context.user of context "staging"` (of a context with no name: just the path). */
const where = (entry: Record<string, unknown>, i: number, field: string, quote: (text: string) => string) =>
  `contexts[${i}].context.${field}${typeof entry.name === 'string' ? ` of context ${quote(entry.name)}` : ''}`;

/** Why context `i` has a field that client-node drops as `value || undefined`, if it has. */
function droppedFieldProblem(
  contexts: readonly unknown[],
  i: number,
  quote: (text: string) => string,
): string | undefined {
  const entry = contexts[i];
  const context = isPlainObject(entry) ? entry.context : undefined;
  if (!isPlainObject(entry) || !isPlainObject(context)) return undefined;
  for (const [field, expected, taken] of DROPPED_CONTEXT_FIELDS) {
    const value = context[field];
    // (other values client-node keeps as they are, and they are refused once loaded)
    if (value === undefined || value === null || typeof value === 'string' || value) continue;
    return `${where(entry, i, field, quote)} is ${shown(value)}, not ${expected}: client-node took it as ${taken}`;
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
