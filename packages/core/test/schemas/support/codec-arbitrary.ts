import fc from 'fast-check';
import * as t from 'io-ts';
import { ArrayOf, MapOf, Nullable, ScalarType, StructType } from '../../../src/api/schema/index.js';

// Values generated from a codec tree itself, so every kind a registry holds (those added
// later included) gets generated cases without a hand-written arbitrary. They are valid
// by construction except where a scalar has no data spec (then any JSON value is drawn);
// the tests that use them compare verdicts, so an invalid draw is a useful case too.

const small = { maxLength: 2 } as const;
const key = fc.oneof(fc.string({ maxLength: 8 }), fc.constantFrom('cluster.x-k8s.io/cluster-name', 'a/b'));
const jsonObject = fc
  .dictionary(key, fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 })
  .map((v) => JSON.parse(JSON.stringify(v)) as Record<string, unknown>);
const date = fc.date({
  min: new Date('1970-01-01T00:00:00Z'),
  max: new Date('2099-12-31T23:59:59Z'),
  noInvalidDate: true,
});

function scalarArbitrary(codec: ScalarType<unknown>): fc.Arbitrary<unknown> {
  const spec = codec.spec;
  switch (spec?.check) {
    case 'integer':
    case 'intOrString': {
      const min = Math.max(spec.min, Number.MIN_SAFE_INTEGER);
      const max = Math.min(spec.max, Number.MAX_SAFE_INTEGER);
      const int = fc.oneof(
        fc.integer({ min: Math.max(min, -1000), max: Math.min(max, 1000) }),
        fc.constantFrom(min, max),
      );
      return spec.check === 'integer' ? int : fc.oneof(int, fc.string({ maxLength: 4 }));
    }
    case 'pattern':
      return fc.stringMatching(spec.pattern);
    case 'timestamp':
      return date.chain((d) =>
        spec.fraction === 'micro'
          ? fc.constant(d.toISOString().replace(/Z$/, '000Z'))
          : fc.constantFrom(d.toISOString(), d.toISOString().replace(/\.\d{3}Z$/, '+02:00')),
      );
    case 'oneOf':
      return fc.constantFrom(...spec.values);
    case 'object':
      return jsonObject;
    case 'string': {
      // CRD string bounds (later versions): short values within the bounds, as the CRDs' own.
      const { minLength, maxLength, pattern, notIn } = spec;
      const within = (v: string) =>
        [...v].length >= minLength && [...v].length <= maxLength && !notIn.includes(v);
      const drawn =
        pattern === undefined
          ? fc.string({ minLength, maxLength: Math.min(maxLength, minLength + 8) })
          : fc.stringMatching(pattern, { size: 'xsmall' });
      return drawn.filter(within);
    }
    case 'any':
      return fc
        .jsonValue({ maxDepth: 1 })
        .filter((v) => v !== null)
        .map((v) => JSON.parse(JSON.stringify(v)) as unknown);
    case undefined:
      return fc.jsonValue({ maxDepth: 1 });
  }
}

/** An arbitrary of values shaped by `codec` (memoised per codec, depth-limited). */
export function codecArbitrary(codec: t.Mixed, depth = 0): fc.Arbitrary<unknown> {
  // Deep enough for the deepest kind (a v1beta2 ClusterList reaches 16 levels).
  if (depth > 24) return fc.constant(null);
  if (codec instanceof StructType) {
    const s = codec as StructType<unknown>;
    const model: Record<string, fc.Arbitrary<unknown>> = {};
    for (const [k, c] of Object.entries({ ...s.optional, ...s.required }))
      model[k] = codecArbitrary(c, depth + 1);
    const record = fc.record(model, { requiredKeys: Object.keys(s.required) });
    const minProperties = s.constraints.minProperties ?? 0;
    return minProperties === 0 ? record : record.filter((r) => Object.keys(r).length >= minProperties);
  }
  if (codec instanceof ArrayOf) {
    const a = codec as ArrayOf<unknown>;
    const item = codecArbitrary(a.item, depth + 1);
    const { minItems = 0, maxItems = small.maxLength, listMapKeys } = a.constraints;
    const bounds = {
      minLength: minItems,
      maxLength: Math.max(minItems, Math.min(maxItems, small.maxLength)),
    };
    if (listMapKeys === undefined) return fc.array(item, bounds);
    return fc.uniqueArray(item, {
      ...bounds,
      selector: (v) => JSON.stringify(listMapKeys.map((k) => (v as Record<string, unknown>)?.[k] ?? null)),
    });
  }
  if (codec instanceof MapOf) {
    return fc.dictionary(key, codecArbitrary((codec as MapOf<unknown>).value, depth + 1), { maxKeys: 3 });
  }
  if (codec instanceof Nullable) {
    return fc.option(codecArbitrary((codec as Nullable<unknown>).inner, depth + 1), { nil: null, freq: 4 });
  }
  if (codec instanceof ScalarType) return scalarArbitrary(codec as ScalarType<unknown>);
  if (codec instanceof t.StringType) return fc.string({ maxLength: 8 });
  if (codec instanceof t.BooleanType) return fc.boolean();
  return fc.jsonValue({ maxDepth: 1 });
}
