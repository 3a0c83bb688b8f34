import * as E from 'fp-ts/lib/Either.js';
import {
  deepEqual,
  dotted,
  formatPath,
  getPath,
  isObject,
  isPrefix,
  type Json,
  type JsonObject,
  type Path,
} from './path.js';

/**
 * What a conversion stash may touch. The stash annotation arrives with the object, so anyone
 * who can annotate the object writes it: it is data, never instructions. It may only put back
 * what a conversion hop moved or dropped, so every hop derives its rules from its own field-move
 * table (`stashRules`), and every stash is checked against them before any entry is applied
 * (`checkStash`) and before one is written (`partitionStashEntries`).
 *
 * The rules are data (the tables below) so that each hop, whatever versions it joins, applies
 * the same ones.
 */

/** Why a stash was refused. Every refusal names the stash path (or the entry path) it is about. */
export type StashRefusalCode =
  | 'stash-too-large'
  | 'stash-too-deep'
  | 'stash-malformed'
  | 'stash-identity'
  | 'stash-outside-moves'
  | 'stash-bootstrap-data'
  | 'stash-cross-namespace'
  | 'stash-generated-path'
  | 'stash-key-pair'
  | 'stash-secret-field'
  | 'annotations-too-large';

export interface StashRefusal {
  readonly code: StashRefusalCode;
  /** JSON path in the object: the annotation itself, or the field an entry would change. */
  readonly path: string;
  readonly message: string;
}

/**
 * The API server refuses an object whose annotations (keys and values, in bytes) add up to
 * more than 256 KiB (apimachinery's TotalAnnotationSizeLimitB); a stash is refused at that size
 * before it is parsed, and a conversion whose output would pass it fails instead of writing an
 * object the server will refuse.
 */
export const MAX_ANNOTATIONS_BYTES = 256 * 1024;

/**
 * Nesting bound for a stash (arrays and objects, counted in the JSON text before parsing).
 * Deep enough for any providerSpec seen in practice, shallow enough that the recursive
 * walks (diff, deepEqual, clone) never come near the stack limit.
 */
export const MAX_STASH_DEPTH = 100;

/**
 * Paths no stash may change, whatever a move table says: an object's identity and kind, its
 * owners, and bootstrap data (which a bootstrap provider fills in and a node runs as root).
 * A pattern segment `*` matches any one key; a pattern matches the path and everything under it.
 */
interface ForbiddenRule {
  readonly pattern: readonly string[];
  /** Matches anywhere in the path (templates included), not only from the root. */
  readonly anywhere?: boolean;
  readonly code: StashRefusalCode;
  readonly why: string;
  /**
   * A hop may name paths where this rule does not hold because the source version cannot hold
   * the field at all (v1alpha4 has no `bootstrap.data`, so bringing v1alpha3's back is the
   * stash's job, not an injection). See `StashRules.exempt`.
   */
  readonly exemptable?: boolean;
}

const FORBIDDEN: readonly ForbiddenRule[] = [
  { pattern: ['apiVersion'], code: 'stash-identity', why: 'the stash never changes an object’s apiVersion' },
  { pattern: ['kind'], code: 'stash-identity', why: 'the stash never changes an object’s kind' },
  { pattern: ['metadata', 'name'], code: 'stash-identity', why: 'the stash never renames an object' },
  {
    pattern: ['metadata', 'generateName'],
    code: 'stash-identity',
    why: 'the stash never renames an object',
  },
  {
    pattern: ['metadata', 'namespace'],
    code: 'stash-identity',
    why: 'the stash never moves an object to another namespace',
  },
  { pattern: ['metadata', 'uid'], code: 'stash-identity', why: 'the stash never changes an object’s uid' },
  {
    pattern: ['metadata', 'ownerReferences'],
    code: 'stash-identity',
    why: 'the stash never changes owner references',
  },
  {
    // Embedded metadata (a v1alpha2 Machine's spec.metadata, a v1alpha3 machine template's):
    // only where the hop's source version cannot hold them at all.
    pattern: ['ownerReferences'],
    anywhere: true,
    code: 'stash-identity',
    why: 'the stash never changes owner references',
    exemptable: true,
  },
  {
    pattern: ['bootstrap', 'data'],
    anywhere: true,
    code: 'stash-bootstrap-data',
    why: 'the stash never sets bootstrap data (the bootstrap provider writes it)',
    exemptable: true,
  },
];

/** Top-level keys a stash entry may be under at all. */
const STASH_ROOTS: ReadonlySet<string> = new Set(['metadata', 'spec', 'status']);

