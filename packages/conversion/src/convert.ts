import * as E from 'fp-ts/lib/Either.js';
import type { ConversionError, ConversionFailure } from './errors.js';
import { KIND_TABLES, type KindTable, tableStashRules } from './kind-table.js';
import { type AppliedMove, applyMoves } from './moves.js';
import {
  clone,
  formatPath,
  getPath,
  isObject,
  type Json,
  type JsonObject,
  type OwnedSet,
  unshare,
} from './path.js';
import { isUnknownV1alpha1Phase } from './phase.js';
import type { ObjectReport } from './report.js';
import { type ConvertOptions, runPlugin } from './run-plugin.js';
import {
  applyStash,
  CONVERSION_DATA_ANNOTATION,
  diff,
  putStash,
  type StashEntry,
  takeStash,
  withoutGenerated,
} from './stash.js';
import {
  checkAnnotationsSize,
  checkEntry,
  checkGenerated,
  partitionStashEntries,
  type StashRefusalCode,
} from './stash-rules.js';
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
export type { ConvertOptions, ResolvedMachineClass } from './run-plugin.js';

/** One converted object, the objects generated for it, and what happened. */
export interface ObjectConversion {
  readonly object: JsonObject;
  readonly generated: readonly JsonObject[];
  readonly report: ObjectReport;
}

/**
 * A converted document: the object (or List), every object generated for it in order, and
 * one report per object (a List's own entry first, then one per item).
 */
export interface DocumentConversion {
  readonly object: JsonObject;
  readonly generated: readonly JsonObject[];
  readonly reports: readonly ObjectReport[];
}

function single(c: ObjectConversion): DocumentConversion {
  return { object: c.object, generated: c.generated, reports: [c.report] };
}

