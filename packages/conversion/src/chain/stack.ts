import * as E from 'fp-ts/lib/Either.js';
import { getPath, isObject, type JsonObject } from '../path.js';
import { CONVERSION_DATA_ANNOTATION, takeStash } from '../stash.js';

/**
 * Stashes stack up along the chain. A hop stashes what the way back over that hop would lose
 * (restoring the hop's source version); a later hop that does not go back over it leaves that
 * stash alone and puts its own on top, the older one nested under `below`. Going back, each
 * hop consumes the top stash when it restores the hop's target, so v1alpha1 → v1beta2 →
 * v1alpha1 unwinds exactly, and an object converted v1alpha3 → v1alpha4 and later, as a
 * stored object, v1alpha4 → v1beta1, still gets its v1alpha3 fields back.
 *
 * The stack is the chain's business: a hop sees only its own stash (or none), so each hop's
 * checks (hop.ts, and the v1alpha1 ⇄ v1alpha2 ones) apply to exactly what it would restore.
 */

/** A stash JSON object as stored (the hop reads `restores`, `patch`, …; `below` is the stack). */
type StashJson = JsonObject;

/** What lies under the top of the stack while a hop runs. */
export interface Buried {
  readonly below?: StashJson;
}

/** Most stashes one object may carry: one per hop and direction would already be unusual. */
export const MAX_STACK = 16;

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
 * Prepares `object` for a hop to `target`: a top stash that restores `target` stays (without
 * what is under it) for the hop to apply; any other stash is taken off whole. Returns the
 * object the hop converts and what to put back under the hop's own stash afterwards.
 * An annotation that is not a readable stash is left in place for the hop to refuse.
 */
export function splitStack(
  object: JsonObject,
  target: string,
): E.Either<{ path: string; message: string }, { object: JsonObject; buried: Buried }> {
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
      path: `metadata.annotations[${JSON.stringify(CONVERSION_DATA_ANNOTATION)}]`,
      message: `holds more than ${MAX_STACK} stacked conversion stashes`,
    });
  }
  const { below, ...top } = parsed;
  if (below !== undefined && !isObject(below)) {
    return E.left({
      path: `metadata.annotations[${JSON.stringify(CONVERSION_DATA_ANNOTATION)}]`,
      message: 'has a "below" that is not a stash',
    });
  }
  if (top.restores === target) {
    return E.right({
      object: withAnnotation(object, JSON.stringify(top)),
      buried: below === undefined ? {} : { below },
    });
  }
  // Not this hop's: take it off whole (honouring what writing it had created) and keep it.
  const taken = takeStash(object);
  if (E.isLeft(taken)) return E.right({ object, buried: {} });
  return E.right({ object: taken.right.rest, buried: { below: parsed } });
}

/** Puts what `splitStack` took off back under whatever stash the hop wrote. */
export function joinStack(object: JsonObject, buried: Buried): JsonObject {
  if (buried.below === undefined) return object;
  const text = annotationText(object);
  if (typeof text !== 'string') return withAnnotation(object, JSON.stringify(buried.below));
  const top = JSON.parse(text) as StashJson;
  return withAnnotation(object, JSON.stringify({ ...top, below: buried.below }));
}
