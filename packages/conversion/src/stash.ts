import * as E from 'fp-ts/lib/Either.js';
import {
  deepEqual,
  deletePath,
  formatPath,
  getPath,
  isObject,
  isPrefix,
  type Json,
  type JsonObject,
  type OwnedSet,
  ownPath,
  type Path,
  setPath,
} from './path.js';
import { PathPrefixes } from './path-prefixes.js';
import {
  checkStashedAnnotations,
  jsonDepthExceeds,
  MAX_ANNOTATIONS_BYTES,
  MAX_STASH_DEPTH,
  openingBracketsExceed,
  type StashRefusal,
} from './stash-rules.js';

/**
 * The annotation that makes conversion lossless. Whatever the target version cannot express
 * is written here, as a patch that turns the plain conversion back into the original.
 *
 * Upstream's v0.3 webhooks use `cluster.x-k8s.io/conversion-data` for the same idea, but they
 * decode that annotation as a v1alpha3 object; a v1alpha2 object carrying our payload under
 * that key would be misread by them, so the stash has its own key.
 */
export const CONVERSION_DATA_ANNOTATION = 'conversion.capi-kit.dev/data';

/**
 * What writing a stash had to make, so that taking it makes the object as it was: `metadata`
 * or `metadata.annotations` created, or `annotations: null` replaced. A reader that does not
 * know a marker refuses the stash rather than leave the object changed.
 */
const CREATED_MARKERS = ['metadata', 'annotations', 'null-annotations'] as const;

function isCreatedMarker(value: unknown): value is Stash['created'] & string {
  return (CREATED_MARKERS as readonly unknown[]).includes(value);
}

/**
 * One difference between the original object and what the plain conversion back produces.
 * `value` absent: the original had no such field. `base` absent: the conversion back
 * produces none. Paths are object keys only: arrays are stashed whole. (A hop may bind an
 * entry to more than its path, its `base` saying what to: see `HopTable.stashBinding`.)
 */
export interface StashEntry {
  readonly path: readonly string[];
  readonly value?: Json;
  readonly base?: Json;
}

/** A key pair whose private key the stash left in a Secret (key-pairs.ts). */
export interface KeyPairRecord {
  /** Path of the `{cert, key}` object in the v1alpha1 object. */
  readonly path: readonly string[];
  /** The Secret holding `tls.crt` and `tls.key`, in the object's own namespace. */
  readonly secret: string;
}

/** A providerSpec field whose value the stash left in a Secret (secret-fields.ts): credentials. */
export interface SecretFieldRecord {
  /** Path of the field in the v1alpha1 object (a key of the providerSpec value). */
  readonly path: readonly string[];
  /** The Secret holding the value under the field's own name, in the object's own namespace. */
  readonly secret: string;
}

export interface Stash {
  /** The apiVersion this stash restores (the version the object was converted from). */
  readonly restores: string;
  readonly entries: readonly StashEntry[];
  /**
   * Fields a provider plug-in filled in on the way (Machine `spec.infrastructureRef`, …) and
   * their values. A conversion back does not need to stash them again while they are unchanged:
   * the plug-in makes them again.
   */
  readonly generated?: readonly { readonly path: readonly string[]; readonly value: Json }[];
  /**
   * Set when writing the annotation had to create `metadata` or `metadata.annotations`, or
   * to replace `annotations: null` (`null-annotations`): taking the stash puts that back.
   */
  readonly created?: (typeof CREATED_MARKERS)[number];
  /**
   * Set when other stashes lie under this one (`below`, written by the chain's later hops):
   * only the chain's stack (chain/stack.ts) reads them, so a reader of this stash alone must
   * not consume it, or they would be dropped.
   */
  readonly stacked?: true;
  /**
   * Key pairs whose private key the stash does not keep: it is in the Secret named, which the
   * way down reads (key-pairs.ts). Written as `patch` items without a path (`{pair, secret}`),
   * so a reader that does not know them refuses the stash instead of restoring the pair
   * without its key.
   */
  readonly keyPairs?: readonly KeyPairRecord[];
  /**
   * Fields whose value the stash does not keep (credentials): it is in the Secret named, which
   * the way down reads (secret-fields.ts). Written as `patch` items without a path
   * (`{field, secret}`), for the same reason as `keyPairs`.
   */
  readonly secretFields?: readonly SecretFieldRecord[];
}

