import * as t from 'io-ts';
import { type HasStrictForm, strict } from './strict.js';
import { isPlainObject } from './struct.js';

/** `T[]`: every element checked, every failing element reported; the input array is returned. */
export class ArrayOf<A> extends t.Type<A[], A[], unknown> implements HasStrictForm {
  readonly _tag = 'ArrayOf' as const;
  private strictTwin: ArrayOf<A> | undefined;
  constructor(readonly item: t.Type<A, A, unknown>) {
    super(
      `${item.name}[]`,
      (u): u is A[] => Array.isArray(u) && u.every((v) => item.is(v)),
      (u, c) => {
        if (!Array.isArray(u)) return t.failure(u, c);
        const errors: t.ValidationError[] = [];
        for (let i = 0; i < u.length; i++) {
          const value: unknown = u[i];
          const result = item.validate(value, t.appendContext(c, String(i), item, value));
          if (result._tag === 'Left') errors.push(...result.left);
        }
        return errors.length === 0 ? t.success(u as A[]) : t.failures(errors);
      },
      t.identity,
    );
  }
  strictForm(): ArrayOf<A> {
    const strictItem = strict(this.item);
    if (strictItem === this.item) return this;
    this.strictTwin ??= new ArrayOf(strictItem);
    return this.strictTwin;
  }
}

export function arrayOf<A>(item: t.Type<A, A, unknown>): ArrayOf<A> {
  return new ArrayOf(item);
}

/** `map[string]T` (a JSON object used as a map; keys are free, so strict mode ignores them). */
export class MapOf<A> extends t.Type<Record<string, A>, Record<string, A>, unknown> implements HasStrictForm {
  readonly _tag = 'MapOf' as const;
  private strictTwin: MapOf<A> | undefined;
  constructor(readonly value: t.Type<A, A, unknown>) {
    super(
      `map[string]${value.name}`,
      (u): u is Record<string, A> => isPlainObject(u) && Object.values(u).every((v) => value.is(v)),
      (u, c) => {
        if (!isPlainObject(u)) return t.failure(u, c);
        const errors: t.ValidationError[] = [];
        for (const key in u) {
          const entry = u[key];
          const result = value.validate(entry, t.appendContext(c, key, value, entry));
          if (result._tag === 'Left') errors.push(...result.left);
        }
        return errors.length === 0 ? t.success(u as Record<string, A>) : t.failures(errors);
      },
      t.identity,
    );
  }
  strictForm(): MapOf<A> {
    const strictValue = strict(this.value);
    if (strictValue === this.value) return this;
    this.strictTwin ??= new MapOf(strictValue);
    return this.strictTwin;
  }
}

export function mapOf<A>(value: t.Type<A, A, unknown>): MapOf<A> {
  return new MapOf(value);
}

/**
 * `T | null`, for the places where Go itself writes `null`: slices and maps without
 * `omitempty` (e.g. `cidrBlocks`, a List's `items`), a zero `metav1.Time` value
 * (`creationTimestamp: null`) and a RawExtension without content.
 */
export class Nullable<A> extends t.Type<A | null, A | null, unknown> implements HasStrictForm {
  readonly _tag = 'Nullable' as const;
  private strictTwin: Nullable<A> | undefined;
  constructor(readonly inner: t.Type<A, A, unknown>) {
    super(
      `${inner.name} | null`,
      (u): u is A | null => u === null || inner.is(u),
      (u, c) => (u === null ? t.success(null) : inner.validate(u, c)),
      t.identity,
    );
  }
  strictForm(): Nullable<A> {
    const strictInner = strict(this.inner);
    if (strictInner === this.inner) return this;
    this.strictTwin ??= new Nullable(strictInner);
    return this.strictTwin;
  }
}

export function nullable<A>(inner: t.Type<A, A, unknown>): Nullable<A> {
  return new Nullable(inner);
}
