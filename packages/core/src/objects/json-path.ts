/** A path into a JSON value: object keys and array indexes. */
export type JsonPath = readonly (string | number)[];

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/**
 * Appends one step to a path written for people: an array index as `[i]`, an identifier
 * key as `.key` (or `key` at the start), any other key (a label name) as `["a/b"]`.
 */
export function appendJsonPath(
  path: string,
  key: string | number,
  isIndex = typeof key === 'number',
): string {
  if (isIndex) return `${path}[${key}]`;
  const name = String(key);
  if (IDENTIFIER.test(name)) return path === '' ? name : `${path}.${name}`;
  return `${path}[${JSON.stringify(name)}]`;
}

/**
 * `spec.template.metadata.labels["cluster.x-k8s.io/cluster-name"]`, `spec.taints[0].key`:
 * how every capi-kit error names a place in an object; `""` is the value itself.
 */
export function formatJsonPath(path: JsonPath): string {
  let out = '';
  for (const key of path) out = appendJsonPath(out, key);
  return out;
}
