import type * as t from 'io-ts';
import { ArrayOf, MapOf, Nullable } from './collections.js';
import { type ScalarCheck, ScalarType, satisfiesString } from './scalars.js';
import { StructType } from './struct.js';
import { isRfc3339 } from './timestamp.js';

/**
 * Type guards compiled from the codec tree: one straight-line JavaScript function per codec,
 * the way ajv compiles a JSON schema. The function gives exactly the verdict of the codec's
 * own `is` (the property tests compare them), without its cost: no closure call per field,
 * no `every` callback per element, no megamorphic `.is` dispatch. `decodeWith` uses it to
 * accept valid objects; io-ts's `validate` still walks the ones that fail, to report every
 * error with its path.
 *
 * Compiled once per codec, the first time a value is checked against it (not at module load,
 * so a CLI command that decodes nothing pays nothing), and kept for the codec's lifetime. It
 * is compiled at run time rather than generated at build time because it is generic: any
 * codec built from struct / collections / scalars (every version's kinds, a user's own
 * codecs) gets a fast path without a build step or generated sources to keep in sync. Where
 * code generation from strings is forbidden (`--disallow-code-generation-from-strings`),
 * the guard is the codec's own `is`.
 */
export type CompiledGuard = (value: unknown) => boolean;

const compiled = new WeakMap<t.Mixed, CompiledGuard>();

/** The compiled guard of `codec` (memoised). Its verdict is always `codec.is(value)`'s. */
export function compiledGuard(codec: t.Mixed): CompiledGuard {
  let guard = compiled.get(codec);
  if (guard === undefined) {
    guard = compile(codec);
    compiled.set(codec, guard);
  }
  return guard;
}

/** The generated source of `codec`'s guard, for tests and for reading what the compiler does. */
export function guardSource(codec: t.Mixed): string {
  return new Emitter().program(codec).source;
}

function compile(codec: t.Mixed): CompiledGuard {
  const { source, constants } = new Emitter().program(codec);
  try {
    return new Function('constants', source)(constants) as CompiledGuard;
  } catch (error) {
    if (error instanceof EvalError) return (value) => codec.is(value);
    throw error;
  }
}

/** A JavaScript expression that is true when the variable `v` passes the scalar check. */
const scalarChecks: {
  readonly [K in ScalarCheck['check']]: (
    spec: Extract<ScalarCheck, { check: K }>,
    v: string,
    ref: (constant: unknown) => string,
  ) => string;
} = {
  integer: ({ min, max }, v) =>
    `typeof ${v} === "number" && Number.isInteger(${v}) && ${v} >= ${number(min)} && ${v} <= ${number(max)}`,
  pattern: ({ pattern }, v, ref) => `typeof ${v} === "string" && ${ref(pattern)}.test(${v})`,
  timestamp: ({ fraction }, v, ref) =>
    `typeof ${v} === "string" && ${ref(isRfc3339)}(${v}, ${JSON.stringify(fraction)})`,
  oneOf: ({ values }, v) =>
    values.length === 0
      ? 'false'
      : `(${values.map((value) => `${v} === ${JSON.stringify(value)}`).join(' || ')})`,
  intOrString: ({ min, max }, v) =>
    `(typeof ${v} === "string" || (typeof ${v} === "number" && Number.isInteger(${v}) && ${v} >= ${number(min)} && ${v} <= ${number(max)}))`,
  object: (_spec, v) => `(typeof ${v} === "object" && ${v} !== null && !Array.isArray(${v}))`,
  string: (spec, v, ref) => `${ref(satisfiesString)}(${ref(spec)}, ${v})`,
  any: (_spec, v) => `${v} !== undefined && ${v} !== null`,
};

/** A number as source text that reads back as the same double. */
function number(n: number): string {
  return Object.is(n, -0) ? '-0' : String(n);
}

/** io-ts's own primitive codecs that appear in schemas (`t.string`, `t.boolean`, ...). */
const primitiveChecks: Readonly<Record<string, (v: string) => string>> = {
  StringType: (v) => `typeof ${v} === "string"`,
  BooleanType: (v) => `typeof ${v} === "boolean"`,
  NumberType: (v) => `typeof ${v} === "number"`,
  UnknownType: () => 'true',
};

/** Codecs the emitter writes as statements; every other codec is one expression (`scalar`). */
function isComposite(codec: t.Mixed): boolean {
  return (
    codec instanceof StructType ||
    codec instanceof ArrayOf ||
    codec instanceof MapOf ||
    codec instanceof Nullable
  );
}

const notPlainObject = (v: string) => `typeof ${v} !== "object" || ${v} === null || Array.isArray(${v})`;

/** Writes the body of one guard: statements that `return false` as soon as the value fails. */
class Emitter {
  private readonly lines: string[] = [];
  private readonly constants: unknown[] = [];
  private readonly constantNames = new Map<unknown, string>();
  private readonly open = new Set<t.Mixed>();
  private names = 0;

  program(codec: t.Mixed): { source: string; constants: unknown[] } {
    this.emit(codec, 'v');
    const prelude = this.constants.map((_, i) => `const c${i} = constants[${i}];`);
    const source = [
      '"use strict";',
      ...prelude,
      'const hasOwn = Object.hasOwn;',
      'return function guard(v) {',
      ...this.lines,
      'return true;',
      '};',
    ].join('\n');
    return { source, constants: this.constants };
  }

