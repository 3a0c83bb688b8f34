import * as E from 'fp-ts/lib/Either.js';
import { joinStack, splitStack } from './chain/stack.js';
import { isChainVersion } from './chain/versions.js';
import type { ConversionError, ConversionFailure } from './errors.js';
import { checkKeyPairRecords, type KeyPairRecord, keysOutOfStash, restoreKeys } from './key-pairs.js';
import { KIND_TABLES, type KindTable, tableStashRules } from './kind-table.js';
import { type AppliedMove, moveObject } from './moves.js';
import {
  conversionInput,
  convertListOrObject,
  convertV1List,
  type DocumentConversion,
  identity,
  type ObjectConversion,
  single,
  unchanged,
} from './object-conversion.js';
import { formatPath, getPath, isObject, type Json, type JsonObject, unshare } from './path.js';
import { isUnknownV1alpha1Phase } from './phase.js';
import type { ObjectReport } from './report.js';
import { type ConvertOptions, generatedByPlugin, missingReference, runPlugin } from './run-plugin.js';
import {
  checkSecretFieldRecords,
  restoreSecretFields,
  type SecretFieldRecord,
  secretFieldsOutOfStash,
} from './secret-fields.js';
import {
  applyStash,
  CONVERSION_DATA_ANNOTATION,
  checkWrittenStash,
  diff,
  putStash,
  type StashEntry,
  takeStash,
  withoutGenerated,
} from './stash.js';
import {
  checkEntry,
  checkGenerated,
  checkStashedAnnotations,
  partitionStashEntries,
  type StashRefusalCode,
} from './stash-rules.js';
import { tooDeepOrRethrow } from './too-deep.js';
import {
  type ApiVersion,
  apiGroup,
  type ConvertibleKind,
  type Direction,
  isConvertibleKind,
  sourceVersion,
  targetVersion,
  V1ALPHA1,
  V1ALPHA1_GROUP,
  V1ALPHA2,
  V1ALPHA2_GROUP,
} from './versions.js';

export { KIND_TABLES } from './kind-table.js';
export type { DocumentConversion, ObjectConversion } from './object-conversion.js';
export type { ConvertOptions, ResolvedMachineClass } from './run-plugin.js';

/**
 * The plain field moves of a kind, without stash or plug-ins. `share` returns an object that
 * shares untouched parts with `object` (copy-on-write): only for results that are read and
 * thrown away, never handed to a caller. Without `applied`, nothing is reported.
 */
export function coreConvert(
  object: JsonObject,
  table: KindTable,
  direction: Direction,
  applied?: AppliedMove[],
  share = false,
): JsonObject {
  return moveObject(object, table.groups, direction, targetVersion(direction), {
    applied,
    ...(share ? { owned: new Set<object>() } : {}),
  });
}

/** Checks the metadata shapes the conversion writes into, so later steps can rely on them. */
export function checkShape(object: JsonObject): ConversionFailure | undefined {
  const metadata = object.metadata;
  if (metadata === undefined) return undefined;
  if (!isObject(metadata)) return { path: 'metadata', message: 'must be an object' };
  // What `validate` refuses, convert refuses too: a YAML `name: true` or a label `on` written
  // back as a string would silently change the object's identity or selectors.
  for (const key of ['name', 'generateName', 'namespace'] as const) {
    const value = metadata[key];
    if (value !== undefined && value !== null && typeof value !== 'string') {
      return { path: `metadata.${key}`, message: `must be a string, not ${JSON.stringify(value)}` };
    }
  }
  for (const key of ['labels', 'annotations'] as const) {
    const map = metadata[key];
    if (map === undefined || map === null) continue;
    if (!isObject(map)) return { path: `metadata.${key}`, message: 'must be a map of strings' };
    // (keys, not entries: this runs on every object, and the annotations hold the stash)
    for (const k of Object.keys(map)) {
      const v = map[k];
      if (typeof v !== 'string') {
        return { path: `metadata.${key}.${k}`, message: `must be a string, not ${JSON.stringify(v)}` };
      }
    }
  }
  return undefined;
}

export function stashRefused(refusal: {
  code: StashRefusalCode;
  path: string;
  message: string;
}): ConversionFailure {
  return {
    code: refusal.code,
    path: refusal.path,
    message: `conversion stash (${CONVERSION_DATA_ANNOTATION}) refused: ${refusal.message}`,
  };
}

/** `Kind ns/name` of a generated object, for the report. */
export function describe(o: JsonObject): string {
  const { name, namespace } = identity(o);
  return `${String(o.kind)} ${namespace === undefined ? '' : `${namespace}/`}${name ?? '(unnamed)'}`;
}

/**
 * Converts one object of a convertible kind (its apiVersion already checked) in `direction`.
 * Lossless: the result carries a stash of what the target cannot express, and a stash the
 * input carried is applied and consumed.
 */
