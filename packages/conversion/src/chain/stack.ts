import * as E from 'fp-ts/lib/Either.js';
import { getPath, isObject, type JsonObject } from '../path.js';
import {
  CONVERSION_DATA_ANNOTATION,
  readStash,
  type Stash,
  stashJson,
  takeStash,
  valueDepthExceeds,
  withoutStash,
} from '../stash.js';
import {
  MAX_ANNOTATIONS_BYTES,
  MAX_STASH_DEPTH,
  openingBrackets,
  openingBracketsExceed,
  type StashRefusal,
} from '../stash-rules.js';
import { isChainVersion, versionIndex } from './versions.js';

/**
 * Stashes stack up along the chain. A hop stashes what the way back over that hop would lose
 * (restoring the hop's source version); a later hop that does not go back over it leaves that
 * stash alone and puts its own on top, the older one nested under `below`. Going back, each
 * hop consumes the top stash when it restores the hop's target, so v1alpha1 → v1beta2 →
 * v1alpha1 unwinds exactly, and an object converted v1alpha3 → v1alpha4 and later, as a
 * stored object, v1alpha4 → v1beta1, still gets its v1alpha3 fields back.
 *
 * A hop looks under stashes for the way back the other way (`layerFor`). Going down
 * v1alpha3 → v1alpha2 → v1alpha1, the first hop consumes its stash and, when the v1alpha3
 * object held something v1alpha2 cannot (a `failureDomain` set after it was converted up),
 * puts one on top for the way back up; the v1alpha1 fields lie under it, and the second hop
 * must still find them (else the v1alpha1 Machine came out with an empty providerSpec).
 * The stack is then two stacks in one: the stashes restoring versions above the object's and
 * those restoring versions below it, each in its own order.
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
  /** Each stash's `restores` in `text`, top first. */
  readonly layers: readonly string[];
}

/** Nothing under the hop (also where a conversion starts). */
export const NOTHING_BURIED: Buried = { depth: 0, brackets: 0, layers: [] };

/**
 * Which stash of a stack (given by each one's `restores`, top first) a hop from `from` to
 * `target` applies: the first that restores `target`, looking under the stashes for the way
 * back the other way (restoring versions beyond `from`, away from `target`) and no further;
 * -1 when there is none. A stash restoring another version on the hop's side belongs to a
 * later hop, and one that is no chain version (or restores `from` itself) is not looked under.
 */
export function layerFor(layers: readonly string[], from: string, target: string): number {
  if (!isChainVersion(from) || !isChainVersion(target)) return layers[0] === target ? 0 : -1;
  const here = versionIndex(from);
  const down = versionIndex(target) < here;
  for (let i = 0; i < layers.length; i++) {
    const restores = layers[i]!;
    if (restores === target) return i;
    if (!isChainVersion(restores)) return -1;
    const at = versionIndex(restores);
    if (down ? at <= here : at >= here) return -1;
  }
  return -1;
}

/** Most stashes one object may carry: one per hop and direction would already be unusual. */
export const MAX_STACK = 16;

function depth(stash: StashJson): number {
  let n = 1;
  for (let s: unknown = stash.below; isObject(s); s = s.below) n++;
  return n;
}

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

/** The stashes of a stack, top first, each without its `below`. */
function stashesOf(stack: StashJson): StashJson[] {
  const stashes: StashJson[] = [];
  for (let s: unknown = stack; isObject(s); s = s.below) {
    const { below: _, ...stash } = s;
    stashes.push(stash);
  }
  return stashes;
}

/** `stashes` (top first) nested again under `below`; undefined for none. */
function stackOf(stashes: readonly StashJson[]): StashJson | undefined {
  let stack: StashJson | undefined;
  for (let i = stashes.length - 1; i >= 0; i--) {
    stack = stack === undefined ? stashes[i]! : { ...stashes[i]!, below: stack };
  }
  return stack;
}

function buried(stashes: readonly StashJson[], read?: Stash): Buried {
  const stack = stackOf(stashes);
  if (stack === undefined) return NOTHING_BURIED;
  const text = stashJson(stack);
  const known = read === undefined ? {} : { restores: read.restores, created: read.created };
  return {
    text,
    depth: stashes.length,
    brackets: openingBrackets(text, MAX_STASH_DEPTH),
    layers: stashes.map((s) => s.restores as string),
    ...known,
  };
}

// (each stash of a stack nests the next under its "below": a stack too tall is a stash too deep)
function tooManyStashes() {
  return E.left({
    code: 'stash-too-deep' as const,
    path: STASH_PATH,
    message: `holds more than ${MAX_STACK} stacked conversion stashes`,
  });
}

type Split = E.Either<
  { code?: StashRefusal['code']; path: string; message: string },
  { object: JsonObject; buried: Buried }
>;

