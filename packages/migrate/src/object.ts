import { isObject, type Json, type JsonObject } from '@capi-kit/conversion';

/** Where an object lives: enough to read, write or name it. */
export interface ObjectKey {
  readonly apiVersion: string;
  readonly kind: string;
  readonly namespace?: string;
  readonly name: string;
}

function str(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

export function metadataOf(object: JsonObject): JsonObject {
  return isObject(object.metadata) ? object.metadata : {};
}

export function keyOf(object: JsonObject): ObjectKey {
  const metadata = metadataOf(object);
  const namespace = str(metadata.namespace);
  return {
    apiVersion: String(object.apiVersion),
    kind: String(object.kind),
    ...(namespace === undefined ? {} : { namespace }),
    name: String(metadata.name ?? ''),
  };
}

export function uidOf(object: JsonObject): string | undefined {
  return str(metadataOf(object).uid);
}

/** `Machine ns/name`: how problems and reports name an object. */
export function labelOf(key: ObjectKey): string {
  return `${key.kind} ${key.namespace === undefined ? '' : `${key.namespace}/`}${key.name}`;
}

/** One identity per apiVersion, kind, namespace and name: the key of the maps of planned and live objects. */
export function identity(key: ObjectKey): string {
  return `${key.apiVersion}|${key.kind}|${key.namespace ?? ''}|${key.name}`;
}

export function annotationsOf(object: JsonObject): Readonly<Record<string, Json>> {
  const annotations = metadataOf(object).annotations;
  return isObject(annotations) ? annotations : {};
}

/**
 * Whether every field of `expected` is in `actual` with the same value (lists compared
 * whole). The API server adds defaults and controllers add fields; neither is a difference.
 * Returns the first differing path, or undefined.
 */
export function firstDifference(expected: Json, actual: Json | undefined, path = ''): string | undefined {
  if (isObject(expected)) {
    if (!isObject(actual)) return path || '.';
    for (const [key, value] of Object.entries(expected)) {
      const difference = firstDifference(value, actual[key], path === '' ? key : `${path}.${key}`);
      if (difference !== undefined) return difference;
    }
    return undefined;
  }
  return JSON.stringify(expected) === JSON.stringify(actual) ? undefined : path || '.';
}

/** Server-owned metadata a create must not carry. */
const SERVER_OWNED = [
  'uid',
  'resourceVersion',
  'generation',
  'creationTimestamp',
  'deletionTimestamp',
  'deletionGracePeriodSeconds',
  'managedFields',
  'selfLink',
] as const;

/** The object as a create request: server-owned metadata and status left out. */
export function creatable(object: JsonObject): JsonObject {
  const metadata: JsonObject = { ...metadataOf(object) };
  for (const key of SERVER_OWNED) delete metadata[key];
  const { status: _status, ...rest } = object;
  return { ...rest, metadata };
}
