import fc from 'fast-check';
import { labelKey, listOf, objectMeta, time } from './arbitraries.js';
import type { JsonSchema } from './kubernetes-schemas.js';

// Valid objects of the later versions (v1alpha3 to v1beta2), generated from the CRD's
// OpenAPI schema itself: every required field, a random selection of optional ones, values
// within each field's enum, format, length, pattern, range and item bounds, unique list-map
// keys and `minProperties` met. Independent of the codecs under test: the generator reads
// only the CRD. Realistic-looking values come from the shared arbitraries (times, label keys,
// ObjectMeta).

/** Generated strings and lists stay short; bounds above these are still honoured. */
const extraLength = 10;
const extraItems = 2;

const int32Range = { min: -(2 ** 31), max: 2 ** 31 - 1 };
/** int64 and plain integers: JSON numbers beyond 2^53 are not exact, so stay below. */
const int64Range = { min: -(2 ** 40), max: 2 ** 40 };

function codePoints(s: string): number {
  return [...s].length;
}

function stringArbitrary(node: JsonSchema): fc.Arbitrary<string> {
  if (Array.isArray(node.enum)) return fc.constantFrom(...(node.enum as string[]));
  if (node.format === 'date-time') return time;
  const minLength = (node.minLength as number | undefined) ?? 0;
  const maxLength = (node.maxLength as number | undefined) ?? Number.POSITIVE_INFINITY;
  const forbidden = forbiddenValues(node);
  let arbitrary: fc.Arbitrary<string>;
  if (typeof node.pattern === 'string') {
    arbitrary = fc
      .stringMatching(new RegExp(node.pattern, 'u'), { size: 'xsmall' })
      .filter((s) => codePoints(s) >= minLength && codePoints(s) <= maxLength);
  } else {
    arbitrary = fc.string({ minLength, maxLength: Math.min(maxLength, minLength + extraLength) });
  }
  return forbidden.length === 0 ? arbitrary : arbitrary.filter((s) => !forbidden.includes(s));
}

/** The values a CEL rule `!(self in ['a','b'])` forbids; any other rule is not understood. */
export function forbiddenValues(node: JsonSchema): string[] {
  const rules = (node['x-kubernetes-validations'] as Array<{ rule: string }> | undefined) ?? [];
  return rules.flatMap(({ rule }) => {
    const match = /^!\(self in \[(.*)\]\)$/.exec(rule);
    if (match === null) throw new Error(`CEL rule not understood: ${rule}`);
    return match[1]!.split(',').map((v) => v.trim().replace(/^'|'$/g, ''));
  });
}

function integerArbitrary(node: JsonSchema): fc.Arbitrary<number> {
  const range = node.format === 'int32' ? int32Range : int64Range;
  const min = Math.max(range.min, (node.minimum as number | undefined) ?? range.min);
  const max = Math.min(range.max, (node.maximum as number | undefined) ?? range.max);
  // Mostly small values, as real objects carry, and sometimes anything in range.
  const small = fc.integer({
    min: Math.max(min, Math.min(0, max)),
    max: Math.min(max, Math.max(min, 0) + 600),
  });
  return fc.oneof({ arbitrary: small, weight: 4 }, { arbitrary: fc.integer({ min, max }), weight: 1 });
}

function arrayArbitrary(node: JsonSchema, path: string): fc.Arbitrary<unknown[]> {
  const item = fromSchema(node.items as JsonSchema, `${path}[]`);
  const minLength = (node.minItems as number | undefined) ?? 0;
  const maxLength = Math.min(
    (node.maxItems as number | undefined) ?? Number.POSITIVE_INFINITY,
    minLength + extraItems,
  );
  const keys = node['x-kubernetes-list-map-keys'] as string[] | undefined;
  if (node['x-kubernetes-list-type'] === 'map' && keys !== undefined) {
    return fc.uniqueArray(item, {
      minLength,
      maxLength,
      selector: (v) => JSON.stringify(keys.map((k) => (v as Record<string, unknown>)[k] ?? null)),
    });
  }
  return fc.array(item, { minLength, maxLength });
}