/**
 * Why the stack `stashes` (top first, read from the annotation `text`) cannot be carried past
 * a hop that applies the one at `at` (-1: none), the hop checking that one itself: a stash
 * carried on must restore a version of the chain and be a stash `takeStash` would read. Such
 * a stash was carried silently, hop after hop, into the result: one restoring
 * `example.com/v1` never applied, and one with a malformed patch was refused only by the hop
 * that reached it, maybe in another conversion, long after whoever wrote it.
 */
export function carriedRefusal(
  stashes: readonly StashJson[],
  at: number,
  text: string,
): StashRefusal | undefined {
  if (stashes.length === (at >= 0 ? 1 : 0)) return undefined;
  // (a stash can nest too deep only when the text has the brackets for it)
  const mayBeDeep = openingBracketsExceed(text, MAX_STASH_DEPTH);
  for (let i = 0; i < stashes.length; i++) {
    if (i === at) continue;
    const stash = stashes[i]!;
    const layer = `stash ${i + 1} of the stack`;
    if (!isChainVersion(stash.restores))
      return {
        code: 'stash-malformed',
        path: STASH_PATH,
        message: `has a stash restoring ${JSON.stringify(stash.restores)}, no version of the chain (${layer})`,
      };
    if (mayBeDeep && valueDepthExceeds(stash, MAX_STASH_DEPTH))
      return {
        code: 'stash-too-deep',
        path: STASH_PATH,
        message: `has a stash that nests deeper than ${MAX_STASH_DEPTH} levels (${layer})`,
      };
    const read = readStash(stash);
    if (E.isLeft(read))
      return {
        code: 'stash-malformed',
        path: STASH_PATH,
        message: `has a stash that ${read.left} (${layer})`,
      };
  }
  return undefined;
}

/**
 * Prepares `object` for a hop from `from` to `target`: the stash that restores `target`
 * (`layerFor`) stays alone for the hop to apply, and the rest of the stack, in its order, is
 * taken off; with none, the whole stack is taken off. Returns the object the hop converts and
 * what to put back under the hop's own stash afterwards. An annotation that is not a readable
 * stash is left in place for the hop to refuse.
 */
export function splitStack(object: JsonObject, from: string, target: string): Split {
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
  if (depth(parsed) > MAX_STACK) return tooManyStashes();
  // Every stash under the top one must be one: a `below` of `{"foo": 1}` would otherwise ride
  // along and come back, alone, as an annotation no conversion can read.
  for (let s: unknown = parsed.below, level = 2; s !== undefined; s = (s as StashJson).below, level++) {
    if (!isObject(s) || typeof s.restores !== 'string' || !Array.isArray(s.patch)) {
      return E.left({
        code: 'stash-malformed',
        path: STASH_PATH,
        message: `has a "below" that is not a stash (stash ${level} of the stack)`,
      });
    }
  }
  const stashes = stashesOf(parsed); // (each level checked above)
  const at = layerFor(
    stashes.map((s) => s.restores as string),
    from,
    target,
  );
  const refusal = carriedRefusal(stashes, at, text);
  if (refusal !== undefined) return E.left(refusal);
  if (at >= 0) {
    return E.right({
      object: withAnnotation(object, stashJson(stashes[at])),
      buried: buried(stashes.filter((_, i) => i !== at)),
    });
  }
  // Not this hop's: take it off whole (honouring what writing it had created) and keep it.
  const taken = takeStash(object);
  if (E.isLeft(taken)) return E.right({ object, buried: NOTHING_BURIED });
  return E.right({ object: taken.right.rest, buried: buried(stashes, taken.right.stash) });
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
    stashJson({ ...(JSON.parse(text) as StashJson), below: JSON.parse(buried.text) as StashJson });
  return withAnnotation(object, joined);
}

/**
 * `splitStack(joinStack(object, buried), target)`, for the object a hop just made and what
 * it left buried, without building and re-reading the joined annotation: only the hop's own
 * stash (the top) is read. Every check `splitStack` and `takeStash` would make of the joined
 * text is decided from the parts (its stash count, size and bracket count); where one could
 * refuse it, the text is joined and split for real, so the refusal is the same.
 */
export function splitPending(object: JsonObject, pending: Buried, from: string, target: string): Split {
  if (pending.text === undefined) return splitStack(object, from, target);
  const slow = () => splitStack(joinStack(object, pending), from, target);
  const top = annotationText(object);
  if (typeof top !== 'string') {
    // The hop stashed nothing: the stack alone is the annotation, its top stash unchanged.
    if (pending.restores === undefined || layerFor(pending.layers, from, target) >= 0) return slow();
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
  // (carried on, it must restore a chain version: splitStack refuses it otherwise)
  if (!isChainVersion(stash.restores)) return slow();
  const layers = [stash.restores, ...pending.layers];
  // A stash under the top is the hop's: split the joined stack for real.
  if (layerFor(layers, from, target) >= 0) return slow();
  return E.right({
    object: rest,
    buried: {
      text: joined,
      depth: pending.depth + 1,
      brackets,
      restores: stash.restores,
      created: stash.created,
      layers,
    },
  });
}