/** The rules one hop (one kind, one pair of versions) applies to stashes. */
export interface StashRules {
  /** Paths (and everything under them) the hop's move table moves, changes or drops. */
  readonly allowed: readonly (readonly string[])[];
  /** Paths a provider plug-in fills in on this hop (a stash's `generated` list may name only these). */
  readonly generated: readonly (readonly string[])[];
  /**
   * Paths where `exemptable` rules do not apply: fields the hop's target version has and its
   * source version cannot hold, which only a stash can bring back (a hop table lists them).
   */
  readonly exempt?: readonly (readonly string[])[];
}

/**
 * Rules from a hop's move table: `paths` are every dotted path its rows read or write, in
 * either version, already joined to the path the row group applies at.
 */
export function stashRules(paths: Iterable<string>, generated: Iterable<string> = []): StashRules {
  const unique = (ps: Iterable<string>) => [...new Set(ps)].filter((p) => p !== '').map((p) => dotted(p));
  return { allowed: unique(paths), generated: unique(generated) };
}

/** One stash entry as read from the annotation (see stash.ts). */
export interface CheckedEntry {
  readonly path: readonly string[];
  readonly value?: Json;
  readonly base?: Json;
}

// Plain loops, no callbacks: this runs for every leaf of every stash entry, every conversion.
function matches(rule: ForbiddenRule, path: Path): boolean {
  const pattern = rule.pattern;
  const n = pattern.length;
  const starts = rule.anywhere ? path.length - n + 1 : Math.min(1, path.length - n + 1);
  outer: for (let s = 0; s < starts; s++) {
    for (let i = 0; i < n; i++) {
      const seg = pattern[i];
      if (seg !== '*' && seg !== path[s + i]) continue outer;
    }
    return true;
  }
  return false;
}

function refuse(code: StashRefusalCode, path: Path, message: string): StashRefusal {
  return { code, path: formatPath(path), message };
}

/**
 * A forbidden rule can match a path only if the path starts with the first segment of a
 * rule anchored at the root, or holds the first segment of a rule that matches anywhere:
 * paths that do neither (nearly every leaf of a providerSpec) skip the rule loop. A `*` as a
 * first segment would match everything, so it turns the shortcut off.
 */
const ROOT_FIRST: ReadonlySet<string> = new Set(
  FORBIDDEN.filter((r) => !r.anywhere).map((r) => r.pattern[0]!),
);
const ANYWHERE_FIRST: ReadonlySet<string> = new Set(
  FORBIDDEN.filter((r) => r.anywhere).map((r) => r.pattern[0]!),
);
const FIRST_WILDCARD = ROOT_FIRST.has('*') || ANYWHERE_FIRST.has('*');

function mayBeForbidden(path: readonly string[]): boolean {
  if (FIRST_WILDCARD || ROOT_FIRST.has(path[0]!)) return true;
  for (let i = 0; i < path.length; i++) if (ANYWHERE_FIRST.has(path[i]!)) return true;
  return false;
}

/** `rules.allowed` as a trie of path segments; `end` marks a node where an allowed path ends. */
interface AllowedNode {
  end: boolean;
  readonly next: Map<string, AllowedNode>;
}

const allowedTries = new WeakMap<StashRules, AllowedNode>();

function allowedTrie(rules: StashRules): AllowedNode {
  let root = allowedTries.get(rules);
  if (root === undefined) {
    root = { end: false, next: new Map() };
    for (const allowed of rules.allowed) {
      let node = root;
      for (const seg of allowed) {
        let child = node.next.get(seg);
        if (child === undefined) {
          child = { end: false, next: new Map() };
          node.next.set(seg, child);
        }
        node = child;
      }
      node.end = true;
    }
    allowedTries.set(rules, root);
  }
  return root;
}

/** Some allowed path is a prefix of `path` (the path or everything above it is moved). */
function underAllowed(path: readonly string[], rules: StashRules): boolean {
  let node: AllowedNode | undefined = allowedTrie(rules);
  for (let i = 0; ; i++) {
    if (node.end) return true;
    if (i === path.length) return false;
    node = node.next.get(path[i]!);
    if (node === undefined) return false;
  }
}

/** `path` is a prefix of some allowed path (a container on the way to a moved field). */
function aboveAllowed(path: readonly string[], rules: StashRules): boolean {
  let node: AllowedNode | undefined = allowedTrie(rules);
  for (let i = 0; i < path.length; i++) {
    node = node.next.get(path[i]!);
    if (node === undefined) return false;
  }
  return rules.allowed.length > 0;
}

