/**
 * `apiVersion: 5` or `kind: [Machine]` makes a document no Kubernetes object: the API
 * server, kubectl and client-go refuse to decode it ("cannot unmarshal number into Go struct
 * field TypeMeta.apiVersion of type string"). It is not a document of some other kind that a
 * tool may skip, nor one whose field is "missing": every command reports it as what it is.
 */
export interface MistypedTypeMeta {
  readonly path: 'apiVersion' | 'kind';
  /** `must be a string, not a number`: the type only, since the value is untrusted and may be large. */
  readonly message: string;
}

/** What a JSON value is, in words (`a list`, `a map`, `a number`, `null`): never the value itself. */
export function jsonTypeName(value: unknown): string {
  return typeName(value, 'a map');
}

/** The same in YAML's words (`a mapping`), for files people write as YAML, such as kubeconfigs. */
export function yamlTypeName(value: unknown): string {
  return typeName(value, 'a mapping');
}

function typeName(value: unknown, map: string): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  return typeof value === 'object' ? map : `a ${typeof value}`;
}

/**
 * The first of `apiVersion` and `kind` set to something other than a string; undefined when
 * both are strings or absent (`null` reads as absent, as it does in Go).
 */
export function mistypedTypeMeta(object: Readonly<Record<string, unknown>>): MistypedTypeMeta | undefined {
  for (const path of ['apiVersion', 'kind'] as const) {
    const field = Object.hasOwn(object, path) ? object[path] : undefined;
    if (field === undefined || field === null || typeof field === 'string') continue;
    return { path, message: `must be a string, not ${jsonTypeName(field)}` };
  }
  return undefined;
}
