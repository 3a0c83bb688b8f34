// The conversion of one object as it was computed before the fast path (issue #16): a full
// copy, the moves, then the plain conversion back and a diff of the whole object against the
// input to find what the stash keeps. Kept here only as the oracle the fast path in
// src/convert.ts is proven byte-identical to (convert-fast-path.property.test.ts).
import * as E from 'fp-ts/lib/Either.js';
import {
  type ConvertOptions,
  checkShape,
  coreConvert,
  describe,
  KIND_TABLES,
  stashRefused,
} from '../../src/convert.js';
import type { ConversionFailure } from '../../src/errors.js';
import { checkKeyPairRecords, type KeyPairRecord, keysOutOfStash, restoreKeys } from '../../src/key-pairs.js';
import { tableStashRules } from '../../src/kind-table.js';
import type { AppliedMove } from '../../src/moves.js';
import { identity, type ObjectConversion } from '../../src/object-conversion.js';
import { deepEqual, formatPath, getPath, isObject, type Json, type JsonObject } from '../../src/path.js';
import { isUnknownV1alpha1Phase } from '../../src/phase.js';
import type { ObjectReport } from '../../src/report.js';
import { generatedByPlugin, missingReference, runPlugin } from '../../src/run-plugin.js';
import {
  checkSecretFieldRecords,
  restoreSecretFields,
  type SecretFieldRecord,
  secretFieldsOutOfStash,
} from '../../src/secret-fields.js';
import { applyStash, putStash, type StashEntry, takeStash, withoutGenerated } from '../../src/stash.js';
import {
  checkAnnotationsSize,
  checkEntry,
  checkGenerated,
  partitionStashEntries,
} from '../../src/stash-rules.js';
import { type ConvertibleKind, type Direction, sourceVersion, targetVersion } from '../../src/versions.js';

/** The whole-object diff, without any shortcut for shared subtrees. */
export function diff(original: JsonObject, base: JsonObject): StashEntry[] {
  const out: StashEntry[] = [];
  const into = (o: JsonObject, b: JsonObject, at: string[]): void => {
    for (const key of Object.keys(o)) {
      const path = [...at, key];
      const ov = o[key]!;
      if (!Object.hasOwn(b, key)) {
        out.push({ path, value: ov });
        continue;
      }
      const bv = b[key]!;
      if (isObject(ov) && isObject(bv)) into(ov, bv, path);
      else if (!deepEqual(ov, bv)) out.push({ path, value: ov, base: bv });
    }
    for (const key of Object.keys(b))
      if (!Object.hasOwn(o, key)) out.push({ path: [...at, key], base: b[key]! });
  };
  into(original, base, []);
  return out;
}

/** `convertKind` as it was before the fast path. */
export function referenceConvertKind(
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
    for (const entry of stash.entries) {
      const refusal = checkEntry(entry, rules, namespace);
      if (refusal !== undefined) return E.left(stashRefused(refusal));
    }
    const refusal = checkGenerated(stash.generated ?? [], rules);
    if (refusal !== undefined) return E.left(stashRefused(refusal));
    const at = { table, direction, name: identity(rest).name };
    const keyRefusal = checkKeyPairRecords(stash.keyPairs, at);
    if (keyRefusal !== undefined) return E.left(stashRefused(keyRefusal));
    const fieldRefusal = checkSecretFieldRecords(stash.secretFields, at);
    if (fieldRefusal !== undefined) return E.left(stashRefused(fieldRefusal));
  }
  const moves: AppliedMove[] = [];
  const out = coreConvert(rest, table, direction, moves);
  let restored: StashEntry[] = [];
  let keptEdits: StashEntry[] = [];
  if (stash !== undefined) {
    const result = applyStash(out, stash.entries);
    restored = result.applied;
    keptEdits = result.skipped;
  }
  const warnings: string[] = [];
  let generatedObjects: readonly JsonObject[] = [];
  let generatedPaths: { path: string[]; value: Json }[] = [];
  let keyPairs: readonly KeyPairRecord[] = [];
  let secretFields: readonly SecretFieldRecord[] = [];
  if (direction === 'up') {
    const step = runPlugin(rest, out, table, options, restored);
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
  const back = coreConvert(out, table, direction === 'up' ? 'down' : 'up', [], true);
  let all = diff(rest, back);
  if (stash?.generated !== undefined) {
    const trusted = direction === 'up' || generatedByPlugin(out, table, options, stash.generated);
    all = withoutGenerated(all, rest, identity(rest), trusted ? stash.generated : undefined);
  }
  if (direction === 'down') {
    const missing = missingReference(rest, out, table);
    if (missing !== undefined) all.push(missing);
  }
  const restoredKeys = restoreKeys(out, stash?.keyPairs ?? [], namespace, options.secretData);
  if (E.isLeft(restoredKeys)) return restoredKeys;
  const restoredFields = restoreSecretFields(
    out,
    stash?.secretFields ?? [],
    identity(rest),
    options.secretData,
  );
  if (E.isLeft(restoredFields)) return restoredFields;
  const partition = partitionStashEntries(all, rules, namespace);
  for (const refusal of partition.refused) {
    warnings.push(`${refusal.path} is not kept for the way back: ${refusal.message}`);
  }
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
    restored: [...restored.map((e) => formatPath(e.path)), ...restoredKeys.right, ...restoredFields.right],
    keptEdits: keptEdits.map((e) => formatPath(e.path)),
    generated: generatedObjects.map(describe),
    warnings,
  };
  return E.right({ object: out, generated: generatedObjects, report });
}