/**
 * Checks one path a stash would change against the fixed rules and the hop's move table.
 * `suspect` and `under`, when the caller knows them from the path's prefix, spare the
 * per-leaf work: `suspect` is `mayBeForbidden(path)`, `under` true says `underAllowed(path)`.
 */
function checkLeaf(
  path: readonly string[],
  rules: StashRules,
  suspect = mayBeForbidden(path),
  under = false,
): StashRefusal | undefined {
  if (path.length === 0)
    return refuse('stash-identity', path, 'a stash entry may not replace the whole object');
  if (suspect)
    for (const rule of FORBIDDEN) {
      if (!matches(rule, path)) continue;
      if (rule.exemptable && rules.exempt?.some((p) => isPrefix(p, path))) continue;
      return refuse(rule.code, path, rule.why);
    }
  if (!STASH_ROOTS.has(path[0]!)) {
    return refuse(
      'stash-outside-moves',
      path,
      'a stash may only change fields under metadata, spec or status',
    );
  }
  if (!under && !underAllowed(path, rules)) {
    return refuse(
      'stash-outside-moves',
      path,
      'this conversion neither moves nor drops the field, so a stash has nothing to restore there',
    );
  }
  return undefined;
}

/** The API groups whose owner references a conversion renames (see metadata.ts, OWNER_KINDS). */
const CLUSTER_API_GROUPS: ReadonlySet<string> = new Set(['cluster.k8s.io', 'cluster.x-k8s.io']);

function isClusterApiVersion(value: Json | undefined): boolean {
  return typeof value === 'string' && CLUSTER_API_GROUPS.has(value.slice(0, value.indexOf('/')));
}

/**
 * The one change to owner references a stash may undo: the conversion points owner references
 * to Cluster API kinds at the other group version, so the way back may point them at the
 * version they had. Same owners, same order, same kind, name and uid: only a Cluster API
 * apiVersion differs.
 */
function onlyRenamesOwnerApiVersions(entry: CheckedEntry): boolean {
  const { path, value, base } = entry;
  if (path[path.length - 1] !== 'ownerReferences' || path[path.length - 2] !== 'metadata') return false;
  if (!Array.isArray(value) || !Array.isArray(base) || value.length !== base.length) return false;
  return value.every((v, i) => {
    const b = base[i];
    if (deepEqual(v, b)) return true;
    if (!isObject(v) || !isObject(b)) return false;
    const { apiVersion: va, ...vRest } = v;
    const { apiVersion: ba, ...bRest } = b;
    return isClusterApiVersion(va) && isClusterApiVersion(ba) && deepEqual(vRest, bRest);
  });
}

/**
 * `….infrastructureRef.namespace`, `….configRef.namespace`, a health check's
 * `remediationTemplate.namespace`, v1beta1's `topology.classNamespace`, v1alpha1's
 * `providerSpec.valueFrom.machineClass.namespace`: the namespace of an object reference, which
 * Cluster API controllers (and a conversion up, resolving the MachineClass) follow in the
 * management cluster. (Other namespaces, such as a kubelet `configSource.configMap.namespace`,
 * name objects elsewhere.)
 */
function isReferenceNamespace(path: readonly string[]): boolean {
  const last = path[path.length - 1];
  const holder = path[path.length - 2];
  // v1beta1's topology names its ClusterClass's namespace beside the class, not in a `…Ref`.
  if (last === 'classNamespace') return holder === 'topology';
  if (last !== 'namespace' || holder === undefined) return false;
  return holder.endsWith('Ref') || holder === 'machineClass' || holder === 'remediationTemplate';
}

function isEmptyContainerOnTheWay(path: readonly string[], leaf: Json, rules: StashRules): boolean {
  return (
    isObject(leaf) &&
    Object.keys(leaf).length === 0 &&
    path.length > 0 &&
    STASH_ROOTS.has(path[0]!) &&
    aboveAllowed(path, rules)
  );
}

/**
 * Checks one entry: every leaf it would write or remove. A reference namespace it writes must
 * be the object's own (a reference never points into another namespace; an object without a
 * namespace gets no namespaced reference from a stash, since where it lands is unknown).
 */
