import { isPlainObject } from './plain-object.js';

/** What names an object for people: its kind, name and namespace, each when it has one. */
export interface ObjectName {
  readonly kind?: string;
  readonly name?: string;
  /** The prefix the server will complete into a name, for an object that has none yet. */
  readonly generateName?: string;
  readonly namespace?: string;
}

const text = (value: unknown): string | undefined =>
  typeof value === 'string' && value !== '' ? value : undefined;

/**
 * Reads kind, name, generateName and namespace from any value (never throws); empty
 * strings count as absent. `name` is only ever `metadata.name`, so it can identify an object.
 */
export function objectName(value: unknown): ObjectName {
  if (!isPlainObject(value)) return {};
  const metadata = isPlainObject(value.metadata) ? value.metadata : {};
  const kind = text(value.kind);
  const name = text(metadata.name);
  const generateName = text(metadata.generateName);
  const namespace = text(metadata.namespace);
  return {
    ...(kind === undefined ? {} : { kind }),
    ...(name === undefined ? {} : { name }),
    ...(generateName === undefined ? {} : { generateName }),
    ...(namespace === undefined ? {} : { namespace }),
  };
}

/**
 * `ns/name`, `name`, or undefined for an unnamed object; an object not yet named by the
 * server shows its `generateName` prefix instead.
 */
export function qualifiedName(o: ObjectName): string | undefined {
  const name = o.name || o.generateName;
  if (name === undefined || name === '') return undefined;
  return o.namespace === undefined || o.namespace === '' ? name : `${o.namespace}/${name}`;
}

/** `Kind ns/name`: as much of it as the object has (`Machine`, `web-0`, or `""`). */
export function formatObjectName(o: ObjectName): string {
  const qualified = qualifiedName(o);
  const kind = o.kind === '' ? undefined : o.kind;
  if (kind === undefined) return qualified ?? '';
  return qualified === undefined ? kind : `${kind} ${qualified}`;
}

/** The label of any value for messages: `Machine default/web-0` (see `objectName`). */
export function objectLabel(value: unknown): string {
  return formatObjectName(objectName(value));
}
