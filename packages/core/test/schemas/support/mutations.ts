import fc from 'fast-check';

// Mutations of valid objects. They are blind to the schemas: a mutation picks any place
// in the value, so required and optional fields, enums and free-form data are all hit.

export const mutationKinds = [
  'none',
  'delete',
  'wrong-type',
  'bad-enum',
  'out-of-range',
  'extra-field',
] as const;
export type MutationKind = (typeof mutationKinds)[number];

export type Path = readonly (string | number)[];

export interface Case {
  readonly kind: MutationKind;
  /** Where the mutation happened (`[]` for none). */
  readonly path: Path;
  readonly value: Record<string, unknown>;
}

type Json = unknown;

interface Place {
  readonly path: Path;
  readonly value: Json;
}

function places(value: Json, path: Path = []): Place[] {
  const here: Place = { path, value };
  if (Array.isArray(value)) return [here, ...value.flatMap((item, i) => places(item, [...path, i]))];
  if (typeof value === 'object' && value !== null) {
    return [here, ...Object.entries(value).flatMap(([key, field]) => places(field, [...path, key]))];
  }
  return [here];
}

/** apiVersion and kind at the root name the schema; they are never mutated. */
function isTypeMeta(path: Path): boolean {
  return path.length === 1 && (path[0] === 'apiVersion' || path[0] === 'kind');
}

const jsonType = (v: Json): string =>
  v === null ? 'null' : Array.isArray(v) ? 'array' : Number.isInteger(v) ? 'integer' : typeof v;

const replacements: Json[] = ['x', 7, 1.5, true, [], {}, null];
const badStrings = ['Sometimes', '', 'random', 'RollingUpdate ', 'yesterday', '2019-13-01T00:00:00Z'];
const badNumbers = [2 ** 31, -(2 ** 31) - 1, 2 ** 53 - 1, 2 ** 63, -(2 ** 63) - 2048, -1, 0];

function setAt(
  root: Record<string, unknown>,
  path: Path,
  f: (parent: Record<string | number, Json>, key: string | number) => void,
) {
  let node = root as Record<string | number, Json>;
  for (const key of path.slice(0, -1)) node = node[key] as Record<string | number, Json>;
  f(node, path[path.length - 1]!);
}

function pick<T>(items: readonly T[], n: number): T | undefined {
  return items.length === 0 ? undefined : items[n % items.length];
}

/** Applies `kind` at a place chosen by `n`, with a replacement chosen by `m`; undefined if no place fits. */
export function mutate(
  original: Record<string, unknown>,
  kind: MutationKind,
  n: number,
  m: number,
  extra: Json,
): Case | undefined {
  const value = structuredClone(original);
  if (kind === 'none') return { kind, path: [], value };
  const all = places(value).filter((p) => !isTypeMeta(p.path));
  const fits: Record<Exclude<MutationKind, 'none'>, (p: Place) => boolean> = {
    delete: (p) => typeof p.path[p.path.length - 1] === 'string',
    'wrong-type': (p) => p.path.length > 0,
    'bad-enum': (p) => typeof p.value === 'string',
    'out-of-range': (p) => typeof p.value === 'number',
    'extra-field': (p) => typeof p.value === 'object' && p.value !== null && !Array.isArray(p.value),
  };
  const place = pick(all.filter(fits[kind]), n);
  if (place === undefined) return undefined;
  const { path } = place;
  switch (kind) {
    case 'delete':
      setAt(value, path, (parent, key) => {
        delete parent[key];
      });
      return { kind, path, value };
    case 'wrong-type': {
      const replacement = pick(
        replacements.filter((r) => jsonType(r) !== jsonType(place.value)),
        m,
      );
      setAt(value, path, (parent, key) => {
        parent[key] = structuredClone(replacement);
      });
      return { kind, path, value };
    }
    case 'bad-enum':
      setAt(value, path, (parent, key) => {
        parent[key] = pick(badStrings, m);
      });
      return { kind, path, value };
    case 'out-of-range':
      setAt(value, path, (parent, key) => {
        parent[key] = pick(badNumbers, m);
      });
      return { kind, path, value };
    case 'extra-field': {
      const target = place.value as Record<string, Json>;
      const key = 'extraField' in target ? 'extraField2' : 'extraField';
      target[key] = extra;
      return { kind, path: [...path, key], value };
    }
  }
}

/** Cases from valid objects: one in six stays valid, the others carry one mutation. */
export function cases(valid: fc.Arbitrary<Record<string, unknown>>): fc.Arbitrary<Case> {
  return fc
    .tuple(valid, fc.constantFrom(...mutationKinds), fc.nat(), fc.nat(), fc.jsonValue({ maxDepth: 1 }))
    .map(
      ([object, kind, n, m, extra]) =>
        mutate(object, kind, n, m, extra) ?? mutate(object, 'none', 0, 0, null)!,
    );
}
