// The conversion chain's stash stack as it was before the stack stayed text between hops
// (issue #16): every hop's split parsed the whole stacked annotation, and every join parsed
// the hop's stash and serialised the whole stack again. Kept as the oracle that
// chain-stack.property.test.ts holds the new pipeline to, byte for byte. Not used by the
// package.
import * as E from 'fp-ts/lib/Either.js';
import { type ChainOptions, chainPath } from '../../src/chain/convert.js';
import { convertHop } from '../../src/chain/hop.js';
import { carriedRefusal } from '../../src/chain/stack.js';
import {
  CHAIN_VERSIONS,
  type ChainKind,
  type ChainVersion,
  KIND_SINCE,
  kindExistsIn,
} from '../../src/chain/versions.js';
import { convertKind } from '../../src/convert.js';
import type { ConversionFailure } from '../../src/errors.js';
import type { AppliedMove } from '../../src/moves.js';
import { identity, type ObjectConversion } from '../../src/object-conversion.js';
import { clone, getPath, isObject, type JsonObject } from '../../src/path.js';
import type { ObjectReport } from '../../src/report.js';
import { CONVERSION_DATA_ANNOTATION, takeStash } from '../../src/stash.js';
import type { StashRefusal } from '../../src/stash-rules.js';

/** A stash JSON object as stored (the hop reads `restores`, `patch`, …; `below` is the stack). */
type StashJson = JsonObject;

/** What lies under the top of the stack while a hop runs. */
interface Buried {
  readonly below?: StashJson;
}

/** Most stashes one object may carry: one per hop and direction would already be unusual. */
const MAX_STACK = 16;

function annotationText(object: JsonObject): unknown {
  return getPath(object, ['metadata', 'annotations', CONVERSION_DATA_ANNOTATION]);
}

function withAnnotation(object: JsonObject, text: string): JsonObject {
  const metadata = isObject(object.metadata) ? object.metadata : {};
  const annotations = isObject(metadata.annotations) ? metadata.annotations : {};
  return {
    ...object,
    metadata: { ...metadata, annotations: { ...annotations, [CONVERSION_DATA_ANNOTATION]: text } },
  };
}

function depth(stash: StashJson): number {
  let n = 1;
  for (let s: unknown = stash.below; isObject(s); s = s.below) n++;
  return n;
}

/**
 * Prepares `object` for a hop from `from` to `target`: the stash that restores `target` stays
 * alone for the hop to apply, the rest of the stack in its order is taken off; with none, the
 * whole stack is taken off. Returns the object the hop converts and what to put back under
 * the hop's own stash afterwards. An annotation that is not a readable stash is left in place
 * for the hop to refuse.
 */
function splitStack(
  object: JsonObject,
  from: ChainVersion,
  target: ChainVersion,
): E.Either<
  { code?: StashRefusal['code']; path: string; message: string },
  { object: JsonObject; buried: Buried }
> {
  const text = annotationText(object);
  if (typeof text !== 'string') return E.right({ object, buried: {} });
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return E.right({ object, buried: {} });
  }
  if (!isObject(parsed) || typeof parsed.restores !== 'string') return E.right({ object, buried: {} });
  if (depth(parsed) > MAX_STACK) {
    return E.left({
      code: 'stash-too-deep',
      path: `metadata.annotations[${JSON.stringify(CONVERSION_DATA_ANNOTATION)}]`,
      message: `holds more than ${MAX_STACK} stacked conversion stashes`,
    });
  }
  let level = 2;
  for (let s: unknown = parsed.below; s !== undefined; s = (s as StashJson).below, level++) {
    if (!isObject(s) || typeof s.restores !== 'string' || !Array.isArray(s.patch)) {
      return E.left({
        code: 'stash-malformed',
        path: `metadata.annotations[${JSON.stringify(CONVERSION_DATA_ANNOTATION)}]`,
        message: `has a "below" that is not a stash (stash ${level} of the stack)`,
      });
    }
  }
  // The hop's stash: the first restoring `target`, under any for the way back the other way
  // (restoring versions beyond `from`, away from `target`).
  const stashes: StashJson[] = [];
  for (let s: unknown = parsed; isObject(s); s = s.below) {
    const { below: _, ...stash } = s;
    stashes.push(stash);
  }
  const here = CHAIN_VERSIONS.indexOf(from);
  const down = CHAIN_VERSIONS.indexOf(target) < here;
  const beyond = (restores: unknown) => {
    const at = (CHAIN_VERSIONS as readonly unknown[]).indexOf(restores);
    return at >= 0 && (down ? at > here : at < here);
  };
  let at = 0;
  while (at < stashes.length && stashes[at]!.restores !== target && beyond(stashes[at]!.restores)) at++;
  const applies = at < stashes.length && stashes[at]!.restores === target;
  // (each stash carried on must be one: the same check as the pipeline's)
  const refusal = carriedRefusal(stashes, applies ? at : -1, text);
  if (refusal !== undefined) return E.left(refusal);
  if (applies) {
    const rest = stashes.filter((_, i) => i !== at);
    const below = rest.reduceRight<StashJson | undefined>(
      (under, stash) => (under === undefined ? stash : { ...stash, below: under }),
      undefined,
    );
    return E.right({
      object: withAnnotation(object, JSON.stringify(stashes[at])),
      buried: below === undefined ? {} : { below },
    });
  }
  // Not this hop's: take it off whole (honouring what writing it had created) and keep it.
  const taken = takeStash(object);
  if (E.isLeft(taken)) return E.right({ object, buried: {} });
  return E.right({ object: taken.right.rest, buried: { below: parsed } });
}