function objectArbitrary(node: JsonSchema, path: string): fc.Arbitrary<unknown> {
  const properties = node.properties as Record<string, JsonSchema> | undefined;
  if (properties === undefined) {
    const values = node.additionalProperties;
    if (typeof values === 'object' && values !== null) {
      return fc.dictionary(labelKey, fromSchema(values as JsonSchema, `${path}{}`), { maxKeys: 3 });
    }
    return fc.dictionary(labelKey, fc.jsonValue({ maxDepth: 1 }), { maxKeys: 3 }).map(throughJson);
  }
  const model = Object.fromEntries(
    Object.entries(properties).map(([key, child]) => [
      key,
      fromSchema(child, path === '' ? key : `${path}.${key}`),
    ]),
  );
  const required = (node.required as string[] | undefined) ?? [];
  const record = fc.record(model, { requiredKeys: required }) as fc.Arbitrary<Record<string, unknown>>;
  const minProperties = (node.minProperties as number | undefined) ?? 0;
  return minProperties === 0 ? record : record.filter((r) => Object.keys(r).length >= minProperties);
}

// Through JSON once, so values are what a JSON text can carry (no -0).
function throughJson<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}

/** An arbitrary of the values `node` accepts. `path` names the place in errors. */
export function fromSchema(node: JsonSchema, path = ''): fc.Arbitrary<unknown> {
  if (node['x-kubernetes-int-or-string'] === true) {
    return fc.oneof(fc.integer({ min: 0, max: 10 }), fc.constantFrom('25%', '1', '100%'));
  }
  if (node.type === undefined && node['x-kubernetes-preserve-unknown-fields'] === true) {
    // Not null: the node is not nullable (kube-apiserver drops a null there).
    return fc
      .jsonValue({ maxDepth: 2 })
      .filter((v) => v !== null)
      .map(throughJson);
  }
  switch (node.type) {
    case 'string':
      return stringArbitrary(node);
    case 'integer':
      return integerArbitrary(node);
    case 'boolean':
      return fc.boolean();
    case 'array':
      return arrayArbitrary(node, path);
    case 'object':
      return objectArbitrary(node, path);
    default:
      throw new Error(`${path}: no arbitrary for schema type ${String(node.type)}`);
  }
}

/** Valid objects of one CRD version: the CRD's schema, ObjectMeta for `metadata`, fixed type meta. */
export function crdObjects(
  apiVersion: string,
  kind: string,
  schema: JsonSchema,
): fc.Arbitrary<Record<string, unknown>> {
  const properties = schema.properties as Record<string, JsonSchema>;
  const { apiVersion: _a, kind: _k, metadata: _m, ...body } = properties;
  const required = ((schema.required as string[] | undefined) ?? []).filter((k) => k in body);
  const model = Object.fromEntries(Object.entries(body).map(([key, child]) => [key, fromSchema(child, key)]));
  const everything: Record<string, fc.Arbitrary<unknown>> = {
    apiVersion: fc.constant(apiVersion),
    kind: fc.constant(kind),
    metadata: objectMeta,
    ...model,
  };
  return fc.record(everything, { requiredKeys: ['apiVersion', 'kind', ...required] }) as fc.Arbitrary<
    Record<string, unknown>
  >;
}

/** The arbitrary of every `version/kind` of these CRDs, Lists included. */
export function laterObjects(
  crds: ReadonlyArray<{ version: string; apiVersion: string; kind: string; schema: JsonSchema }>,
): Record<string, fc.Arbitrary<Record<string, unknown>>> {
  const out: Record<string, fc.Arbitrary<Record<string, unknown>>> = {};
  for (const crd of crds) {
    const objects = crdObjects(crd.apiVersion, crd.kind, crd.schema);
    out[`${crd.version}/${crd.kind}`] = objects;
    out[`${crd.version}/${crd.kind}List`] = listOf(crd.apiVersion, crd.kind, objects);
  }
  return out;
}