export function checkEntry(
  entry: CheckedEntry,
  rules: StashRules,
  objectNamespace: string | undefined,
): StashRefusal | undefined {
  if (onlyRenamesOwnerApiVersions(entry)) return undefined;
  if (entry.value === undefined && entry.base === undefined) {
    return checkLeaf(entry.path, rules);
  }
  // One working copy of the path for both walks: checkLeaves restores it on return. What the
  // entry's own path says about its leaves is found once: every leaf under an allowed path
  // is allowed, and only segments below the entry can make a leaf suspect.
  const at = [...entry.path];
  const known = at.length > 0;
  const suspect = known ? mayBeForbidden(at) : undefined;
  const under = known && underAllowed(at, rules);
  return (
    checkLeaves(entry.value, at, true, rules, objectNamespace, suspect, under) ??
    checkLeaves(entry.base, at, false, rules, objectNamespace, suspect, under)
  );
}

/**
 * Checks every leaf of `value` at `at` (mutated on the way, restored on return): where an
 * entry writes (`writes`) or removes it. Arrays, scalars and empty objects are leaves. Stops
 * at the first refusal. Plain recursion, no callbacks: this runs for every leaf of every
 * stash entry, every conversion. `suspect` (undefined: unknown) is whether a forbidden rule
 * may match `at`, kept up to date segment by segment; `under`: `at` is under an allowed path.
 */
function checkLeaves(
  value: Json | undefined,
  at: string[],
  writes: boolean,
  rules: StashRules,
  objectNamespace: string | undefined,
  suspect: boolean | undefined,
  under: boolean,
): StashRefusal | undefined {
  if (value === undefined) return undefined;
  if (isObject(value)) {
    const keys = Object.keys(value);
    if (keys.length > 0) {
      for (const key of keys) {
        at.push(key);
        const deeper = suspect === undefined ? undefined : suspect || ANYWHERE_FIRST.has(key);
        const refusal = checkLeaves(value[key], at, writes, rules, objectNamespace, deeper, under);
        at.pop();
        if (refusal !== undefined) return refusal;
      }
      return undefined;
    }
  }
  // An empty object on the way to a field the hop moves is a container, not data: the way
  // back may need to put back (or take away) `spec.template: {}`.
  const refusal = isEmptyContainerOnTheWay(at, value, rules)
    ? undefined
    : checkLeaf(at, rules, suspect ?? mayBeForbidden(at), under);
  if (refusal !== undefined) return refusal;
  // (an empty namespace is an unset one: Cluster API resolves it to the object's own)
  if (writes && isReferenceNamespace(at) && value !== objectNamespace && value !== '') {
    return refuse(
      'stash-cross-namespace',
      at,
      `the stash would set namespace ${JSON.stringify(value)} on an object ${objectNamespace === undefined ? 'without a namespace' : `in namespace ${JSON.stringify(objectNamespace)}`}; a stash never points a reference into another namespace`,
    );
  }
  return undefined;
}

/** Checks a stash's `generated` list: only the paths the hop's plug-in fills in, each once. */
export function checkGenerated(
  generated: readonly { readonly path: readonly string[] }[],
  rules: StashRules,
): StashRefusal | undefined {
  // A known path equals one of the hop's generated paths: that path's index says which, so
  // "listed twice" is a repeated index (no key to build per path).
  const seen = new Set<number>();
  for (const g of generated) {
    const index = rules.generated.findIndex((p) => p.length === g.path.length && isPrefix(p, g.path));
    const known = index !== -1;
    if (!known || seen.has(index)) {
      return refuse(
        'stash-generated-path',
        g.path,
        known
          ? 'is listed twice as generated'
          : 'is not a field a conversion plug-in fills in, so a stash may not list it as generated',
      );
    }
    seen.add(index);
  }
  return undefined;
}

/**
 * The nesting depth of a JSON text, counted without parsing (strings skipped), stopping as
 * soon as it passes `limit`. Linear, no recursion: safe on hostile input.
 */
export function jsonDepthExceeds(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      depth++;
      if (depth > limit) return true;
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return false;
}

/**
 * How many opening brackets (`{` and `[`, in strings too) `text` holds, counting no further
 * than `limit + 1`. Each level of nesting needs one of its own, so text with at most `limit`
 * of them cannot nest deeper than `limit`. A few native searches: much cheaper than walking
 * the parsed value.
 */
export function openingBrackets(text: string, limit: number): number {
  let count = 0;
  for (let i = text.indexOf('{'); i !== -1; i = text.indexOf('{', i + 1)) if (++count > limit) return count;
  for (let i = text.indexOf('['); i !== -1; i = text.indexOf('[', i + 1)) if (++count > limit) return count;
  return count;
}