/**
 * The differences that turn `base` into `original`, field by field. A subtree the two share
 * (the same object: a copy-on-write conversion back shares what no row touched) has none,
 * so it is not walked.
 */
export function diff(original: JsonObject, base: JsonObject): StashEntry[] {
  const out: StashEntry[] = [];
  diffInto(original, base, [], out);
  return out;
}

// `at` is one path stack for the whole walk (copied only into an entry); `base` is walked for
// keys `original` lacks only when it has more keys than the two share.
function diffInto(original: JsonObject, base: JsonObject, at: string[], out: StashEntry[]): void {
  let shared = 0;
  for (const key of Object.keys(original)) {
    const o = original[key]!;
    if (!Object.hasOwn(base, key)) {
      out.push({ path: [...at, key], value: o });
      continue;
    }
    shared++;
    const b = base[key]!;
    if (o === b) continue;
    if (isObject(o) && isObject(b)) {
      at.push(key);
      diffInto(o, b, at, out);
      at.pop();
    } else if (!deepEqual(o, b)) out.push({ path: [...at, key], value: o, base: b });
  }
  const baseKeys = Object.keys(base);
  if (baseKeys.length === shared) return;
  for (const key of baseKeys) {
    if (!Object.hasOwn(original, key)) out.push({ path: [...at, key], base: base[key]! });
  }
}

export interface ApplyResult {
  readonly applied: StashEntry[];
  /** Entries whose field was edited after the stash was written: the edit wins. */
  readonly skipped: StashEntry[];
}

/**
 * Applies a stash to `target` (mutating). An entry applies only where the target still holds
 * the value the conversion produced when the stash was written (`base`); a field edited since
 * keeps its edit, as upstream's hub/spoke conversion keeps spoke edits. With `owned`, `target`
 * is a copy-on-write result (ownPath); the values it gets are recorded in `fresh`.
 */
export function applyStash(
  target: JsonObject,
  entries: readonly StashEntry[],
  owned?: OwnedSet,
  fresh?: Set<object>,
): ApplyResult {
  const applied: StashEntry[] = [];
  const skipped: StashEntry[] = [];
  for (const entry of entries) {
    const current = getPath(target, entry.path);
    const expected = entry.base;
    const unchanged = expected === undefined ? current === undefined : deepEqual(current, expected);
    if (!unchanged) {
      skipped.push(entry);
      continue;
    }
    if (owned !== undefined) ownPath(target, entry.path, owned, entry.path.length - 1);
    if (entry.value === undefined) deletePath(target, entry.path);
    else if (setPath(target, entry.path, entry.value)) {
      // (entries are freshly decoded: no copy needed)
      if (fresh !== undefined && entry.value !== null && typeof entry.value === 'object')
        fresh.add(entry.value);
    } else {
      // A path that runs through a list by a key, or through a scalar: nothing was written,
      // so it is not reported as restored (a forged `status.conditions.5` was).
      skipped.push(entry);
      continue;
    }
    applied.push(entry);
  }
  return { applied, skipped };
}

/** Up to this many generated paths, withoutGenerated compares paths directly. */
const FEW_GENERATED = 8;

/**
 * Whether a generated reference (`{name, namespace}`, or a bootstrap's `{configRef: …}`)
 * names `id`: plug-ins name what they generate after the object, so going up again they
 * make references to the object's current name and namespace, not to the ones in the stash.
 */
function namesObject(value: Json, id: { name?: string; namespace?: string }): boolean {
  if (!isObject(value)) return false;
  const ref = isObject(value.configRef) ? value.configRef : value;
  return ref.name === id.name && ref.namespace === id.namespace;
}

