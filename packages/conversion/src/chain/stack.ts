import * as E from 'fp-ts/lib/Either.js';
import { getPath, isObject, type JsonObject } from '../path.js';
import { CONVERSION_DATA_ANNOTATION, type Stash, takeStash, withoutStash } from '../stash.js';
import { MAX_ANNOTATIONS_BYTES, MAX_STASH_DEPTH, openingBrackets } from '../stash-rules.js';

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
 *
 * Between the hops of one conversion the stack stays text: what lies under a hop's stash is
 * kept as the JSON that will be written (`Buried.text`), joined under the next stash by
 * splicing text, and the next hop's split reads only the top, the hop's own stash
 * (`splitPending`). The stack under it is not parsed or serialised again at every hop (that
 * was a quarter to a third of converting v1alpha2 → v1beta2); the annotation is written once,
 * at the end.
 */

/** A stash JSON object as stored (the hop reads `restores`, `patch`, …; `below` is the stack). */
type StashJson = JsonObject;

/** What lies under the top of the stack while a hop runs: the stashes, as they will be written. */
export interface Buried {
  /** The stack as JSON text (`JSON.stringify` of it): absent when nothing lies under the hop. */
  readonly text?: string;
  /** How many stashes `text` holds. */
  readonly depth: number;
  /** Opening brackets in `text`, counted up to `MAX_STASH_DEPTH + 1` (see `openingBrackets`). */
  readonly brackets: number;
  /**
   * The top stash's `restores` and `created`, when the whole stack is known to read as a stash
   * (`takeStash` took it, or the top is a hop's own): `splitPending` may then split it unread.
   */
  readonly restores?: string;
  readonly created?: Stash['created'];
}

/** Nothing under the hop (also where a conversion starts). */
export const NOTHING_BURIED: Buried = { depth: 0, brackets: 0 };

/** Most stashes one object may carry: one per hop and direction would already be unusual. */
export const MAX_STACK = 16;

const STASH_PATH = `metadata.annotations[${JSON.stringify(CONVERSION_DATA_ANNOTATION)}]`;

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

function buried(stack: StashJson, stashes: number, read?: Stash): Buried {
  const text = JSON.stringify(stack);
  const known = read === undefined ? {} : { restores: read.restores, created: read.created };
  return { text, depth: stashes, brackets: openingBrackets(text, MAX_STASH_DEPTH), ...known };
}

function tooManyStashes() {
  return E.left({ path: STASH_PATH, message: `holds more than ${MAX_STACK} stacked conversion stashes` });
}

type Split = E.Either<{ path: string; message: string }, { object: JsonObject; buried: Buried }>;

/**
 * Prepares `object` for a hop to `target`: a top stash that restores `target` stays (without
 * what is under it) for the hop to apply; any other stash is taken off whole. Returns the
 * object the hop converts and what to put back under the hop's own stash afterwards.
 * An annotation that is not a readable stash is left in place for the hop to refuse.
 */
export function splitStack(object: JsonObject, target: string): Split {
  const text = annotationText(object);
  if (typeof text !== 'string') return E.right({ object, buried: NOTHING_BURIED });
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return E.right({ object, buried: NOTHING_BURIED });
  }
  if (!isObject(parsed) || typeof parsed.restores !== 'string')
    return E.right({ object, buried: NOTHING_BURIED });
  const stashes = depth(parsed);
  if (stashes > MAX_STACK) return tooManyStashes();
  // Every stash under the top one must be one: a `below` of `{"foo": 1}` would otherwise ride
  // along and come back, alone, as an annotation no conversion can read.
  for (let s: unknown = parsed.below, level = 2; s !== undefined; s = (s as StashJson).below, level++) {
    if (!isObject(s) || typeof s.restores !== 'string' || !Array.isArray(s.patch)) {
      return E.left({
        path: STASH_PATH,
        message: `has a "below" that is not a stash (stash ${level} of the stack)`,
      });
    }
  }
  const { below: checkedBelow, ...top } = parsed;
  const below = checkedBelow as StashJson | undefined; // (each level checked above)
  if (top.restores === target) {
    return E.right({
      object: withAnnotation(object, JSON.stringify(top)),
      buried: below === undefined ? NOTHING_BURIED : buried(below, stashes - 1),
    });
  }
  // Not this hop's: take it off whole (honouring what writing it had created) and keep it.
  const taken = takeStash(object);
  if (E.isLeft(taken)) return E.right({ object, buried: NOTHING_BURIED });
  return E.right({ object: taken.right.rest, buried: buried(parsed, stashes, taken.right.stash) });
}

