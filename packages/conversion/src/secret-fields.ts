import * as E from 'fp-ts/lib/Either.js';
import type { ConversionFailure } from './errors.js';
import { isSecret, namedAfter, outOfStash, providerSpecValuePath, type SecretData } from './key-pairs.js';
import type { KindTable } from './kind-table.js';
import { formatPath, getPath, isObject, isPrefix, type JsonObject, setPath } from './path.js';
import type { PluginOutput } from './plugins.js';
import type { SecretFieldRecord, StashEntry } from './stash.js';
import type { StashRefusal } from './stash-rules.js';
import { type Direction, V1ALPHA1 } from './versions.js';

export type { SecretFieldRecord } from './stash.js';

/**
 * Credentials stay out of the stash. A v1alpha1 vSphere Cluster kept the vCenter user and
 * password in its providerSpec; v1alpha2 has no field for them (CAPV v0.5 reads its manager's),
 * so only the way back needs them. An annotation is read by whoever may read Clusters and is
 * printed by `convert` and `migrate plan`, so the plug-in puts such fields into a Secret it makes
 * (`credentialsSecret` in plugin-helpers.ts) and the stash names that Secret instead.
 *
 * A password has no public half to check a Secret against, as a key pair's certificate is. So
 * the Secret records the object it was made for (`STASHED_FOR_DATA_KEY`), and the way down
 * reads only such a Secret, only the field's own data key, only into a key of the providerSpec
 * value. A record forged into the stash cannot pull another Secret (`<cluster>-kubeconfig`, an
 * application's password) into the object.
 */

/** The data key of such a Secret naming the object it was made for (base64 of its name). */
export const STASHED_FOR_DATA_KEY = 'conversion.capi-kit.dev-for';

