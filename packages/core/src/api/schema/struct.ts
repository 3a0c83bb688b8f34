import * as t from 'io-ts';
import { isPlainObject } from '../../objects/plain-object.js';
import { Issue } from './issues.js';
import { type HasStrictForm, strict } from './strict.js';

export type Props = Readonly<Record<string, t.Mixed>>;

/** The static type of an object with `R` required and `O` optional fields. */
export type StructOf<R extends Props, O extends Props> = { [K in keyof R]: t.TypeOf<R[K]> } & {
  [K in keyof O]?: t.TypeOf<O[K]>;
};

export { isPlainObject };

/** What a CRD says about an object besides its fields. */
export interface StructConstraints {
  /**
   * `minProperties`: at least this many of the schema's own fields are set (v1beta2 uses
   * 1 where an empty object would mean the same as an absent one).
   */
  readonly minProperties?: number;
}

/** Stands in the error context for a field that strict mode does not know. */
const unknownField = new t.Type<never>(
  'no such field',
  (_u): _u is never => false,
  (u, c) => t.failure(u, c, Issue.unknown),
  (a) => a,
);

/**
 * An object codec with required and optional fields, written for Kubernetes objects:
 *
 * - it never copies, strips or rewrites: a successful decode returns the input itself, so
 *   fields it does not know (newer API fields, provider data) survive read-modify-write;
 * - it reports every failing field at once, each with a clean context (no intersection
 *   member indices, unlike `t.intersection([t.type, t.partial])`);
 * - an optional field that is present must be valid; `null` is only valid where the field
 *   codec says so (see `nullable`), because Go emits `null` only in known places;
 * - its strict twin (`strict(codec)`) also reports every unknown field.
 */
export class StructType<A> extends t.Type<A, A, unknown> implements HasStrictForm {
  readonly _tag = 'StructType' as const;
  private strictTwin: StructType<A> | undefined;

  constructor(
    name: string,
    readonly required: Props,
    readonly optional: Props,
    readonly isStrict: boolean,
    readonly constraints: StructConstraints = {},
  ) {
    // Parallel arrays: the type guard runs on every decode, and indexed loops over arrays
    // are cheaper than `for...in` over the prop objects.
    const requiredKeys = Object.keys(required);
    const requiredCodecs = Object.values(required);
    const optionalKeys = Object.keys(optional);
    const optionalCodecs = Object.values(optional);
    const minProperties = constraints.minProperties ?? 0;
    // The API server prunes unknown fields before it validates, so only known ones count.
    const enoughFields = (u: Record<string, unknown>): boolean => {
      if (minProperties === 0) return true;
      let count = 0;
      for (const key of requiredKeys) if (u[key] !== undefined) count += 1;
      for (const key of optionalKeys) if (u[key] !== undefined) count += 1;
      return count >= minProperties;
    };
    super(
      name,
      (u): u is A => {
        if (!isPlainObject(u) || !enoughFields(u)) return false;
        for (let i = 0; i < requiredKeys.length; i++) {
          const value = u[requiredKeys[i]!];
          if (value === undefined || !requiredCodecs[i]!.is(value)) return false;
        }
        for (let i = 0; i < optionalKeys.length; i++) {
          const value = u[optionalKeys[i]!];
          if (value !== undefined && !optionalCodecs[i]!.is(value)) return false;
        }
        if (isStrict) {
          for (const key in u)
            if (!Object.hasOwn(required, key) && !Object.hasOwn(optional, key)) return false;
        }
        return true;
      },
      (u, c) => {
        if (!isPlainObject(u)) return t.failure(u, c);
        if (!enoughFields(u)) return t.failure(u, c, Issue.tooFewFields);
        const errors: t.ValidationError[] = [];
        for (const key in required) {
          const codec = required[key]!;
          const value = u[key];
          if (value === undefined) {
            errors.push({
              value,
              context: t.appendContext(c, key, codec, value),
              message: Issue.missing,
            });
            continue;
          }
          const result = codec.validate(value, t.appendContext(c, key, codec, value));
          if (result._tag === 'Left') for (const e of result.left) errors.push(e);
        }
        for (const key in optional) {
          const value = u[key];
          if (value === undefined) continue;
          const codec = optional[key]!;
          const result = codec.validate(value, t.appendContext(c, key, codec, value));
          if (result._tag === 'Left') for (const e of result.left) errors.push(e);
        }
        if (isStrict) {
          for (const key in u) {
            if (Object.hasOwn(required, key) || Object.hasOwn(optional, key)) continue;
            const value = u[key];
            errors.push({
              value,
              context: t.appendContext(c, key, unknownField, value),
              message: Issue.unknown,
            });
          }
        }
        return errors.length === 0 ? t.success(u as A) : t.failures(errors);
      },
      t.identity,
    );
  }

  strictForm(): StructType<A> {
    if (this.isStrict) return this;
    this.strictTwin ??= new StructType<A>(
      this.name,
      mapProps(this.required, strict),
      mapProps(this.optional, strict),
      true,
      this.constraints,
    );
    return this.strictTwin;
  }
}

function mapProps(props: Props, f: (codec: t.Mixed) => t.Mixed): Props {
  return Object.fromEntries(Object.entries(props).map(([key, codec]) => [key, f(codec)]));
}

/**
 * An object codec. `required` fields must be present (the CRD's `required` list),
 * `optional` fields may be absent. Annotate the result with the hand-written interface,
 * e.g. `const MachineSpecCodec: t.Type<MachineSpec> = struct(...)`.
 */
export function struct<R extends Props, O extends Props>(
  name: string,
  required: R,
  optional: O,
  constraints?: StructConstraints,
): StructType<StructOf<R, O>> {
  return new StructType(name, required, optional, false, constraints);
}