/**
 * The annotation text with `below` under the stash `top`: `JSON.stringify({...top, below})`
 * built by splicing, when `top` is a stash as `putStash` writes it (canonical JSON of an
 * object that starts with `restores` and has no `below`); undefined otherwise.
 */
function spliced(top: string, below: string): string | undefined {
  if (!top.startsWith('{"restores":') || !top.endsWith('}') || top.includes('"below":')) return undefined;
  return `${top.slice(0, -1)},"below":${below}}`;
}

/** Puts what `splitStack` took off back under whatever stash the hop wrote. */
export function joinStack(object: JsonObject, buried: Buried): JsonObject {
  if (buried.text === undefined) return object;
  const text = annotationText(object);
  if (typeof text !== 'string') return withAnnotation(object, buried.text);
  const joined =
    spliced(text, buried.text) ??
    JSON.stringify({ ...(JSON.parse(text) as StashJson), below: JSON.parse(buried.text) as StashJson });
  return withAnnotation(object, joined);
}

/**
 * `splitStack(joinStack(object, buried), target)`, for the object a hop just made and what
 * it left buried, without building and re-reading the joined annotation: only the hop's own
 * stash (the top) is read. Every check `splitStack` and `takeStash` would make of the joined
 * text is decided from the parts (its stash count, size and bracket count); where one could
 * refuse it, the text is joined and split for real, so the refusal is the same.
 */
export function splitPending(object: JsonObject, pending: Buried, target: string): Split {
  if (pending.text === undefined) return splitStack(object, target);
  const slow = () => splitStack(joinStack(object, pending), target);
  const top = annotationText(object);
  if (typeof top !== 'string') {
    // The hop stashed nothing: the stack alone is the annotation, its top stash unchanged.
    if (pending.restores === undefined || pending.restores === target) return slow();
    if (pending.text.length * 3 > MAX_ANNOTATIONS_BYTES || pending.brackets > MAX_STASH_DEPTH) return slow();
    const rest = withoutStash(withAnnotation(object, pending.text), pending.created);
    return E.right({ object: rest, buried: pending });
  }
  const joined = spliced(top, pending.text);
  if (joined === undefined) return slow();
  if (pending.depth + 1 > MAX_STACK) return tooManyStashes();
  // takeStash's own limits on the joined text: size (bytes ≤ 3 per UTF-16 unit) and depth
  // (it walks the parsed value only past MAX_STASH_DEPTH brackets).
  if (joined.length * 3 > MAX_ANNOTATIONS_BYTES) return slow();
  const brackets = pending.brackets + openingBrackets(top, MAX_STASH_DEPTH);
  if (brackets > MAX_STASH_DEPTH) return slow();
  const taken = takeStash(object);
  if (E.isLeft(taken) || taken.right.stash === undefined) return slow();
  const { stash, rest } = taken.right;
  // The top restores the target: the hop applies it, and what is under it stays buried.
  if (stash.restores === target) return E.right({ object, buried: pending });
  return E.right({
    object: rest,
    buried: {
      text: joined,
      depth: pending.depth + 1,
      brackets,
      restores: stash.restores,
      created: stash.created,
    },
  });
}
