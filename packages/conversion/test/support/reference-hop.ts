// One hop of the chain as it was computed before it was built copy-on-write (issue #16): a
// full copy, the moves, then the plain conversion back and a diff of the whole object against
// the input to find what the stash keeps. Kept here only as the oracle the hop in
// src/chain/hop.ts is proven byte-identical to (chain-hop-fast-path.property.test.ts).
import * as E from 'fp-ts/lib/Either.js';
import {
  type Hop,
  type HopFailure,
  type HopOptions,
  type HopResult,
  type HopTable,
  hopStashRules,
  plainHop,
  stashRefused,
  unconvertedWarnings,
} from '../../src/chain/hop.js';
import type { AppliedMove } from '../../src/moves.js';
import { deepEqual, formatPath, getPath, type JsonObject } from '../../src/path.js';
import { applyStash, putStash, type StashEntry, takeStash } from '../../src/stash.js';
import {
  checkAnnotationsSize,
  checkEntry,
  checkGenerated,
  partitionStashEntries,
} from '../../src/stash-rules.js';
import type { Direction } from '../../src/versions.js';
import { diff } from './reference-convert.js';

/** `convertHop` as it was before the copy-on-write result. */
export function referenceConvertHop(
  input: JsonObject,
  hop: Hop,
  table: HopTable,
  direction: Direction,
  options: HopOptions = {},
): E.Either<HopFailure, HopResult> {
  const from = direction === 'up' ? hop.lower : hop.upper;
  const to = direction === 'up' ? hop.upper : hop.lower;
  const taken = takeStash(input);
  if (E.isLeft(taken)) return taken;
  const { stash, rest } = taken.right;
  if (stash !== undefined && stash.restores !== to) {
    return E.left({
      path: 'metadata.annotations',
      message: `the conversion-data annotation restores ${stash.restores}, but this object converts to ${to}`,
    });
  }
  const moves: AppliedMove[] = [];
  // (no `owned`: a deep copy of the input, which shares nothing with it)
  const out = plainHop(rest, hop, table, direction, moves);
  let restored: StashEntry[] = [];
  let keptEdits: StashEntry[] = [];
  const namespace = getPath(rest, ['metadata', 'namespace']);
  const objectNamespace = typeof namespace === 'string' && namespace !== '' ? namespace : undefined;
  const warnings = unconvertedWarnings(moves);
  if (stash !== undefined) {
    const rules = hopStashRules(table, direction);
    for (const entry of stash.entries) {
      const refusal = checkEntry(entry, rules, objectNamespace);
      if (refusal !== undefined) return E.left(stashRefused(refusal));
    }
    const guarded = table.checkStash?.(stash.entries, direction);
    if (guarded !== undefined) return E.left(stashRefused(guarded));
    if (stash.generated !== undefined && stash.generated.length > 0) {
      const refusal = checkGenerated(stash.generated, rules);
      if (refusal !== undefined) return E.left(stashRefused(refusal));
    }
    const entries = table.stashBinding?.unbind(stash.entries, rest, direction, warnings) ?? stash.entries;
    const result = applyStash(out, entries);
    restored = result.applied;
    keptEdits = result.skipped;
  }
  // (`out` is a deep copy: owning a path in it copies what is already its own)
  if (table.finish !== undefined) {
    table.finish(out, rest, direction, options, warnings, new Set<object>());
    // (as the hop does: restored lists only what the object still holds after the finish)
    restored = restored.filter((e) => e.value === undefined || deepEqual(getPath(out, e.path), e.value));
  }
  const reverse = direction === 'up' ? 'down' : 'up';
  const back = plainHop(out, hop, table, reverse, []);
  const differences = diff(rest, back);
  const { kept: entries, refused } = partitionStashEntries(
    table.stashBinding?.bind(differences, out, direction) ?? differences,
    hopStashRules(table, reverse),
    objectNamespace,
  );
  for (const refusal of refused)
    warnings.push(`${refusal.path} is not kept for the way back: ${refusal.message}`);
  if (entries.length > 0) {
    putStash(out, { restores: from, entries });
    const size = checkAnnotationsSize(getPath(out, ['metadata', 'annotations']));
    if (E.isLeft(size))
      return E.left({ ...size.left, message: `with the conversion stash, ${size.left.message}` });
  }
  return E.right({
    object: out,
    moves,
    stashed: entries.map((e) => formatPath(e.path)),
    restored: restored.map((e) => formatPath(e.path)),
    keptEdits: keptEdits.map((e) => formatPath(e.path)),
    warnings,
  });
}