/**
 * Drops entries under plug-in generated paths while those fields still hold the generated
 * values and those still name the object (`id`, read from `object`): only then does the
 * plug-in make them again. Otherwise (edited, or the object renamed or moved) every entry
 * stays. Linear in entries + generated paths (PathPrefixes), not their product.
 */
export function withoutGenerated(
  entries: readonly StashEntry[],
  object: JsonObject,
  id: { name?: string; namespace?: string },
  generated: Stash['generated'],
): StashEntry[] {
  if (generated === undefined || generated.length === 0) return [...entries];
  for (const g of generated) {
    if (!deepEqual(getPath(object, g.path), g.value) || !namesObject(g.value, id)) return [...entries];
  }
  // A checked stash lists each of its hop's few generated paths at most once: comparing
  // every entry with each is linear too, and builds no trie.
  if (generated.length <= FEW_GENERATED) {
    return entries.filter((e) => {
      for (const g of generated) if (isPrefix(g.path, e.path)) return false;
      return true;
    });
  }
  const prefixes = new PathPrefixes(generated.map((g) => g.path));
  return entries.filter((e) => !prefixes.coversPath(e.path));
}

/**
 * One `patch` item as written: `p`, then `v` and `b` when present. Built as literals (no
 * spreads) so every item of a shape shares one hidden class, which JSON.stringify's fast
 * path serialises without property lookups.
 */
function patchItem(e: StashEntry): { p: readonly string[]; v?: Json; b?: Json } {
  if (e.value === undefined) return e.base === undefined ? { p: e.path } : { p: e.path, b: e.base };
  return e.base === undefined ? { p: e.path, v: e.value } : { p: e.path, v: e.value, b: e.base };
}

/** DEL and the C1 controls, which JSON.stringify leaves raw (it escapes only C0). */
const RAW_CONTROLS = /[\u007f-\u009f]/g;

/**
 * A stash (or stack of stashes) as annotation text: JSON.stringify, with DEL and the C1
 * controls written as \u escapes too. Left raw, a stashed value holding one (U+0085 in a
 * providerSpec field) made an annotation that the manifest reader, and so the way back,
 * refuses ("contains the control character U+0085"). In JSON text they occur only inside
 * strings, where the escape reads back as the same character.
 */
export function stashJson(value: unknown): string {
  const text = JSON.stringify(value);
  RAW_CONTROLS.lastIndex = 0;
  if (!RAW_CONTROLS.test(text)) return text;
  return text.replace(RAW_CONTROLS, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** The annotation text: one JSON.stringify of a plain structure built for it. */
function encodeStash(stash: Stash): string {
  const patch = new Array<unknown>(stash.entries.length);
  for (let i = 0; i < patch.length; i++) patch[i] = patchItem(stash.entries[i]!);
  for (const { path, secret } of stash.keyPairs ?? []) patch.push({ pair: path, secret });
  for (const { path, secret } of stash.secretFields ?? []) patch.push({ field: path, secret });
  const payload: { restores: string; patch: unknown[]; generated?: unknown[]; created?: string } = {
    restores: stash.restores,
    patch,
  };
  const generated = stash.generated;
  if (generated !== undefined && generated.length > 0) {
    const items = new Array<{ p: readonly string[]; v: Json }>(generated.length);
    for (let i = 0; i < items.length; i++) items[i] = { p: generated[i]!.path, v: generated[i]!.value };
    payload.generated = items;
  }
  if (stash.created !== undefined) payload.created = stash.created;
  return stashJson(payload);
}

function isPath(value: unknown): value is string[] {
  if (!Array.isArray(value)) return false;
  for (let i = 0; i < value.length; i++) if (typeof value[i] !== 'string') return false;
  return true;
}

/**
 * Whether parsed JSON nests arrays and objects deeper than `limit` (the depth the text's
 * brackets have, as `jsonDepthExceeds` counts it). Recursion stops one level past `limit`,
 * so the stack it uses is bounded by `limit` whatever the input (no explicit stack to
 * allocate, and no per-object array of values).
 */
export function valueDepthExceeds(value: unknown, limit: number): boolean {
  if (value === null || typeof value !== 'object') return false;
  if (limit <= 0) return true;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) if (valueDepthExceeds(value[i], limit - 1)) return true;
    return false;
  }
  const object = value as Record<string, unknown>;
  const keys = Object.keys(object);
  for (let i = 0; i < keys.length; i++) if (valueDepthExceeds(object[keys[i]!], limit - 1)) return true;
  return false;
}