export function convertKind(
  input: JsonObject,
  kind: ConvertibleKind,
  direction: Direction,
  options: ConvertOptions = {},
): E.Either<ConversionFailure, ObjectConversion> {
  const table = KIND_TABLES[kind];
  const shape = checkShape(input);
  if (shape !== undefined) return E.left(shape);
  const taken = takeStash(input);
  if (E.isLeft(taken)) return taken;
  const { stash, rest } = taken.right;
  const from = sourceVersion(direction);
  const to = targetVersion(direction);
  const rules = tableStashRules(table);
  const id = identity(rest);
  const namespace = id.namespace;
  if (stash !== undefined) {
    // A stack of stashes, or one for a later version's way back: the chain's to unpack.
    if (stash.stacked === true || (stash.restores !== to && isLaterVersion(stash.restores))) {
      return convertUnderStack(input, kind, direction, options);
    }
    if (stash.restores !== to) {
      return E.left({
        code: 'stash-malformed',
        path: 'metadata.annotations',
        message: `the conversion-data annotation restores ${stash.restores}, but this object converts to ${to}`,
      });
    }
    // The stash is data from whoever could annotate the object: checked whole before any of it applies.
    for (const entry of stash.entries) {
      const refusal = checkEntry(entry, rules, namespace);
      if (refusal !== undefined) return E.left(stashRefused(refusal));
    }
    const refusal = checkGenerated(stash.generated ?? [], rules);
    if (refusal !== undefined) return E.left(stashRefused(refusal));
    const at = { table, direction, name: id.name };
    const secretRefusal =
      checkKeyPairRecords(stash.keyPairs, at) ?? checkSecretFieldRecords(stash.secretFields, at);
    if (secretRefusal !== undefined) return E.left(stashRefused(secretRefusal));
  }
  // The result is built copy-on-write over `rest`: rows, stash and plug-in copy only the
  // containers they change, so the conversion back below shares every untouched subtree
  // with `rest` and the diff skips them; `unshare` then copies the rest once (never the
  // fields the conversion dropped).
  const owned = new Set<object>();
  const fresh = new Set<object>();
  const moves: AppliedMove[] = [];
  const out = moveObject(rest, table.groups, direction, targetVersion(direction), { applied: moves, owned });
  let restored: StashEntry[] = [];
  let keptEdits: StashEntry[] = [];
  if (stash !== undefined) {
    const result = applyStash(out, stash.entries, owned, fresh);
    restored = result.applied;
    keptEdits = result.skipped;
  }
  const warnings: string[] = [];
  let generatedObjects: readonly JsonObject[] = [];
  let generatedPaths: { path: string[]; value: Json }[] = [];
  let keyPairs: readonly KeyPairRecord[] = [];
  let secretFields: readonly SecretFieldRecord[] = [];
  if (direction === 'up') {
    const step = runPlugin(rest, out, table, options, restored, owned);
    if (E.isLeft(step)) return step;
    generatedObjects = step.right.objects;
    generatedPaths = step.right.generated;
    if (options.keysInStash !== true) {
      keyPairs = step.right.keyPairs;
      secretFields = step.right.secretFields;
    }
    moves.push(...step.right.moves);
    warnings.push(...step.right.warnings);
    const phase = getPath(rest, ['status', 'phase']);
    if (kind === 'Machine' && isUnknownV1alpha1Phase(phase)) {
      warnings.push(
        `status.phase ${JSON.stringify(phase)} has no v1alpha2 equivalent; left for the controller to compute`,
      );
    }
  }
  // What the way back would lose: stash it, minus what a plug-in will make again.
  // (read once by diff, then dropped: it shares structure with `out` and `rest`)
  const back = coreConvert(out, table, direction === 'up' ? 'down' : 'up', undefined, true);
  let all = diff(rest, back);
  if (stash?.generated !== undefined) {
    // Going down, trusted only when the plug-in, asked about the restored object, makes them again.
    const trusted = direction === 'up' || generatedByPlugin(out, table, options, stash.generated);
    all = withoutGenerated(all, rest, id, trusted ? stash.generated : undefined);
  }
  if (direction === 'down') {
    const missing = missingReference(rest, out, table);
    if (missing !== undefined) all.push(missing);
  }
  unshare(out, owned, fresh);
  // (`out` owns all of itself now: restoreKeys and putStash may write where they need)
  const restoredKeys = restoreKeys(out, stash?.keyPairs ?? [], namespace, options.secretData);
  if (E.isLeft(restoredKeys)) return restoredKeys;
  const restoredFields = restoreSecretFields(out, stash?.secretFields ?? [], id, options.secretData);
  if (E.isLeft(restoredFields)) return restoredFields;
  // What no stash may restore (owner references, bootstrap data, …) is not written into one:
  // it is reported as lost instead, since a stash carrying it would be refused on the way back.
  const partition = partitionStashEntries(all, rules, namespace);
  for (const refusal of partition.refused) {
    warnings.push(`${refusal.path} is not kept for the way back: ${refusal.message}`);
  }
  // Private keys and credentials stay in the Secrets the plug-in made; the stash names those instead.
  const keys = keysOutOfStash(partition.kept, keyPairs);
  const { entries, records } = secretFieldsOutOfStash(keys.entries, secretFields);
  if (entries.length > 0 || generatedPaths.length > 0 || keys.records.length > 0 || records.length > 0) {
    putStash(out, {
      restores: from,
      entries,
      ...(generatedPaths.length > 0 ? { generated: generatedPaths } : {}),
      ...(keys.records.length > 0 ? { keyPairs: keys.records } : {}),
      ...(records.length > 0 ? { secretFields: records } : {}),
    });
    const written = checkWrittenStash(out, entries);
    if (E.isLeft(written)) return written;
  }
  const report: ObjectReport = {
    kind,
    ...id,
    action: 'converted',
    from,
    to,
    moves,
    stashed: entries.map((e) => formatPath(e.path)),
    restored: [...restored.map((e) => formatPath(e.path)), ...restoredKeys.right, ...restoredFields.right],
    keptEdits: keptEdits.map((e) => formatPath(e.path)),
    generated: generatedObjects.map(describe),
    warnings,
  };
  return E.right({ object: out, generated: generatedObjects, report });
}