/** Whether `text` holds more than `limit` opening brackets (see `openingBrackets`). */
export function openingBracketsExceed(text: string, limit: number): boolean {
  return openingBrackets(text, limit) > limit;
}

/** The size the API server counts for an object's annotations: keys and values in UTF-8 bytes. */
export function annotationsBytes(annotations: unknown): number {
  if (!isObject(annotations)) return 0;
  let total = 0;
  for (const [key, value] of Object.entries(annotations)) {
    total += Buffer.byteLength(key, 'utf8');
    if (typeof value === 'string') total += Buffer.byteLength(value, 'utf8');
  }
  return total;
}

/**
 * A bound on `annotationsBytes` from string lengths alone: UTF-8 takes at most three bytes
 * per UTF-16 code unit. Below the limit, no byte needs counting.
 */
function annotationsBytesAtMost(annotations: JsonObject): number {
  let units = 0;
  for (const key of Object.keys(annotations)) {
    units += key.length;
    const value = annotations[key];
    if (typeof value === 'string') units += value.length;
  }
  return units * 3;
}

/** Refuses annotations the API server would refuse (see MAX_ANNOTATIONS_BYTES). */
export function checkAnnotationsSize(annotations: unknown): E.Either<StashRefusal, void> {
  if (isObject(annotations) && annotationsBytesAtMost(annotations) <= MAX_ANNOTATIONS_BYTES)
    return E.right(undefined);
  const bytes = annotationsBytes(annotations);
  if (bytes <= MAX_ANNOTATIONS_BYTES) return E.right(undefined);
  return E.left({
    code: 'annotations-too-large',
    path: 'metadata.annotations',
    message: `annotations total ${bytes} bytes, over the API server's limit of ${MAX_ANNOTATIONS_BYTES} bytes (256 KiB)`,
  });
}

/** `checkAnnotationsSize` of an object that has just been given its stash: the refusal says so. */
export function checkStashedAnnotations(object: JsonObject): E.Either<StashRefusal, void> {
  const size = checkAnnotationsSize(getPath(object, ['metadata', 'annotations']));
  return E.isLeft(size)
    ? E.left({ ...size.left, message: `with the conversion stash, ${size.left.message}` })
    : size;
}

/**
 * Splits entries a conversion is about to stash into those the rules let a stash restore and
 * the parts they never will (owner references, bootstrap data, references into another
 * namespace). Forbidden leaves are cut out of an entry's value and the rest is kept, so
 * `spec.bootstrap` keeps its `configRef` without its `data`. What is cut cannot be kept: the
 * caller reports it, so nothing is lost silently.
 */
export function partitionStashEntries<T extends CheckedEntry>(
  entries: readonly T[],
  rules: StashRules,
  objectNamespace: string | undefined,
): { readonly kept: T[]; readonly refused: StashRefusal[] } {
  const kept: T[] = [];
  const refused: StashRefusal[] = [];
  for (const entry of entries) {
    const refusal = checkEntry(entry, rules, objectNamespace);
    if (refusal === undefined) {
      kept.push(entry);
      continue;
    }
    const pruned = pruneValue(entry, rules, objectNamespace);
    if (pruned !== undefined && checkEntry(pruned.entry, rules, objectNamespace) === undefined) {
      kept.push(pruned.entry);
      refused.push(...pruned.cut);
    } else {
      refused.push(refusal);
    }
  }
  return { kept, refused };
}

/** The entry with every refused leaf of its value removed, and those leaves' refusals. */
function pruneValue<T extends CheckedEntry>(
  entry: T,
  rules: StashRules,
  objectNamespace: string | undefined,
): { entry: T; cut: StashRefusal[] } | undefined {
  if (!isObject(entry.value)) return undefined;
  const cut: StashRefusal[] = [];
  const prune = (value: Json, at: string[]): Json | undefined => {
    if (!isObject(value) || Object.keys(value).length === 0) {
      const refusal = checkEntry({ path: at, value }, rules, objectNamespace);
      if (refusal === undefined) return value;
      cut.push(refusal);
      return undefined;
    }
    const out: { [key: string]: Json } = {};
    for (const key of Object.keys(value)) {
      const kept = prune(value[key]!, [...at, key]);
      if (kept !== undefined)
        Object.defineProperty(out, key, {
          value: kept,
          enumerable: true,
          writable: true,
          configurable: true,
        });
    }
    return out;
  };
  const value = prune(entry.value, [...entry.path]);
  if (cut.length === 0 || value === undefined) return undefined;
  return { entry: { ...entry, value }, cut };
}