  private ref(constant: unknown): string {
    let name = this.constantNames.get(constant);
    if (name === undefined) {
      name = `c${this.constants.length}`;
      this.constants.push(constant);
      this.constantNames.set(constant, name);
    }
    return name;
  }

  private fresh(prefix: string): string {
    return `${prefix}${this.names++}`;
  }

  private line(text: string): void {
    this.lines.push(text);
  }

  /** Statements that end the guard with `false` unless the variable `v` passes `codec`. */
  private emit(codec: t.Mixed, v: string): void {
    // A codec that contains itself (t.recursion) is checked by its own guard from there on.
    if (this.open.has(codec)) {
      this.line(`if (!${this.ref(codec)}.is(${v})) return false;`);
      return;
    }
    this.open.add(codec);
    if (codec instanceof StructType) this.struct(codec, v);
    else if (codec instanceof ArrayOf) this.array(codec, v);
    else if (codec instanceof MapOf) this.map(codec, v);
    else if (codec instanceof Nullable) {
      this.line(`if (${v} !== null) {`);
      this.emit(codec.inner, v);
      this.line('}');
    } else this.line(`if (!(${this.scalar(codec, v)})) return false;`);
    this.open.delete(codec);
  }

  private scalar(codec: t.Mixed, v: string): string {
    const spec = codec instanceof ScalarType ? (codec as ScalarType<unknown>).spec : undefined;
    if (spec !== undefined) {
      const write = scalarChecks[spec.check] as (
        s: ScalarCheck,
        v: string,
        ref: (c: unknown) => string,
      ) => string;
      return write(spec, v, (c) => this.ref(c));
    }
    const tag = (codec as { _tag?: unknown })._tag;
    const primitive = typeof tag === 'string' ? primitiveChecks[tag] : undefined;
    // Any other codec (a user's own t.Type, an io-ts combinator) keeps its own guard.
    return primitive !== undefined ? primitive(v) : `${this.ref(codec)}.is(${v})`;
  }

  // Mirrors StructType's guard: required fields present and valid, optional fields valid when
  // present (`undefined` counts as absent), and in strict mode no field outside the schema.
  private struct(codec: StructType<unknown>, v: string): void {
    this.line(`if (${notPlainObject(v)}) return false;`);
    for (const [key, field] of Object.entries(codec.required)) {
      const w = this.fresh('v');
      this.line(`const ${w} = ${v}[${JSON.stringify(key)}];`);
      this.line(`if (${w} === undefined) return false;`);
      this.emit(field, w);
    }
    for (const [key, field] of Object.entries(codec.optional)) {
      const w = this.fresh('v');
      this.line(`const ${w} = ${v}[${JSON.stringify(key)}];`);
      this.line(`if (${w} !== undefined) {`);
      this.emit(field, w);
      this.line('}');
    }
    // minProperties: counted over the schema's own fields, as StructType does.
    const minProperties = codec.constraints.minProperties ?? 0;
    if (minProperties > 0) {
      const present = [...Object.keys(codec.required), ...Object.keys(codec.optional)].map(
        (key) => `(${v}[${JSON.stringify(key)}] !== undefined ? 1 : 0)`,
      );
      this.line(`if (${present.join(' + ')} < ${minProperties}) return false;`);
    }
    if (codec.isStrict) {
      const known = [...Object.keys(codec.required), ...Object.keys(codec.optional)];
      const k = this.fresh('k');
      this.line(`for (const ${k} in ${v}) {`);
      this.line(`switch (${k}) {`);
      for (const key of known) this.line(`case ${JSON.stringify(key)}:`);
      if (known.length > 0) this.line('break;');
      this.line('default: return false;');
      this.line('}');
      this.line('}');
    }
  }

  // Mirrors `Array.isArray(u) && u.every(item.is)`: `every` skips holes of a sparse array.
  private array(codec: ArrayOf<unknown>, v: string): void {
    const i = this.fresh('i');
    const w = this.fresh('v');
    this.line(`if (!Array.isArray(${v})) return false;`);
    // minItems, maxItems and list-map key uniqueness: the codec's own check.
    if (codec.isConstrained) this.line(`if (!${this.ref(codec)}.constraintsHold(${v})) return false;`);
    this.line(`for (let ${i} = 0; ${i} < ${v}.length; ${i}++) {`);
    this.line(`const ${w} = ${v}[${i}];`);
    this.line(`if (${w} === undefined && !(${i} in ${v})) continue;`);
    this.emit(codec.item, w);
    this.line('}');
  }

  // Mirrors `isPlainObject(u) && Object.values(u).every(value.is)`: own enumerable keys only.
  // `for...in` also lists inherited enumerable keys, so a failing entry only counts when it
  // is the object's own; for a scalar value that check runs only on failure.
  private map(codec: MapOf<unknown>, v: string): void {
    const k = this.fresh('k');
    const w = this.fresh('v');
    this.line(`if (${notPlainObject(v)}) return false;`);
    this.line(`for (const ${k} in ${v}) {`);
    const value = codec.value;
    if (isComposite(value)) {
      this.line(`if (!hasOwn(${v}, ${k})) continue;`);
      this.line(`const ${w} = ${v}[${k}];`);
      this.emit(value, w);
    } else {
      this.line(`const ${w} = ${v}[${k}];`);
      this.line(`if (!(${this.scalar(value, w)}) && hasOwn(${v}, ${k})) return false;`);
    }
    this.line('}');
  }
}
