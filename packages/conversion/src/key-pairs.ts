import * as E from 'fp-ts/lib/Either.js';
import type { ConversionFailure } from './errors.js';
import type { KindTable } from './kind-table.js';
import {
  dotted,
  formatPath,
  getPath,
  isObject,
  isPrefix,
  type Json,
  type JsonObject,
  setPath,
} from './path.js';
import type { PluginOutput } from './plugins.js';
import type { KeyPairRecord, StashEntry } from './stash.js';
import type { StashRefusal } from './stash-rules.js';
import { type Direction, V1ALPHA1 } from './versions.js';

export type { KeyPairRecord } from './stash.js';

/**
 * Private keys stay out of the stash. A v1alpha1 Cluster kept its certificate key pairs
 * (`caKeyPair: {cert, key}`, …) in its providerSpec; v1alpha2 reads them from Secrets
 * (`<cluster>-ca`, data `tls.crt` / `tls.key`) that the plug-in makes. The stash keeps the
 * rest of the providerSpec for the way back, but not the keys: an annotation is read by
 * whoever may read Clusters, and lands in files, `kubectl get -o yaml` and plan output. In
 * the key's place the stash names the Secret; going down, the key is read back from that
 * Secret, which must still hold the certificate the stash kept.
 */

/** The `data` of a Secret in `namespace` (absent: the object's has none), or undefined if there is none. */
export type SecretData = (
  namespace: string | undefined,
  name: string,
) => Readonly<Record<string, unknown>> | undefined;

export const CERT_DATA_KEY = 'tls.crt';
export const KEY_DATA_KEY = 'tls.key';

/**
 * The path of a table's providerSpec value, under which key pairs may sit. (run-plugin.ts
 * caches the same path, but importing it from there would close an import cycle.)
 */
export function providerSpecValuePath(table: KindTable): string[] {
  return [...dotted(table.infrastructure.at), 'spec', 'providerSpec', 'value'];
}

/** Plug-ins name what they make after the object: a key pair's Secret is `<name>-<suffix>`. */
export function namedAfter(secret: string, name: string | undefined): boolean {
  return name !== undefined && secret.length > name.length + 1 && secret.startsWith(`${name}-`);
}

export function isSecret(object: JsonObject, name: string, namespace: string | undefined): boolean {
  if (object.apiVersion !== 'v1' || object.kind !== 'Secret' || !isObject(object.metadata)) return false;
  return object.metadata.name === name && object.metadata.namespace === namespace;
}

/**
 * Going up: the records for a plug-in's `keyPairs` claims, each checked against what the
 * plug-in made (a Secret of that name, in the object's namespace, holding the pair's own cert
 * and key). Left: why a claim does not hold, as the plug-in's refusal.
 */
export function claimedKeyPairs(
  output: PluginOutput,
  providerSpec: JsonObject,
  table: KindTable,
  owner: { readonly name: string; readonly namespace?: string },
): E.Either<string, KeyPairRecord[]> {
  const records: KeyPairRecord[] = [];
  for (const claim of output.keyPairs ?? []) {
    const field = dotted(claim.field);
    const pair = getPath(providerSpec, field);
    const what = `claims ${claim.field} is kept in Secret ${claim.secret}`;
    if (!isObject(pair) || typeof pair.cert !== 'string' || typeof pair.key !== 'string')
      return E.left(`${what}, but ${claim.field} is not a {cert, key} pair`);
    if (!namedAfter(claim.secret, owner.name))
      return E.left(`${what}, which is not named ${owner.name}-<suffix>`);
    const made = output.objects.find((o) => isSecret(o, claim.secret, owner.namespace));
    const data = made !== undefined && isObject(made.data) ? made.data : undefined;
    if (data === undefined || data[CERT_DATA_KEY] !== pair.cert || data[KEY_DATA_KEY] !== pair.key)
      return E.left(`${what}, but made no such Secret holding its cert and key`);
    records.push({ path: [...providerSpecValuePath(table), ...field], secret: claim.secret });
  }
  return E.right(records);
}

/** `value` without what lies at `rest` (copied along it: `value` may be the input's). */
function without(value: Json, rest: readonly string[]): Json {
  if (!isObject(value)) return value;
  const [head, ...tail] = rest as [string, ...string[]];
  if (!Object.hasOwn(value, head)) return value;
  const copy: JsonObject = { ...value };
  if (tail.length === 0) delete copy[head];
  else copy[head] = without(value[head]!, tail);
  return copy;
}