/** Puts what `splitStack` took off back under whatever stash the hop wrote. */
function joinStack(object: JsonObject, buried: Buried): JsonObject {
  if (buried.below === undefined) return object;
  const text = annotationText(object);
  if (typeof text !== 'string') return withAnnotation(object, JSON.stringify(buried.below));
  const top = JSON.parse(text) as StashJson;
  return withAnnotation(object, JSON.stringify({ ...top, below: buried.below }));
}

export function referenceConvertAlongChain(
  input: JsonObject,
  kind: ChainKind,
  from: ChainVersion,
  to: ChainVersion,
  options: ChainOptions = {},
): E.Either<ConversionFailure, ObjectConversion> {
  for (const version of [from, to]) {
    if (!kindExistsIn(kind, version)) {
      return E.left({
        path: 'kind',
        message: `${kind} exists only from ${KIND_SINCE[kind]} on; ${version} has no such kind`,
      });
    }
  }
  let object = input;
  const moves: AppliedMove[] = [];
  const stashed: string[] = [];
  const restored: string[] = [];
  const keptEdits: string[] = [];
  const warnings: string[] = [];
  let generated: readonly JsonObject[] = [];
  let generatedNames: readonly string[] = [];
  let version = from;
  for (const step of chainPath(from, to)) {
    const split = splitStack(object, version, step.to);
    version = step.to;
    if (E.isLeft(split)) return split;
    const { buried } = split.right;
    let out: JsonObject;
    if (step.hop === 'v1alpha1-v1alpha2') {
      const result = convertKind(
        split.right.object,
        kind as Exclude<ChainKind, 'MachineHealthCheck'>,
        step.direction,
        options,
      );
      if (E.isLeft(result)) return result;
      const r = result.right;
      out = r.object;
      moves.push(...r.report.moves);
      stashed.push(...r.report.stashed);
      restored.push(...r.report.restored);
      keptEdits.push(...r.report.keptEdits);
      warnings.push(...r.report.warnings);
      generated = r.generated;
      generatedNames = r.report.generated;
    } else {
      const table = step.hop.tables[kind];
      if (table === undefined)
        return E.left({
          path: 'kind',
          message: `no ${kind} conversion between ${step.hop.lower} and ${step.hop.upper}`,
        });
      const result = convertHop(split.right.object, step.hop, table, step.direction, options);
      if (E.isLeft(result)) return result;
      const r = result.right;
      out = r.object;
      moves.push(...r.moves);
      stashed.push(...r.stashed);
      restored.push(...r.restored);
      keptEdits.push(...r.keptEdits);
      warnings.push(...r.warnings);
    }
    object = joinStack(out, buried);
  }
  const report: ObjectReport = {
    kind,
    ...identity(input),
    action: 'converted',
    from,
    to,
    moves,
    stashed,
    restored,
    keptEdits,
    generated: generatedNames,
    warnings,
  };
  return E.right({ object: object === input ? clone(input) : object, generated, report });
}