/** Whether character code `c` is one of base64's 64 digits (A-Z, a-z, 0-9, +, /). */
function isBase64Digit(c: number): boolean {
  return (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || (c >= 48 && c <= 57) || c === 43 || c === 47;
}

/**
 * Whether `value` is base64 as Kubernetes writes Secret data: groups of four digits, the last
 * group padded with at most two `=`, and nothing else. A scan, not a regular expression: V8's
 * backtracking throws on a repeated group millions of characters long, and a Secret's data is
 * whatever its writer put there.
 */
function isBase64(value: string): boolean {
  if (value.length % 4 !== 0) return false;
  let padding = 0;
  if (value.endsWith('==')) padding = 2;
  else if (value.endsWith('=')) padding = 1;
  for (let i = 0; i < value.length - padding; i++) if (!isBase64Digit(value.charCodeAt(i))) return false;
  return true;
}
// (fatal: bytes that are not UTF-8 are refused, not replaced; ignoreBOM: a leading U+FEFF is kept)
const UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** Secret data for `text`. Only well-formed text (no lone surrogate) has an exact encoding. */
export function toBase64(text: string): string {
  return Buffer.from(text, 'utf8').toString('base64');
}

/** The text that Secret data `value` holds, or undefined when it is not canonical base64 of UTF-8. */
export function fromBase64(value: unknown): string | undefined {
  if (typeof value !== 'string' || !isBase64(value)) return undefined;
  const bytes = Buffer.from(value, 'base64');
  if (bytes.toString('base64') !== value) return undefined;
  try {
    return UTF8.decode(bytes);
  } catch {
    return undefined;
  }
}

function own(data: Readonly<Record<string, unknown>>, key: string): unknown {
  return Object.hasOwn(data, key) ? data[key] : undefined;
}

/** The name of the object a Secret's `data` says the conversion made it for, if it says so. */
export function stashedFor(data: unknown): string | undefined {
  return isObject(data) ? fromBase64(own(data, STASHED_FOR_DATA_KEY)) : undefined;
}

/** Whether `data` is that of a Secret the conversion made for the object named `name`. */
function madeFor(data: Readonly<Record<string, unknown>>, name: string | undefined): boolean {
  return name !== undefined && stashedFor(data) === name;
}

/** Whether Secret `data` was made for the object named `name` and holds `value` as `field`. */
export function secretHolds(
  data: Readonly<Record<string, unknown>> | undefined,
  field: string,
  value: unknown,
  name: string | undefined,
): boolean {
  return data !== undefined && madeFor(data, name) && fromBase64(own(data, field)) === value;
}

/**
 * Going up: the records for a plug-in's `secretFields` claims, each checked against what the
 * plug-in made (a Secret of that name, in the object's namespace, made for it, holding the
 * field's value). Left: why a claim does not hold, as the plug-in's refusal.
 */
export function claimedSecretFields(
  output: PluginOutput,
  providerSpec: JsonObject,
  table: KindTable,
  owner: { readonly name: string; readonly namespace?: string },
): E.Either<string, SecretFieldRecord[]> {
  const records: SecretFieldRecord[] = [];
  for (const claim of output.secretFields ?? []) {
    const what = `claims ${claim.field} is kept in Secret ${claim.secret}`;
    const value = own(providerSpec, claim.field);
    if (typeof value !== 'string') return E.left(`${what}, but ${claim.field} is not a text field`);
    if (!namedAfter(claim.secret, owner.name))
      return E.left(`${what}, which is not named ${owner.name}-<suffix>`);
    const made = output.objects.find((o) => isSecret(o, claim.secret, owner.namespace));
    const data = made !== undefined && isObject(made.data) ? made.data : undefined;
    if (!secretHolds(data, claim.field, value, owner.name))
      return E.left(`${what}, but made no such Secret holding it for ${owner.name}`);
    records.push({ path: [...providerSpecValuePath(table), claim.field], secret: claim.secret });
  }
  return E.right(records);
}

/** Going up: the stash entries without the values of `records` (`outOfStash`). */
export function secretFieldsOutOfStash(
  entries: readonly StashEntry[],
  records: readonly SecretFieldRecord[],
): { entries: StashEntry[]; records: SecretFieldRecord[] } {
  return outOfStash(entries, records, (record) => record.path);
}

/**
 * Why a stash's secret-field records may not be read back (undefined: they may, or there are
 * none): as for key pairs (`checkKeyPairRecords`), only going down from v1alpha2 (`at`; a later
 * hop passes none), only a key of the providerSpec value, only Secrets named after the object.
 */
export function checkSecretFieldRecords(
  records: readonly SecretFieldRecord[] | undefined,
  at: { readonly table: KindTable; readonly direction: Direction; readonly name?: string } | undefined,
): StashRefusal | undefined {
  for (const record of records ?? []) {
    const path = formatPath(record.path);
    const refuse = (message: string): StashRefusal => ({ code: 'stash-secret-field', path, message });
    if (at === undefined || at.direction === 'up')
      return refuse(`fields kept in Secrets are restored only going down to ${V1ALPHA1}`);
    const root = providerSpecValuePath(at.table);
    if (record.path.length !== root.length + 1 || !isPrefix(root, record.path))
      return refuse(`a field kept in a Secret may only be restored as a key of ${formatPath(root)}`);
    if (!namedAfter(record.secret, at.name))
      return refuse(
        `names Secret ${JSON.stringify(record.secret)}; only Secrets named ${at.name ?? '(the object)'}-<suffix> hold its fields`,
      );
  }
  return undefined;
}

/**
 * Going down: puts each record's field back into `out` (which owns all of itself), from the
 * Secret the record names, after checking that the Secret was made for this object. Returns
 * the paths restored.
 */
export function restoreSecretFields(
  out: JsonObject,
  records: readonly SecretFieldRecord[],
  owner: { readonly name?: string; readonly namespace?: string },
  secretData: SecretData | undefined,
): E.Either<ConversionFailure, string[]> {
  const restored: string[] = [];
  for (const record of records) {
    const path = formatPath(record.path);
    const field = record.path[record.path.length - 1]!;
    const { namespace } = owner;
    const secret = namespace === undefined ? record.secret : `${namespace}/${record.secret}`;
    const parent = getPath(out, record.path.slice(0, -1));
    if (!isObject(parent) || Object.hasOwn(parent, field))
      return E.left({
        code: 'stash-secret-field',
        path,
        message: 'the stash names a Secret for this field, but put back no providerSpec value without it',
      });
    const data = secretData?.(namespace, record.secret);
    if (data === undefined)
      return E.left({
        code: 'secret-missing',
        path,
        message: `the value is kept in Secret ${secret} (${field}), not in the stash, and ${secretData === undefined ? 'no Secrets were given to read it from' : 'that Secret was not found'}; convert it together with the Secret`,
      });
    if (!madeFor(data, owner.name))
      return E.left({
        code: 'secret-field-mismatch',
        path,
        message: `Secret ${secret} was not made for ${owner.name ?? 'this object'} by the conversion (its ${STASHED_FOR_DATA_KEY} does not name it), so its data is not read`,
      });
    const value = fromBase64(own(data, field));
    if (value === undefined)
      return E.left({
        code: 'secret-field-mismatch',
        path,
        message: `Secret ${secret} holds no ${field} as base64 of UTF-8 text`,
      });
    setPath(out, record.path, value);
    restored.push(path);
  }
  return E.right(restored);
}