/** Up to this many stash entries, overlappingPaths compares paths pairwise. */
const FEW_ENTRIES = 8;

/**
 * Why `entries` cannot all be applied as written (undefined: they can). A stash diff writes
 * never lists a field twice, or a field and one inside it; a tampered one that did would be
 * applied in part, the first entry silently winning, so it is refused, naming both paths.
 * A real stash has a handful of entries, compared pairwise (nothing allocated: this runs on
 * every conversion down); more go through PathPrefixes, linear in the paths' total length.
 */
function overlappingPaths(entries: readonly StashEntry[]): string | undefined {
  if (entries.length <= FEW_ENTRIES) {
    for (let i = 1; i < entries.length; i++) {
      for (let j = 0; j < i; j++) {
        const message = overlapMessage(entries[j]!.path, entries[i]!.path);
        if (message !== undefined) return message;
      }
    }
    return undefined;
  }
  const paths = new PathPrefixes();
  for (const { path } of entries) {
    const earlier = paths.add(path);
    if (earlier !== undefined) return overlapMessage(earlier, path);
  }
  return undefined;
}

/** Why two stash paths cannot both be applied: one is the other, or holds it (undefined: neither). */
function overlapMessage(a: Path, b: Path): string | undefined {
  const [outer, inner] = a.length <= b.length ? [a, b] : [b, a];
  if (!isPrefix(outer, inner)) return undefined;
  return outer.length === inner.length
    ? `lists ${formatPath(inner)} twice`
    : `lists ${formatPath(outer)} and ${formatPath(inner)}, one inside the other`;
}

function decodeStash(text: string): E.Either<string, Stash> {
  let raw: unknown;
  // Depth is checked before any recursive walk over the parsed stash. JSON.parse itself does
  // not recurse (V8's parser keeps its own stack), and counting the parsed tree (tens of
  // nodes) is much cheaper than scanning the text (every character); text that is not JSON
  // is scanned, so a deep one is still refused as deep.
  const tooDeep = `nests deeper than ${MAX_STASH_DEPTH} levels`;
  try {
    raw = JSON.parse(text);
  } catch {
    return E.left(jsonDepthExceeds(text, MAX_STASH_DEPTH) ? tooDeep : 'is not JSON');
  }
  // (a stash with few brackets cannot be deep: only one with many is walked)
  if (openingBracketsExceed(text, MAX_STASH_DEPTH) && valueDepthExceeds(raw, MAX_STASH_DEPTH))
    return E.left(tooDeep);
  return readStash(raw);
}

/**
 * A parsed stash as `takeStash` reads it (its depth aside), or why it is none: the message
 * `takeStash` refuses it with. The chain's stack (stack.ts) reads each stash it carries so.
 */