/**
 * Going up: the stash entries without what `records` keep in Secrets (`held(record)`: the path
 * of the value left out), and the records whose value an entry held (only those need a Secret
 * on the way back).
 */
export function outOfStash<R>(
  entries: readonly StashEntry[],
  records: readonly R[],
  held: (record: R) => readonly string[],
): { entries: StashEntry[]; records: R[] } {
  if (records.length === 0) return { entries: [...entries], records: [] };
  let out = [...entries];
  const kept: R[] = [];
  for (const record of records) {
    const key = held(record);
    let found = false;
    const next: StashEntry[] = [];
    for (const entry of out) {
      if (entry.value === undefined || !isPrefix(entry.path, key)) {
        next.push(entry);
        continue;
      }
      found = true;
      // An entry of the value alone goes; a larger one is copied without it.
      if (entry.path.length < key.length)
        next.push({ ...entry, value: without(entry.value, key.slice(entry.path.length)) });
    }
    out = next;
    if (found) kept.push(record);
  }
  return { entries: out, records: kept };
}

/** Going up: the stash entries without the private keys of `records` (`outOfStash`). */
export function keysOutOfStash(
  entries: readonly StashEntry[],
  records: readonly KeyPairRecord[],
): { entries: StashEntry[]; records: KeyPairRecord[] } {
  return outOfStash(entries, records, (record) => [...record.path, 'key']);
}

/**
 * Why a stash's key-pair records may not be read back (undefined: they may, or there are
 * none). Only the v1alpha1 ↔ v1alpha2 conversion going down reads them (`at`; a later hop
 * passes none), only under the providerSpec value, and only from Secrets named after the
 * object. A record is data from whoever could annotate the object: this and the certificate
 * check in `restoreKeys` keep it from pulling another Secret's key into the object.
 */
export function checkKeyPairRecords(
  records: readonly KeyPairRecord[] | undefined,
  at: { readonly table: KindTable; readonly direction: Direction; readonly name?: string } | undefined,
): StashRefusal | undefined {
  for (const record of records ?? []) {
    const path = formatPath(record.path);
    if (at === undefined || at.direction === 'up')
      return {
        code: 'stash-key-pair',
        path,
        message: `key pairs are restored only going down to ${V1ALPHA1}`,
      };
    const root = providerSpecValuePath(at.table);
    if (record.path.length <= root.length || !isPrefix(root, record.path))
      return {
        code: 'stash-key-pair',
        path,
        message: `a key pair may only be restored under ${formatPath(root)}`,
      };
    if (!namedAfter(record.secret, at.name))
      return {
        code: 'stash-key-pair',
        path,
        message: `names Secret ${JSON.stringify(record.secret)}; only Secrets named ${at.name ?? '(the object)'}-<suffix> hold its keys`,
      };
  }
  return undefined;
}

/**
 * Going down: puts each record's private key back into `out` (which owns all of itself),
 * from the Secret the record names, after checking that the Secret's certificate is the
 * one the stash put back. Returns the key paths restored.
 */
export function restoreKeys(
  out: JsonObject,
  records: readonly KeyPairRecord[],
  namespace: string | undefined,
  secretData: SecretData | undefined,
): E.Either<ConversionFailure, string[]> {
  const restored: string[] = [];
  for (const record of records) {
    const path = formatPath(record.path);
    const secret = namespace === undefined ? record.secret : `${namespace}/${record.secret}`;
    const pair = getPath(out, record.path);
    if (!isObject(pair) || typeof pair.cert !== 'string' || Object.hasOwn(pair, 'key'))
      return E.left({
        code: 'stash-key-pair',
        path,
        message:
          'the stash names a Secret for this key pair, but put back no pair with a cert and without a key',
      });
    const data = secretData?.(namespace, record.secret);
    if (data === undefined)
      return E.left({
        code: 'secret-missing',
        path,
        message: `the private key is kept in Secret ${secret} (${KEY_DATA_KEY}), not in the stash, and ${secretData === undefined ? 'no Secrets were given to read it from' : 'that Secret was not found'}; convert it together with the Secret`,
      });
    const key = data[KEY_DATA_KEY];
    if (data[CERT_DATA_KEY] !== pair.cert || typeof key !== 'string')
      return E.left({
        code: 'secret-key-mismatch',
        path,
        message: `Secret ${secret} does not hold the certificate the stash kept (${CERT_DATA_KEY}) with a ${KEY_DATA_KEY}; its key is not this pair's`,
      });
    setPath(out, [...record.path, 'key'], key);
    restored.push(formatPath([...record.path, 'key']));
  }
  return E.right(restored);
}
