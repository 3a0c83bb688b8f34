import * as t from 'io-ts';
import { isPlainObject } from './struct.js';
import { type Fraction, isRfc3339 } from './timestamp.js';

/**
 * What a scalar's guard checks, as data, so the guard compiler (compile.ts) can write the
 * same check inline instead of calling the guard. A scalar without one is still compiled
 * correctly: the generated code then calls its `is`.
 */
export type ScalarCheck =
  | { readonly check: 'integer'; readonly min: number; readonly max: number }
  | { readonly check: 'pattern'; readonly pattern: RegExp }
  | { readonly check: 'timestamp'; readonly fraction: Fraction }
  | { readonly check: 'oneOf'; readonly values: readonly string[] }
  | { readonly check: 'intOrString'; readonly min: number; readonly max: number }
  | { readonly check: 'object' }
  | {
      readonly check: 'string';
      readonly minLength: number;
      readonly maxLength: number;
      readonly pattern?: RegExp;
      readonly notIn: readonly string[];
    }
  | { readonly check: 'any' };

/** A codec that accepts exactly what `is` accepts, as it is (no brand, nothing rewritten). */
export class ScalarType<A> extends t.Type<A, A, unknown> {
  readonly _tag = 'ScalarType' as const;
  constructor(
    name: string,
    is: (u: unknown) => u is A,
    /** The same check as `is`, as data (absent: the compiler calls `is`). */
    readonly spec?: ScalarCheck,
  ) {
    super(name, is, (u, c) => (is(u) ? t.success(u) : t.failure(u, c)), t.identity);
  }
}

function scalar<A>(name: string, is: (u: unknown) => u is A, spec?: ScalarCheck): t.Type<A, A, unknown> {
  return new ScalarType(name, is, spec);
}

/** A number codec with an integer range; the static type stays `number` (no brand to cast). */
function integerIn(name: string, min: number, max: number): t.Type<number, number, unknown> {
  return scalar(
    name,
    (u): u is number => typeof u === 'number' && Number.isInteger(u) && u >= min && u <= max,
    { check: 'integer', min, max },
  );
}

const int32Min = -(2 ** 31);
const int32Max = 2 ** 31 - 1;

/** OpenAPI `type: integer, format: int32` (Go `int32`). */
export const int32 = integerIn('int32', int32Min, int32Max);
/**
 * An int32 that must not be negative: `spec.replicas` and `status.replicas` of kinds with
 * a scale subresource, which kube-apiserver checks ("should be a non-negative integer").
 */
export const replicaCount = integerIn('int32 (>= 0)', 0, 2 ** 31 - 1);
/**
 * The largest double below 2^63, i.e. the largest JavaScript number that fits an int64
 * (doubles between 2^62 and 2^63 are 1024 apart). JSON numbers beyond ±2^53 are not exact
 * in JavaScript anyway.
 */
const maxInt64Double = 2 ** 63 - 1024;
/** OpenAPI `format: int64` (Go `int64`). */
export const int64 = integerIn('int64', -(2 ** 63), maxInt64Double);
/** OpenAPI `type: integer` without a format (Go `int`, 64-bit on every platform Kubernetes runs). */
export const integer = integerIn('integer', -(2 ** 63), maxInt64Double);

/** The integer formats a CRD uses, with the range Go decodes each into. */
const integerFormats = {
  int32: [int32Min, int32Max],
  int64: [-(2 ** 63), maxInt64Double],
  integer: [-(2 ** 63), maxInt64Double],
} as const;

export interface IntegerBounds {
  readonly minimum?: number;
  readonly maximum?: number;
}

/**
 * An integer of `format` with a CRD's `minimum`/`maximum` (kubebuilder `Minimum`/`Maximum`
 * markers), e.g. `integerWith('int32', { minimum: 0 })` for a timeout in seconds.
 */
export function integerWith(
  format: keyof typeof integerFormats,
  { minimum, maximum }: IntegerBounds,
): t.Type<number, number, unknown> {
  const [low, high] = integerFormats[format];
  const min = Math.max(low, minimum ?? low);
  const max = Math.min(high, maximum ?? high);
  const bounds = [minimum === undefined ? '' : `>= ${minimum}`, maximum === undefined ? '' : `<= ${maximum}`];
  return integerIn(`${format} (${bounds.filter((b) => b !== '').join(', ')})`, min, max);
}

export const string = t.string;

/**
 * The length of a string as the API server counts it for `minLength`/`maxLength`: in
 * Unicode code points (Go's `utf8.RuneCountInString`), not UTF-16 units.
 */
export function codePointLength(s: string): number {
  let surrogatePairs = 0;
  for (let i = 0; i < s.length; i++) {
    const unit = s.charCodeAt(i);
    if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < s.length) {
      const next = s.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        surrogatePairs += 1;
        i += 1;
      }
    }
  }
  return s.length - surrogatePairs;
}

export interface StringConstraints {
  readonly minLength?: number;
  readonly maxLength?: number;
  /** Anchored as the CRD writes it; tested with the `u` flag, as the API server's RE2 reads it. */
  readonly pattern?: RegExp;
  /**
   * Values a CEL rule `!(self in [...])` (x-kubernetes-validations) forbids, e.g. the
   * condition types a MachineHealthCheck must not watch.
   */
  readonly notIn?: readonly string[];
}

