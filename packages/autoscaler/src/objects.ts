import { isPlainObject } from '@capi-kit/core/objects';
/**
 * The few object fields node groups read, for objects of any Cluster API version. Objects
 * come from the API server or from callers, so every accessor tolerates missing or
 * mistyped fields instead of trusting the shape.
 */

export interface OwnerReference {
  readonly apiVersion?: string;
  readonly kind?: string;
  readonly name?: string;
  readonly uid?: string;
  readonly controller?: boolean;
}

export interface ObjectMeta {
  readonly name?: string;
  readonly namespace?: string;
  readonly uid?: string;
  readonly resourceVersion?: string;
  readonly labels?: Readonly<Record<string, string>>;
  readonly annotations?: Readonly<Record<string, string>>;
  readonly ownerReferences?: readonly OwnerReference[];
  readonly deletionTimestamp?: unknown;
}

/** A Kubernetes object as JSON: what the informers hold. */
export interface KubeObject {
  readonly apiVersion?: string;
  readonly kind?: string;
  readonly metadata?: ObjectMeta;
  readonly spec?: unknown;
  readonly status?: unknown;
}

/** A field of a nested record, or undefined when any step is missing or not a record. */
export function field(value: unknown, ...path: readonly string[]): unknown {
  let current = value;
  for (const key of path) {
    if (!isPlainObject(current)) return undefined;
    current = current[key];
  }
  return current;
}

export function stringField(value: unknown, ...path: readonly string[]): string | undefined {
  const found = field(value, ...path);
  return typeof found === 'string' ? found : undefined;
}

/** The string entries of a string map (labels, annotations); anything else is ignored. */
export function stringMap(value: unknown): Readonly<Record<string, string>> {
  if (!isPlainObject(value)) return {};
  for (const entry of Object.values(value)) if (typeof entry !== 'string') return onlyStrings(value);
  return value as Record<string, string>;
}

function onlyStrings(value: Record<string, unknown>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(value)) if (typeof v === 'string') out[k] = v;
  return out;
}

/**
 * A string map as Go's unstructured.NestedStringMap reads it (what upstream's GetLabels
 * does): a map with any value that is not a string is no map at all (`{}`), not one with
 * that entry left out.
 */
export function goStringMap(value: unknown): Readonly<Record<string, string>> {
  if (!isPlainObject(value)) return {};
  for (const entry of Object.values(value)) if (typeof entry !== 'string') return {};
  return value as Record<string, string>;
}

export const nameOf = (o: KubeObject): string => stringField(o, 'metadata', 'name') ?? '';
export const namespaceOf = (o: KubeObject): string => stringField(o, 'metadata', 'namespace') ?? '';
export const uidOf = (o: KubeObject): string => stringField(o, 'metadata', 'uid') ?? '';
export const labelsOf = (o: KubeObject) => stringMap(field(o, 'metadata', 'labels'));
export const annotationsOf = (o: KubeObject) => stringMap(field(o, 'metadata', 'annotations'));

/** `ns/name`, the key informers and cluster-autoscaler use for a namespaced object. */
export const keyOf = (o: KubeObject): string => `${namespaceOf(o)}/${nameOf(o)}`;

/** The ownerReferences that have a kind and a name. */
export function ownerReferencesOf(o: KubeObject): OwnerReference[] {
  const refs = field(o, 'metadata', 'ownerReferences');
  if (!Array.isArray(refs)) return [];
  return refs.filter(
    (r): r is OwnerReference =>
      isPlainObject(r) && typeof r.kind === 'string' && typeof r.name === 'string' && r.name !== '',
  );
}

export function isBeingDeleted(o: KubeObject): boolean {
  const stamp = field(o, 'metadata', 'deletionTimestamp');
  return stamp !== undefined && stamp !== null && stamp !== '';
}
