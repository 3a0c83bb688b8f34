/**
 * True for a JSON object: not null, not an array. Parsed YAML and JSON hold only plain data,
 * so this is the one test every package uses before reading fields of an untrusted value.
 */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