/**
 * A string with a CRD's `minLength`, `maxLength`, `pattern` and forbidden values. The
 * static type stays `string`; the codec's name lists the constraints for error messages.
 */
export function stringWith({
  minLength,
  maxLength,
  pattern,
  notIn,
}: StringConstraints): t.Type<string, string, unknown> {
  const spec = {
    check: 'string',
    minLength: minLength ?? 0,
    maxLength: maxLength ?? Number.POSITIVE_INFINITY,
    ...(pattern === undefined ? {} : { pattern }),
    notIn: notIn ?? [],
  } as const;
  const described = [
    minLength === undefined && maxLength === undefined
      ? ''
      : `${spec.minLength}..${maxLength ?? ''} characters`,
    pattern === undefined ? '' : `matching ${pattern.source}`,
    spec.notIn.length === 0 ? '' : `not ${spec.notIn.join('/')}`,
  ].filter((part) => part !== '');
  return scalar(`string (${described.join(', ')})`, (u): u is string => satisfiesString(spec, u), spec);
}

/** The check of a `stringWith` codec, shared with compiled guards. */
export function satisfiesString(spec: Extract<ScalarCheck, { check: 'string' }>, u: unknown): u is string {
  if (typeof u !== 'string') return false;
  const { minLength: min, maxLength: max } = spec;
  // UTF-16 length bounds the code point count from above and at most doubles it.
  if (u.length < min || u.length > 2 * max) return false;
  if (u.length > max || u.length < 2 * min) {
    const length = codePointLength(u);
    if (length < min || length > max) return false;
  }
  if (spec.pattern !== undefined && !spec.pattern.test(u)) return false;
  return !spec.notIn.includes(u);
}

/**
 * Any JSON value but `null`, as a schema with `x-kubernetes-preserve-unknown-fields` and no
 * `type` allows (a ClusterClass variable's `value`). Kept as it is. The schema is not
 * nullable, so kube-apiserver drops a `null` there and then finds the (required) field
 * missing: the API-server fidelity test showed it.
 */
export const anyValue = scalar<unknown>(
  'any JSON value but null',
  (u): u is unknown => u !== undefined && u !== null,
  { check: 'any' },
);
export const boolean = t.boolean;

/** A string that matches `pattern`; the static type stays `string`. */
export function stringMatching(name: string, pattern: RegExp): t.Type<string, string, unknown> {
  return scalar(name, (u): u is string => typeof u === 'string' && pattern.test(u), {
    check: 'pattern',
    pattern,
  });
}

/**
 * `metav1.Time`: an RFC 3339 timestamp, as Go's `time.RFC3339` parses it
 * (`2019-09-06T10:00:00Z`, optional fraction, `Z` or `±hh:mm`). Kept as a string so a
 * decode round-trips byte for byte.
 */
export type Time = string;
export const Time = scalar(
  'Time (RFC 3339)',
  (u): u is Time => typeof u === 'string' && isRfc3339(u, 'optional'),
  { check: 'timestamp', fraction: 'optional' },
);

/** `metav1.MicroTime`: RFC 3339 with exactly six fractional digits (`…T10:00:00.000000Z`). */
export type MicroTime = string;
export const MicroTime = scalar(
  'MicroTime (RFC 3339, 6 fractional digits)',
  (u): u is MicroTime => typeof u === 'string' && isRfc3339(u, 'micro'),
  { check: 'timestamp', fraction: 'micro' },
);

/**
 * `intstr.IntOrString`: a JSON integer (Go unmarshals it into an int32) or a string such as
 * `"25%"`.
 */
export type IntOrString = number | string;
export const IntOrString = scalar(
  'int32 | string',
  (u): u is IntOrString => typeof u === 'string' || int32.is(u),
  { check: 'intOrString', min: -(2 ** 31), max: 2 ** 31 - 1 },
);

/**
 * `runtime.RawExtension`: any JSON object, kept as it is (provider specs and statuses).
 * Strict mode never looks inside: its schema belongs to the provider.
 */
export type RawExtension = Record<string, unknown>;
export const RawExtension = scalar<RawExtension>('object', isPlainObject, { check: 'object' });

/** A closed string enum, as a CRD `enum:` enforces it. */
export function enumOf<const V extends string>(...values: readonly V[]): t.Type<V, V, unknown> {
  const known = new Set<string>(values);
  return scalar(
    values.map((v) => JSON.stringify(v)).join(' | '),
    (u): u is V => typeof u === 'string' && known.has(u),
    { check: 'oneOf', values },
  );
}

/**
 * An open string enum: Go names some values (error reasons, address types) but neither the
 * CRD nor the Go decoder rejects others. The static type offers the known values for
 * completion and still accepts any string.
 */
export type OpenString<V extends string> = V | (string & {});
export function openString<V extends string>(): t.Type<OpenString<V>, OpenString<V>, unknown> {
  return t.string as t.Type<OpenString<V>, OpenString<V>, unknown>;
}

/** A field whose value is fixed, such as `apiVersion` and `kind`. */
export function literal<const V extends string>(value: V): t.Type<V, V, unknown> {
  return scalar(JSON.stringify(value), (u): u is V => u === value, { check: 'oneOf', values: [value] });
}