export function readStash(raw: unknown): E.Either<string, Stash> {
  if (!isObject(raw) || typeof raw.restores !== 'string' || !Array.isArray(raw.patch)) {
    return E.left('is not a conversion stash (expected {"restores": …, "patch": […]})');
  }
  const entries: StashEntry[] = [];
  const keyPairs: KeyPairRecord[] = [];
  const secretFields: SecretFieldRecord[] = [];
  for (const item of raw.patch) {
    if (isObject(item) && !Object.hasOwn(item, 'p') && Object.hasOwn(item, 'pair')) {
      if (!isPath(item.pair) || typeof item.secret !== 'string')
        return E.left('has a malformed key-pair entry (expected {"pair": [path], "secret": name})');
      keyPairs.push({ path: item.pair, secret: item.secret });
      continue;
    }
    if (isObject(item) && !Object.hasOwn(item, 'p') && Object.hasOwn(item, 'field')) {
      if (!isPath(item.field) || typeof item.secret !== 'string')
        return E.left('has a malformed secret-field entry (expected {"field": [path], "secret": name})');
      secretFields.push({ path: item.field, secret: item.secret });
      continue;
    }
    if (!isObject(item) || !isPath(item.p)) return E.left('has a patch entry without a path');
    // A path is one flat list in the text, whose depth the limit counts, but applying it makes
    // one level of the object per key: a forged path of thousands of keys wrote an object past
    // what the conversion's recursive walks are kept to (it overflowed, blaming the input).
    if (item.p.length > MAX_STASH_DEPTH) {
      return E.left(
        `nests deeper than ${MAX_STASH_DEPTH} levels: a patch path of ${item.p.length} keys makes one level per key`,
      );
    }
    const hasValue = Object.hasOwn(item, 'v');
    const hasBase = Object.hasOwn(item, 'b');
    // Literals, not spreads: one hidden class per shape for the checks and applyStash.
    entries.push(
      hasValue
        ? hasBase
          ? { path: item.p, value: item.v!, base: item.b! }
          : { path: item.p, value: item.v! }
        : hasBase
          ? { path: item.p, base: item.b! }
          : { path: item.p },
    );
  }
  const overlap = overlappingPaths(entries);
  if (overlap !== undefined) return E.left(overlap);
  const generated: { path: string[]; value: Json }[] = [];
  if (raw.generated !== undefined) {
    if (!Array.isArray(raw.generated)) return E.left('has a malformed "generated" list');
    for (const g of raw.generated) {
      if (!isObject(g) || !isPath(g.p) || g.v === undefined)
        return E.left('has a malformed "generated" entry');
      generated.push({ path: g.p, value: g.v });
    }
  }
  const created = raw.created;
  if (created !== undefined && !isCreatedMarker(created)) {
    return E.left('has an unknown "created" marker');
  }
  return E.right({
    restores: raw.restores,
    entries,
    ...(generated.length > 0 ? { generated } : {}),
    ...(created === undefined ? {} : { created }),
    ...(raw.below === undefined ? {} : { stacked: true }),
    ...(keyPairs.length > 0 ? { keyPairs } : {}),
    ...(secretFields.length > 0 ? { secretFields } : {}),
  });
}

/** Where the stash lives in an object, for refusals. */
export const STASH_PATH = formatPath(['metadata', 'annotations', CONVERSION_DATA_ANNOTATION]);

function malformed(why: string): StashRefusal {
  return { code: 'stash-malformed', path: STASH_PATH, message: why };
}

/**
 * Splits an object into its stash (if it carries one) and a copy without the annotation.
 * Fails when the annotation is present but unreadable, too large or too deep. (What the
 * stash may touch is checked by stash-rules.ts against the hop's move table.)
 */
export function takeStash(object: JsonObject): E.Either<StashRefusal, { stash?: Stash; rest: JsonObject }> {
  const text = getPath(object, ['metadata', 'annotations', CONVERSION_DATA_ANNOTATION]);
  if (text === undefined) return E.right({ rest: object });
  if (typeof text !== 'string') return E.left(malformed('is not a string'));
  // UTF-8 takes at most three bytes per UTF-16 unit: a short text needs no byte count.
  const bytes = text.length * 3 <= MAX_ANNOTATIONS_BYTES ? 0 : Buffer.byteLength(text, 'utf8');
  if (bytes > MAX_ANNOTATIONS_BYTES) {
    return E.left({
      code: 'stash-too-large',
      path: STASH_PATH,
      message: `is ${bytes} bytes, over the API server's ${MAX_ANNOTATIONS_BYTES}-byte (256 KiB) limit for all annotations`,
    });
  }
  const decoded = decodeStash(text);
  if (E.isLeft(decoded)) {
    const deep = decoded.left.startsWith('nests deeper');
    return E.left({ ...malformed(decoded.left), ...(deep ? { code: 'stash-too-deep' as const } : {}) });
  }
  const stash = decoded.right;
  return E.right({ stash, rest: withoutStash(object, stash.created) });
}