function isLaterVersion(version: string): boolean {
  return isChainVersion(version) && version !== V1ALPHA1 && version !== V1ALPHA2;
}

/**
 * `convertKind` of an object whose annotation holds a stack of stashes (chain/stack.ts): the
 * one restoring the target is applied and the others are put back, in their order, under the
 * stash this conversion writes. Going v1alpha3 → v1alpha2 → v1alpha1, say, the v1alpha1
 * fields lie under the stash that keeps the v1alpha3 ones for the way back up.
 */
function convertUnderStack(
  input: JsonObject,
  kind: ConvertibleKind,
  direction: Direction,
  options: ConvertOptions,
): E.Either<ConversionFailure, ObjectConversion> {
  const split = splitStack(input, sourceVersion(direction), targetVersion(direction));
  if (E.isLeft(split)) return E.left({ code: 'stash-malformed', ...split.left });
  const result = convertKind(split.right.object, kind, direction, options);
  if (E.isLeft(result) || split.right.buried.text === undefined) return result;
  const object = joinStack(result.right.object, split.right.buried);
  const size = checkStashedAnnotations(object);
  if (E.isLeft(size)) return size;
  return E.right({ ...result.right, object });
}

/**
 * Converts one object (or List) to `to`. Objects of other API groups, and objects already at
 * `to`, come back unchanged. A v1alpha1 MachineClass is an error here: it has no v1alpha2
 * kind, and only a whole manifest (see `convertManifest`) can resolve the objects using it.
 */
export function convertObject(
  value: unknown,
  to: ApiVersion,
  options: ConvertOptions = {},
): E.Either<ConversionError, DocumentConversion> {
  try {
    return convertCheckedObject(value, to, options);
  } catch (error) {
    return tooDeepOrRethrow(value, error);
  }
}

function convertCheckedObject(
  value: unknown,
  to: ApiVersion,
  options: ConvertOptions,
): E.Either<ConversionError, DocumentConversion> {
  const checked = conversionInput(value);
  if (E.isLeft(checked)) return checked;
  const input = checked.right;
  const { apiVersion, kind, fail } = input;
  if (apiVersion === 'v1' && kind === 'List')
    return convertV1List(input, (item) => convertCheckedObject(item, to, options));
  const direction: Direction = to === V1ALPHA2 ? 'up' : 'down';
  const from = sourceVersion(direction);
  const group = apiGroup(apiVersion);
  const capiGroup = group === V1ALPHA1_GROUP || group === V1ALPHA2_GROUP;
  if (capiGroup && apiVersion !== V1ALPHA1 && apiVersion !== V1ALPHA2) {
    // e.g. cluster.x-k8s.io/v1alpha3: not something to pass through as if it were done
    return E.left(
      fail({
        code: 'unsupported-version',
        path: 'apiVersion',
        message: `${apiVersion} is not a version this converter knows (${V1ALPHA1}, ${V1ALPHA2})`,
      }),
    );
  }
  if (apiVersion === to || !capiGroup) return E.right(single(unchanged(input.object, kind)));
  if (apiVersion !== from)
    return E.left(fail({ path: 'apiVersion', message: `cannot convert ${apiVersion} to ${to}` }));

  return convertListOrObject(input, to, {
    isKind: isConvertibleKind,
    convert: (item, itemKind) => convertKind(item, itemKind, direction, options),
    from,
    machineClassTarget: 'v1alpha2',
  });
}

/** v1alpha1 → v1alpha2 of one object (see `convertObject`). */
export function toV1alpha2(value: unknown, options: ConvertOptions = {}) {
  return convertObject(value, V1ALPHA2, options);
}

/** v1alpha2 → v1alpha1 of one object (see `convertObject`). */
export function toV1alpha1(value: unknown, options: ConvertOptions = {}) {
  return convertObject(value, V1ALPHA1, options);
}
