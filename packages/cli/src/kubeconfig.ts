import { statSync } from 'node:fs';
import { delimiter, dirname, join, resolve } from 'node:path';
import type { serverUrlProblem } from '@capi-kit/client';
import { yamlTypeName } from '@capi-kit/core/objects';
import type { KubeConfig, RequestContext } from '@kubernetes/client-node';
import { parse as parseYaml } from 'yaml';
import { CliError, UsageError } from './exit-codes.js';
import {
  type CliIO,
  InputFileError,
  MAX_INPUT_BYTES,
  readFileBoundedSync,
  readRegularFileBoundedSync,
  utf8Text,
} from './io.js';
import { jsonText, printable, shortened } from './text.js';

/** A kubeconfig that cannot be used: the CLI reports it as a cluster error (exit 3). */
export class KubeconfigError extends CliError<
  'no-kubeconfig' | 'kubeconfig-unreadable' | 'kubeconfig-empty' | 'kubeconfig-invalid' | 'no-current-cluster'
> {
  override readonly name = 'KubeconfigError';
}

function exists(path: string): boolean {
  try {
    statSync(path);
    return true;
  } catch {
    return false;
  }
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/**
 * The kubeconfig files kubectl would read: the KUBECONFIG list without entries that do not
 * exist (kubectl tolerates them; one that exists but is no file, a directory say, is an
 * error, as in kubectl), else ~/.kube/config.
 */
function kubeconfigFiles(io: CliIO): string[] {
  const list = io.env.KUBECONFIG;
  if (list !== undefined && list !== '') {
    const entries = list.split(delimiter).filter((f) => f !== '');
    const files = entries.filter(exists);
    if (files.length === 0) {
      throw new KubeconfigError(
        'no-kubeconfig',
        `no kubeconfig: none of the KUBECONFIG entries is a readable file (${entries.join(', ')})`,
      );
    }
    return files;
  }
  const home = io.env.HOME ?? io.env.USERPROFILE;
  const file = home === undefined ? undefined : join(home, '.kube', 'config');
  if (file === undefined || !isFile(file)) {
    throw new KubeconfigError(
      'no-kubeconfig',
      `no kubeconfig: set KUBECONFIG or create ${file ?? '~/.kube/config'}`,
    );
  }
  return [file];
}

/**
 * Merges a later KUBECONFIG file into the earlier ones the way kubectl does: the first file
 * that names a cluster, user or context (or sets current-context) wins, and later definitions
 * of the same name are ignored. (client-node's `mergeConfig` throws on a second definition,
 * which two kubeadm files sharing `kubernetes-admin` always have, and lets the last file's
 * current-context win.)
 */
function mergeFirstWins(into: KubeConfig, from: KubeConfig): void {
  // (client-node leaves it undefined when a file sets none, whatever its type says)
  if (!into.getCurrentContext()) into.setCurrentContext(from.getCurrentContext());
  const clusters = new Set(into.getClusters().map((c) => c.name));
  for (const cluster of from.getClusters()) if (!clusters.has(cluster.name)) into.addCluster(cluster);
  const users = new Set(into.getUsers().map((u) => u.name));
  for (const user of from.getUsers()) if (!users.has(user.name)) into.addUser(user);
  const contexts = new Set(into.getContexts().map((c) => c.name));
  for (const context of from.getContexts()) if (!contexts.has(context.name)) into.addContext(context);
}

/** How long one API request may go unanswered, unless `CAPI_KIT_REQUEST_TIMEOUT_SECONDS` says otherwise. */
export const DEFAULT_REQUEST_TIMEOUT_SECONDS = 60;

/** `CAPI_KIT_REQUEST_TIMEOUT_SECONDS` (1..3600), else the default; in milliseconds. */
export function requestTimeoutMs(io: CliIO): number {
  const text = io.env.CAPI_KIT_REQUEST_TIMEOUT_SECONDS;
  if (text === undefined || text === '') return DEFAULT_REQUEST_TIMEOUT_SECONDS * 1000;
  const seconds = /^\d{1,4}$/.test(text) ? Number(text) : Number.NaN;
  if (!(seconds >= 1 && seconds <= 3600)) {
    throw new UsageError(
      `CAPI_KIT_REQUEST_TIMEOUT_SECONDS must be 1..3600 (whole seconds; got ${JSON.stringify(text)})`,
    );
  }
  return seconds * 1000;
}

/**
 * A KubeConfig whose API clients give up on a request the server does not answer within
 * `timeoutMs`. A server that accepts the connection and then says nothing (hung, or a proxy
 * in front of a dead one) would otherwise hold `get`, `describe`, `autoscaler` and `migrate`
 * forever. Every API client is made from the KubeConfig and has it authenticate each
 * request, so that is where the deadline goes. Watches are not API-client requests (client-
 * node's Watch signs its own), so they stay open as long as the server keeps them; a
 * request that sets its own signal afterwards (the lease client's middleware) keeps it.
 */
function kubeConfigWithRequestTimeout(Base: typeof KubeConfig, timeoutMs: number): KubeConfig {
  class TimedKubeConfig extends Base {
    override async applySecurityAuthentication(context: RequestContext): Promise<void> {
      await credentialsWithin(this, super.applySecurityAuthentication(context), timeoutMs);
      if (context.getSignal() === undefined) context.setSignal(AbortSignal.timeout(timeoutMs));
    }
  }
  return new TimedKubeConfig();
}

/** A credential plugin that failed or did not answer in time: the API request is not sent. */
export class CredentialPluginError extends Error {
  override readonly name = 'CredentialPluginError';
}

/**
 * `signing` (client-node's authentication of one request, which runs the user's `exec`
 * credential plugin) within `timeoutMs`, its failure said plainly: a plugin that never exits
 * held every command forever, and one that failed silently left the message empty
 * ("no answer from the API server: ").
 */
async function credentialsWithin(
  config: KubeConfig,
  signing: Promise<void>,
  timeoutMs: number,
): Promise<void> {
  const command = config.getCurrentUser()?.exec?.command;
  if (command === undefined) return signing;
  const plugin = `the kubeconfig's credential plugin (${printable(String(command))})`;
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new CredentialPluginError(`${plugin} gave no credentials within ${timeoutMs / 1000} s`)),
      timeoutMs,
    );
  });
  try {
    await Promise.race([signing, deadline]);
  } catch (error) {
    if (error instanceof CredentialPluginError) throw error;
    const said = error instanceof Error ? error.message.trim() : '';
    throw new CredentialPluginError(
      `${plugin} failed${said === '' ? ' without a message' : `: ${printable(said)}`}`,
    );
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Go's net/http refuses a header value with a control character other than tab, so kubectl
 * never sends such a token; fetch refuses CR, LF and NUL with an error that quotes the whole
 * header, token and all, into the message capi-kit prints.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: the control characters are what it finds
const NOT_A_HEADER_VALUE = /[\u0000-\u0008\u000a-\u001f\u007f]/;

/**
 * The most bytes of a file a kubeconfig names that capi-kit reads (`certificate-authority`,
 * `client-certificate`, `client-key`, `tokenFile`/`token-file`): 1 MiB. Each is read whole,
 * and a kubeconfig is untrusted input: one naming /dev/zero, a FIFO fed forever or a file of
 * gigabytes was read until the process ran out of memory. Real ones are far smaller: a PEM
 * certificate is 1-2 KiB, so a bundle of several hundred CAs stays well under 1 MiB, and a
 * token is sent in a header, which the API server (Go's net/http) refuses past 1 MiB anyway.
 */
const MAX_CREDENTIAL_FILE_BYTES = 1024 * 1024;

/**
 * What the file at `path` that `field` of `owner` names (`kubeconfig user "u"`, `client-key`)
 * holds, or why it cannot be used: it is missing or unreadable, no regular file (a directory, a
 * FIFO, /dev/zero: they were read forever), or past `MAX_CREDENTIAL_FILE_BYTES` (`what` names
 * such a file in that message: `a key file`). `shown` is the path as the message names it (as
 * written in the kubeconfig).
 */
function credentialFile(
  owner: string,
  field: string,
  what: string,
  path: string,
  shown = path,
): { readonly bytes: Buffer } | { readonly problem: string } {
  const named = `${owner}: ${field} ${printable(shown)}`;
  const notReadable = () => new Error(`${named} is not a readable regular file`);
  const refusals = {
    notRegular: notReadable,
    tooLarge: () => kubeconfigTooLarge(named, what, MAX_CREDENTIAL_FILE_BYTES),
  };
  try {
    return { bytes: readRegularFileBoundedSync(path, refusals, MAX_CREDENTIAL_FILE_BYTES) };
  } catch (error) {
    if (error instanceof KubeconfigError) return { problem: error.message };
    return { problem: notReadable().message };
  }
}

/**
 * Why the current cluster's and user's credentials cannot be used (undefined: they can),
 * checked before any request: a server URL that holds a password or is no http(s) URL
 * (`serverUrlProblem`), a token that cannot be sent (never quoted), and certificate, key or
 * CA files that cannot be read (`credentialFile`: not regular files, or past
 * `MAX_CREDENTIAL_FILE_BYTES`). Those files are read here, once, bounded, and what they hold
 * is put in the config as data (`caData`, `certData`, `keyData`) in their place: client-node
 * read each file whole, unbounded, on every request, so a file that grew after a check was
 * read without limit. (client-go too reads them once, when the client is made.)
 */
function credentialProblem(config: KubeConfig, serverProblem: typeof serverUrlProblem): string | undefined {
  const user = config.getCurrentUser() as Record<string, unknown> | null;
  const cluster = config.getCurrentCluster() as
    | (Record<string, unknown> & { name: string; server: string })
    | null;
  const server =
    cluster === null ? undefined : serverProblem(cluster.server, (text) => jsonText(shortened(text)));
  if (server !== undefined) return `kubeconfig cluster ${jsonText(cluster?.name ?? '')}: ${server}`;
  const who = `kubeconfig user ${jsonText(typeof user?.name === 'string' ? user.name : '')}`;
  if (typeof user?.token === 'string' && NOT_A_HEADER_VALUE.test(user.token))
    return `${who}: its token holds a control character, so it cannot be sent in an HTTP header`;
  // [whose, its name, field, what the file is, the file's key, the data's key]
  const clusterName = `kubeconfig cluster ${jsonText(cluster?.name ?? '')}`;
  const files = [
    [cluster, clusterName, 'certificate-authority', 'a CA file', 'caFile', 'caData'],
    [user, who, 'client-certificate', 'a certificate file', 'certFile', 'certData'],
    [user, who, 'client-key', 'a key file', 'keyFile', 'keyData'],
  ] as const;
  const read: [Record<string, unknown>, string, string, Buffer][] = [];
  for (const [entry, owner, field, what, fileKey, dataKey] of files) {
    const path = entry?.[fileKey];
    if (entry === null || typeof path !== 'string' || path === '') continue;
    const file = credentialFile(owner, field, what, path);
    if ('problem' in file) return file.problem;
    read.push([entry, fileKey, dataKey, file.bytes]);
  }
  // (client-node prefers a file to data beside it: so does this)
  for (const [entry, fileKey, dataKey, bytes] of read) {
    entry[dataKey] = bytes.toString('base64');
    entry[fileKey] = undefined;
  }
  return undefined;
}

/** The top-level fields client-node reads, and what it silently takes for each of another type. */
const LIST_FIELDS = ['clusters', 'contexts', 'users'] as const;

/**
 * Why a parsed kubeconfig does not have a kubeconfig's shape, if it does not. client-node
 * takes `clusters: 5` (or a file that is one string) as no clusters, and a current-context
 * that is not text as naming none, so such a file used to be reported as "no current
 * cluster"; kubectl refuses it as the wrong type, and so does this.
 */
function shapeProblem(document: unknown, path: string): string | undefined {
  if (document === null || typeof document !== 'object' || Array.isArray(document))
    return `kubeconfig ${path} is ${yamlTypeName(document)}, not a mapping of clusters, contexts and users`;
  const config = document as Record<string, unknown>;
  for (const field of LIST_FIELDS) {
    const value = config[field];
    if (value !== undefined && value !== null && !Array.isArray(value))
      return `kubeconfig ${path}: ${field} is ${yamlTypeName(value)}, not a list`;
  }
  const current = config['current-context'];
  if (current !== undefined && current !== null && typeof current !== 'string')
    return `kubeconfig ${path}: current-context is ${yamlTypeName(current)}, not a context's name`;
  return undefined;
}

/** A user's token file: the token it holds, or why it cannot be read (said if the user is used). */
type TokenFile = { readonly token: string } | { readonly problem: string };

/**
 * The token file of each user that names one, as kubectl reads it: `tokenFile` (client-node
 * reads only `token-file`, so a kubectl kubeconfig's token went unsent and every request was
 * anonymous), else client-node's `token-file`, relative to the kubeconfig's directory. Each
 * must be a regular file of at most `MAX_CREDENTIAL_FILE_BYTES` (`credentialFile`). A bad one
 * is an error only for the user the command runs as, as in kubectl (client-node no longer sees
 * `token-file`: see withoutTokenFileFields).
 */
function tokenFilesOf(users: unknown, directory: string): Map<string, TokenFile> {
  const files = new Map<string, TokenFile>();
  if (!Array.isArray(users)) return files;
  for (const entry of users as { name?: unknown; user?: { tokenFile?: unknown; 'token-file'?: unknown } }[]) {
    const named = entry?.user?.tokenFile ?? entry?.user?.['token-file'];
    if (typeof named !== 'string' || named === '' || typeof entry.name !== 'string') continue;
    if (files.has(entry.name)) continue;
    const owner = `kubeconfig user ${jsonText(entry.name)}`;
    const file = credentialFile(owner, 'tokenFile', 'a token file', resolve(directory, named), named);
    // (client-go reads the file's token with its white space trimmed, and prefers it to `token`)
    files.set(entry.name, 'problem' in file ? file : { token: file.bytes.toString('utf8').trim() });
  }
  return files;
}

/**
 * Adds each cluster's `insecure-skip-tls-verify` as written to `into`, by name, unless an
 * earlier file or entry named the cluster (it wins, as merged). kubectl's YAML 1.1 reader
 * takes `yes`, `on` and `y` as true; this YAML 1.2 reader takes them as text, which
 * client-node took as false: it verified the TLS kubectl skips. So a value that is neither
 * true nor false (nor null) is refused for the cluster the command uses (`insecureProblem`).
 */
function addInsecureSkipTlsVerify(clusters: unknown, into: Map<string, unknown>): void {
  if (!Array.isArray(clusters)) return;
  for (const entry of clusters as { name?: unknown; cluster?: unknown }[]) {
    const name = entry?.name;
    if (typeof name !== 'string' || into.has(name)) continue;
    const cluster = entry.cluster;
    into.set(
      name,
      typeof cluster === 'object' && cluster !== null
        ? (cluster as Record<string, unknown>)['insecure-skip-tls-verify']
        : undefined,
    );
  }
}

/** Records `path` as where each context of `contexts` (a file's, as written) is defined, unless an earlier file defined it. */
function addContextSources(
  contexts: unknown,
  path: string,
  into: Map<string, { path: string; contexts: unknown[] }>,
): void {
  if (!Array.isArray(contexts)) return;
  for (const entry of contexts as { name?: unknown }[]) {
    const name = entry?.name;
    if (typeof name === 'string' && !into.has(name)) into.set(name, { path, contexts });
  }
}

/** Why a cluster's `insecure-skip-tls-verify` of `value` (neither true nor false) is refused. */
function insecureProblem(cluster: string, value: unknown): string {
  const quoted = (text: string) => jsonText(shortened(text));
  const what = typeof value === 'string' ? quoted(value) : yamlTypeName(value);
  return `kubeconfig cluster ${quoted(cluster)}: insecure-skip-tls-verify is ${what}, not true or false (YAML 1.1, which kubectl reads, took yes, no, on and off as booleans; YAML 1.2 does not: write true or false)`;
}

/** The fields of a context that name something and that client-node keeps whatever their type. */
const CONTEXT_NAME_FIELDS = [
  ['cluster', "a cluster's name"],
  ['namespace', 'a namespace'],
] as const;

/**
 * Why the context `name` of a file's `contexts` (as written) names its cluster or namespace
 * with something other than text, if it does. client-node keeps a `namespace: 5` or a
 * `cluster: 5` as it is: the namespace was then refused as "namespace 5 is not a valid
 * namespace" (a `[x]` as a usage error, exit 2), and the cluster as "names cluster 5, which
 * is not defined" even beside a cluster named "5", without saying the value is a number.
 */
function contextTypeProblem(contexts: unknown[], name: string): string | undefined {
  const i = contexts.findIndex(
    (c) => typeof c === 'object' && c !== null && (c as { name?: unknown }).name === name,
  );
  const context = i < 0 ? undefined : (contexts[i] as { context?: unknown }).context;
  if (typeof context !== 'object' || context === null) return undefined;
  for (const [field, expected] of CONTEXT_NAME_FIELDS) {
    const value = (context as Record<string, unknown>)[field];
    if (value === undefined || value === null || typeof value === 'string') continue;
    // (a `namespace: 0` or `false`, which client-node drops, is contextFieldProblem's to say)
    if (field === 'namespace' && !value) continue;
    const shown =
      typeof value === 'object'
        ? yamlTypeName(value)
        : `${printable(shortened(String(value)))} (${yamlTypeName(value)})`;
    return `contexts[${i}].context.${field} of context ${jsonText(name)} is ${shown}, not ${expected}`;
  }
  return undefined;
}

/**
 * Why a loaded kubeconfig has no current cluster, as kubectl says it: a current-context or
 * a context's cluster naming one that is not defined (a typo) was told only to "set a current
 * context with a cluster".
 */
function noClusterReason(config: KubeConfig): string {
  const current = config.getCurrentContext();
  if (!current) return 'set a current context with a cluster';
  const quoted = (name: string) => jsonText(name);
  const context = config.getContextObject(current);
  if (context === null) return `current-context ${quoted(current)} names no context`;
  return `context ${quoted(current)} names cluster ${quoted(context.cluster)}, which is not defined`;
}

/**
 * The kubeconfig without its users' `token-file`, for client-node's loader. The token files are
 * read here (relative to the kubeconfig, regular files only); client-node read `token-file`
 * again while loading, relative to the working directory, and unchecked when a `tokenFile`
 * stood beside it (`token-file: /dev/zero` held the command forever).
 */
function withoutTokenFileFields(document: object): object {
  const { users } = document as { users?: unknown };
  if (!Array.isArray(users)) return document;
  const withoutField = (entry: unknown) => {
    const user = (entry as { user?: unknown } | null)?.user;
    if (typeof user !== 'object' || user === null || !('token-file' in user)) return entry;
    const { 'token-file': _read, ...rest } = user as Record<string, unknown>;
    return { ...(entry as object), user: rest };
  };
  return { ...document, users: users.map(withoutField) };
}

/** The YAML text's value, or why it is not YAML (the first line of the parser's message: where). */
function yamlDocument(text: string): { parsed: true; value: unknown } | { parsed: false; reason: string } {
  try {
    return { parsed: true, value: parseYaml(text) };
  } catch (error) {
    const line = error instanceof Error ? (error.message.split('\n')[0] ?? '') : String(error);
    return { parsed: false, reason: line.replace(/:$/, '') };
  }
}

function kubeconfigTooLarge(name: string, what = 'a kubeconfig', limit = MAX_INPUT_BYTES): KubeconfigError {
  return new KubeconfigError(
    'kubeconfig-invalid',
    `${name}: more than ${limit / (1024 * 1024)} MiB; capi-kit reads ${what} whole`,
  );
}

/**
 * The kubeconfig file's text, refusing bytes that are not UTF-8 (with where) as kubectl
 * does: they were read as U+FFFD, so a file of binary bytes was "a string, not a mapping",
 * and a token or name with such a byte was silently another. A file past `MAX_INPUT_BYTES`
 * is refused before it is read (a kubeconfig is read whole).
 */
function kubeconfigText(path: string): string {
  try {
    return utf8Text(
      readFileBoundedSync(path, () => kubeconfigTooLarge(`kubeconfig ${path}`)),
      path,
    );
  } catch (error) {
    if (!(error instanceof InputFileError)) throw error;
    throw new KubeconfigError('kubeconfig-invalid', `kubeconfig ${error.message}`);
  }
}

/**
 * Loads the kubeconfig as kubectl would (or `file`, from `--kubeconfig`), with one clear
 * error for each way it can be unusable: missing, a directory, empty, not a kubeconfig,
 * without a current cluster, or with a current context naming a user that is not defined.
 * `context` (`--context`) is the current context instead of the file's, and is what is
 * checked: it was set after the checks, so its user, cluster and credentials went unchecked.
 */
export async function loadKubeConfig(io: CliIO, file?: string, context?: string): Promise<KubeConfig> {
  const timeoutMs = requestTimeoutMs(io);
  const { KubeConfig } = await import('@kubernetes/client-node');
  const files = file === undefined ? kubeconfigFiles(io) : [file];
  const kubeConfig = kubeConfigWithRequestTimeout(KubeConfig, timeoutMs);
  // Users whose tokenFile cannot be read, by name (the first definition, as merged)
  const unreadableTokenFiles = new Map<string, string>();
  // Each cluster's insecure-skip-tls-verify as written, by name (the first definition, as merged)
  const insecureSkipTlsVerify = new Map<string, unknown>();
  // Each context's file and that file's contexts as written, by name (the first definition, as merged)
  const contextSources = new Map<string, { path: string; contexts: unknown[] }>();
  for (const [index, path] of files.entries()) {
    if (!isFile(path))
      throw new KubeconfigError(
        'kubeconfig-unreadable',
        `cannot read kubeconfig ${path}: not a readable file`,
      );
    const text = kubeconfigText(path);
    if (text.trim() === '') throw new KubeconfigError('kubeconfig-empty', `kubeconfig ${path} is empty`);
    const document = yamlDocument(text);
    if (!document.parsed)
      throw new KubeconfigError('kubeconfig-invalid', `cannot load kubeconfig ${path}: ${document.reason}`);
    const problem = shapeProblem(document.value, path);
    if (problem !== undefined) throw new KubeconfigError('kubeconfig-invalid', problem);
    const tokenFiles = tokenFilesOf((document.value as { users?: unknown }).users, dirname(path));
    addInsecureSkipTlsVerify((document.value as { clusters?: unknown }).clusters, insecureSkipTlsVerify);
    addContextSources((document.value as { contexts?: unknown }).contexts, path, contextSources);
    const one = index === 0 ? kubeConfig : new KubeConfig();
    try {
      // client-node loads the value checked here, not the file's text again: its YAML parser
      // accepts what this one refuses (more than 100 aliases), and such a file skipped the
      // checks, so a token-file of /dev/zero was read forever while loading. The token files
      // are read below.
      one.loadFromString(JSON.stringify(withoutTokenFileFields(document.value as object)));
      one.makePathsAbsolute(dirname(path));
    } catch (error) {
      const reason = error instanceof Error ? error.message.split('\n')[0] : String(error);
      throw new KubeconfigError('kubeconfig-invalid', `cannot load kubeconfig ${path}: ${reason}`);
    }
    for (const user of one.getUsers()) {
      const file = tokenFiles.get(user.name);
      if (file !== undefined && 'token' in file) (user as { token?: string }).token = file.token;
      else if (file !== undefined && !unreadableTokenFiles.has(user.name))
        unreadableTokenFiles.set(user.name, file.problem);
    }
    if (one !== kubeConfig) mergeFirstWins(kubeConfig, one);
  }
  if (context !== undefined) {
    if (kubeConfig.getContextObject(context) === null) {
      const known = kubeConfig.getContexts().map((c) => c.name);
      throw new KubeconfigError(
        'no-current-cluster',
        `no context ${JSON.stringify(context)} in the kubeconfig (contexts: ${known.join(', ') || 'none'})`,
      );
    }
    kubeConfig.setCurrentContext(context);
  }
  const currentContextName = kubeConfig.getCurrentContext();
  const written = currentContextName ? contextSources.get(currentContextName) : undefined;
  const typeProblem = written && contextTypeProblem(written.contexts, currentContextName);
  if (written !== undefined && typeProblem)
    throw new KubeconfigError('kubeconfig-invalid', `kubeconfig ${written.path}: ${typeProblem}`);
  const tokenFileProblem = unreadableTokenFiles.get(kubeConfig.getCurrentUser()?.name ?? '');
  if (tokenFileProblem !== undefined) throw new KubeconfigError('kubeconfig-unreadable', tokenFileProblem);
  if (kubeConfig.getCurrentCluster() === null) {
    throw new KubeconfigError(
      'no-current-cluster',
      `no current cluster in the kubeconfig (${files.join(', ')}): ${noClusterReason(kubeConfig)}`,
    );
  }
  const current = kubeConfig.getCurrentCluster()?.name ?? '';
  const insecure = insecureSkipTlsVerify.get(current);
  if (insecure !== undefined && insecure !== null && typeof insecure !== 'boolean')
    throw new KubeconfigError('kubeconfig-invalid', insecureProblem(current, insecure));
  // (loaded with the command: start-up loads no client code — see cluster-client.ts)
  const { contextFieldProblem, currentUserProblem, serverUrlProblem } = await import('@capi-kit/client');
  // (client-node took a context's `user: false` or `0` as no user, and `namespace: 0` as none)
  const currentContext = kubeConfig.getCurrentContext();
  const source = currentContext ? contextSources.get(currentContext) : undefined;
  const fieldProblem =
    source === undefined
      ? undefined
      : contextFieldProblem(source.contexts, currentContext, (text) => jsonText(shortened(text)));
  if (source !== undefined && fieldProblem !== undefined)
    throw new KubeconfigError('kubeconfig-invalid', `kubeconfig ${source.path}: ${fieldProblem}`);
  // (client-node took a user the context names but users lacks as none: every request went anonymous)
  const userProblem = currentUserProblem(kubeConfig, (text) => jsonText(shortened(text)));
  if (userProblem !== undefined)
    throw new KubeconfigError('kubeconfig-invalid', `kubeconfig ${files.join(', ')}: ${userProblem}`);
  const problem = credentialProblem(kubeConfig, serverUrlProblem);
  if (problem !== undefined) throw new KubeconfigError('kubeconfig-invalid', problem);
  return kubeConfig;
}