/**
 * A copy of `object` without its stash annotation (which it has), taking away the
 * annotations map and `metadata` too when writing the stash had created them (`created`) and
 * they hold nothing else. Copies only along the path to the annotation; the rest is shared
 * (and never mutated).
 */
export function withoutStash(object: JsonObject, created: Stash['created']): JsonObject {
  const rest: JsonObject = { ...object };
  const metadata: JsonObject = { ...(object.metadata as JsonObject) };
  const annotations: JsonObject = { ...(metadata.annotations as JsonObject) };
  delete annotations[CONVERSION_DATA_ANNOTATION];
  metadata.annotations = annotations;
  rest.metadata = metadata;
  if (created !== undefined && Object.keys(annotations).length === 0) {
    if (created === 'null-annotations') {
      metadata.annotations = null; // (in place: the key keeps its position)
    } else {
      delete metadata.annotations;
      if (created === 'metadata' && Object.keys(metadata).length === 0) delete rest.metadata;
    }
  }
  return rest;
}

/** The levels a stash puts above an entry's value: the payload, its `patch` list, the entry. */
const ENTRY_LEVELS = 3;

/**
 * What the way back asks of an object that has just been given its stash: annotations the API
 * server takes (`checkStashedAnnotations`), and a stash no deeper than `takeStash` reads. The
 * manifest reader allows documents far deeper than MAX_STASH_DEPTH, so a field 150 levels down
 * that a conversion had to stash was written here and refused on the way back: the object
 * could no longer be converted. It is refused here instead, naming the field (one of
 * `entries`, what the stash keeps). (A stack joined under the stash is read one stash at a
 * time, so only its size is checked: `checkStashedAnnotations`.)
 */
export function checkWrittenStash(
  object: JsonObject,
  entries: readonly StashEntry[],
): E.Either<StashRefusal, void> {
  const size = checkStashedAnnotations(object);
  if (E.isLeft(size)) return size;
  const text = getPath(object, ['metadata', 'annotations', CONVERSION_DATA_ANNOTATION]);
  // (a stash with few brackets cannot be deep: the text is scanned only past the limit)
  if (
    typeof text !== 'string' ||
    !openingBracketsExceed(text, MAX_STASH_DEPTH) ||
    !jsonDepthExceeds(text, MAX_STASH_DEPTH)
  )
    return E.right(undefined);
  const room = MAX_STASH_DEPTH - ENTRY_LEVELS;
  // (an entry holds the value to put back and the value it expects to find: either can be deep)
  const deep = entries.find((e) => valueDepthExceeds(e.value, room) || valueDepthExceeds(e.base, room));
  return E.left({
    code: 'stash-too-deep',
    path: deep === undefined ? STASH_PATH : formatPath(deep.path),
    message:
      deep === undefined
        ? `with the conversion stash, would nest deeper than ${MAX_STASH_DEPTH} levels, which the way back refuses`
        : `nests more than ${room} levels deep (as it was or as converted): the conversion stash that keeps it for the way back would nest deeper than ${MAX_STASH_DEPTH} levels, which the way back refuses`,
  });
}

/** Writes `stash` into `object` (mutating), recording what it had to create. */
export function putStash(object: JsonObject, stash: Omit<Stash, 'created'>): void {
  let created: Stash['created'];
  if (!isObject(object.metadata)) {
    object.metadata = {};
    created = 'metadata';
  }
  const metadata = object.metadata as JsonObject;
  if (!isObject(metadata.annotations)) {
    // (checkShape lets only null or nothing through here)
    created ??= metadata.annotations === null ? 'null-annotations' : 'annotations';
    metadata.annotations = {};
  }
  (metadata.annotations as JsonObject)[CONVERSION_DATA_ANNOTATION] = encodeStash({
    ...stash,
    ...(created === undefined ? {} : { created }),
  });
}