function str(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** The object's name and namespace, when set (for reports and errors). */
export function identity(object: JsonObject): { name?: string; namespace?: string } {
  const name = str(getPath(object, ['metadata', 'name']));
  const namespace = str(getPath(object, ['metadata', 'namespace']));
  return { ...(name === undefined ? {} : { name }), ...(namespace === undefined ? {} : { namespace }) };
}

/**
 * The plain field moves of a kind, without stash or plug-ins. `share` returns an object that
 * shares untouched parts with `object` (copy-on-write): only for results that are read and
 * thrown away, never handed to a caller.
 */
export function coreConvert(
  object: JsonObject,
  table: KindTable,
  direction: Direction,
  applied: AppliedMove[] = [],
  share = false,
): JsonObject {
  if (share) return coreConvertOwned(object, table, direction, applied, new Set<object>());
  const out = clone(object);
  for (const group of table.groups) applyMoves(out, object, group.moves, direction, group.at, applied);
  if (Object.hasOwn(out, 'apiVersion')) out.apiVersion = targetVersion(direction);
  return out;
}

/**
 * `coreConvert` copy-on-write: the result shares what the rows leave alone with `object`;
 * `owned` collects the containers that are the result's own (see ownPath, unshare).
 */
function coreConvertOwned(
  object: JsonObject,
  table: KindTable,
  direction: Direction,
  applied: AppliedMove[],
  owned: OwnedSet,
): JsonObject {
  const out = { ...object };
  owned.add(out);
  for (const group of table.groups) applyMoves(out, object, group.moves, direction, group.at, applied, owned);
  if (Object.hasOwn(out, 'apiVersion')) out.apiVersion = targetVersion(direction);
  return out;
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
    for (const [k, v] of Object.entries(map)) {
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
  const { namespace } = identity(rest);
  if (stash !== undefined) {
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
  }
  // The result is built copy-on-write over `rest`: rows, stash and plug-in copy only the
  // containers they change, so the conversion back below shares every untouched subtree
  // with `rest` and the diff skips them; `unshare` then copies the rest once (never the
  // fields the conversion dropped).
  const owned = new Set<object>();
  const fresh = new Set<object>();
  const moves: AppliedMove[] = [];
  const out = coreConvertOwned(rest, table, direction, moves, owned);
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
  if (direction === 'up') {
    const step = runPlugin(rest, out, table, options, owned);
    if (E.isLeft(step)) return step;
    generatedObjects = step.right.objects;
    generatedPaths = step.right.generated;
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
  const back = coreConvertOwned(out, table, direction === 'up' ? 'down' : 'up', [], new Set<object>());
  let all = diff(rest, back);
  if (stash !== undefined) all = withoutGenerated(all, rest, stash.generated);
  unshare(out, owned, fresh);
  // What no stash may restore (owner references, bootstrap data, …) is not written into one:
  // it is reported as lost instead, since a stash carrying it would be refused on the way back.
  const { kept: entries, refused } = partitionStashEntries(all, rules, namespace);
  for (const refusal of refused) {
    warnings.push(`${refusal.path} is not kept for the way back: ${refusal.message}`);
  }
  if (entries.length > 0 || generatedPaths.length > 0) {
    // (`out` owns all of itself now: putStash may write where it needs)
    putStash(out, {
      restores: from,
      entries,
      ...(generatedPaths.length > 0 ? { generated: generatedPaths } : {}),
    });
    const size = checkAnnotationsSize(getPath(out, ['metadata', 'annotations']));
    if (E.isLeft(size))
      return E.left({ ...size.left, message: `with the conversion stash, ${size.left.message}` });
  }
  const report: ObjectReport = {
    kind,
    ...identity(rest),
    action: 'converted',
    from,
    to,
    moves,
    stashed: entries.map((e) => formatPath(e.path)),
    restored: restored.map((e) => formatPath(e.path)),
    keptEdits: keptEdits.map((e) => formatPath(e.path)),
    generated: generatedObjects.map(describe),
    warnings,
  };
  return E.right({ object: out, generated: generatedObjects, report });
}

function unchanged(object: JsonObject, kind: string): ObjectConversion {
  return {
    object,
    generated: [],
    report: {
      kind,
      ...identity(object),
      action: 'unchanged',
      moves: [],
      stashed: [],
      restored: [],
      keptEdits: [],
      generated: [],
      warnings: [],
    },
  };
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
  if (!isObject(value)) return E.left({ code: 'invalid-object', message: 'is not an object' });
  const apiVersion = value.apiVersion;
  const kind = value.kind;
  const id = identity(value);
  const fail = (f: ConversionFailure): ConversionError => ({
    code: 'invalid-object',
    ...(typeof kind === 'string' ? { objectKind: kind } : {}),
    ...id,
    ...f,
  });
  if (typeof apiVersion !== 'string' || apiVersion === '')
    return E.left(fail({ path: 'apiVersion', message: 'is missing' }));
  if (typeof kind !== 'string' || kind === '') return E.left(fail({ path: 'kind', message: 'is missing' }));
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
  if (apiVersion === to || !capiGroup) return E.right(single(unchanged(value, kind)));
  if (apiVersion !== from)
    return E.left(fail({ path: 'apiVersion', message: `cannot convert ${apiVersion} to ${to}` }));

  const listOf = kind.endsWith('List') ? kind.slice(0, -'List'.length) : undefined;
  if (listOf !== undefined && isConvertibleKind(listOf)) {
    const items = value.items;
    if (items !== undefined && items !== null && !Array.isArray(items)) {
      return E.left(fail({ path: 'items', message: 'must be a list' }));
    }
    const converted: JsonObject[] = [];
    const results: ObjectConversion[] = [];
    for (const [i, item] of (items ?? []).entries()) {
      const at = `items[${i}]`;
      if (!isObject(item)) return E.left(fail({ path: at, message: 'is not an object' }));
      if (item.kind !== undefined && item.kind !== listOf) {
        return E.left(fail({ path: `${at}.kind`, message: `is ${JSON.stringify(item.kind)} in a ${kind}` }));
      }
      if (item.apiVersion !== undefined && item.apiVersion !== from) {
        return E.left(
          fail({
            path: `${at}.apiVersion`,
            message: `mixed versions: the item is ${JSON.stringify(item.apiVersion)} but its ${kind} is ${from}`,
          }),
        );
      }
      const result = convertKind(item, listOf, direction, options);
      if (E.isLeft(result)) {
        const itemId = identity(item);
        return E.left({
          code: result.left.code ?? 'invalid-object',
          objectKind: listOf,
          ...itemId,
          path: result.left.path === undefined ? at : `${at}.${result.left.path}`,
          message: result.left.message,
        });
      }
      converted.push(result.right.object);
      results.push(result.right);
    }
    const list = clone(value);
    list.apiVersion = to;
    if (items !== undefined) list.items = converted;
    return E.right({
      object: list,
      generated: results.flatMap((r) => r.generated),
      reports: [
        { ...unchanged(list, kind).report, action: 'converted', from, to },
        ...results.map((r) => r.report),
      ],
    });
  }
  if (kind === 'MachineClass') {
    return E.left(
      fail({
        message:
          'MachineClass has no v1alpha2 kind; convert it together with the objects that use it (a whole manifest)',
      }),
    );
  }
  if (!isConvertibleKind(kind))
    return E.left(fail({ path: 'kind', message: `unknown ${from} kind ${JSON.stringify(kind)}` }));
  const result = convertKind(value, kind, direction, options);
  if (E.isLeft(result)) return E.left(fail(result.left));
  return E.right(single(result.right));
}

/** v1alpha1 → v1alpha2 of one object (see `convertObject`). */
export function toV1alpha2(value: unknown, options: ConvertOptions = {}) {
  return convertObject(value, V1ALPHA2, options);
}

/** v1alpha2 → v1alpha1 of one object (see `convertObject`). */
export function toV1alpha1(value: unknown, options: ConvertOptions = {}) {
  return convertObject(value, V1ALPHA1, options);
}
