import * as t from 'io-ts';
import { Issue } from './issues.js';
import { type HasStrictForm, strict } from './strict.js';
import { isPlainObject } from './struct.js';

/** What a CRD says about a list besides its items' schema. */
export interface ArrayConstraints {
  readonly minItems?: number;
  readonly maxItems?: number;
  /**
   * `x-kubernetes-list-type: map` with these `x-kubernetes-list-map-keys`: no two items may
   * have the same values at these keys (the API server reports a duplicate).
   */
  readonly listMapKeys?: readonly string[];
}

/** The key tuple of a list-map item, as one string (absent keys count as `undefined`). */
function listMapKey(item: unknown, keys: readonly string[]): string {
  const record = isPlainObject(item) ? item : {};
  return JSON.stringify(keys.map((key) => record[key] ?? null));
}

/** The index of the first item whose key tuple repeats an earlier one, or -1. */
function firstDuplicate(items: readonly unknown[], keys: readonly string[]): number {
  const seen = new Set<string>();
  for (let i = 0; i < items.length; i++) {
    const key = listMapKey(items[i], keys);
    if (seen.has(key)) return i;
    seen.add(key);
  }
  return -1;
}

function describeArray(itemName: string, { minItems, maxItems, listMapKeys }: ArrayConstraints): string {
  const bounds =
    minItems === undefined && maxItems === undefined ? '' : `${minItems ?? 0}..${maxItems ?? ''} items`;
  const unique = listMapKeys === undefined ? '' : `unique by ${listMapKeys.join('+')}`;
  const notes = [bounds, unique].filter((n) => n !== '');
  return notes.length === 0 ? `${itemName}[]` : `${itemName}[] (${notes.join(', ')})`;
}

/**
 * `T[]`: every element checked, every failing element reported; the input array is
 * returned. A CRD's `minItems`, `maxItems` and list-map key uniqueness are checked on the
 * array itself (a duplicate is reported at the repeated item).
 */
export class ArrayOf<A> extends t.Type<A[], A[], unknown> implements HasStrictForm {
  readonly _tag = 'ArrayOf' as const;
  private strictTwin: ArrayOf<A> | undefined;
  constructor(
    readonly item: t.Type<A, A, unknown>,
    readonly constraints: ArrayConstraints = {},
  ) {
    const { minItems = 0, maxItems = Number.POSITIVE_INFINITY, listMapKeys } = constraints;
    const sizeOk = (u: unknown[]) => u.length >= minItems && u.length <= maxItems;
    super(
      describeArray(item.name, constraints),
      (u): u is A[] =>
        Array.isArray(u) &&
        sizeOk(u) &&
        u.every((v) => item.is(v)) &&
        (listMapKeys === undefined || firstDuplicate(u, listMapKeys) === -1),
      (u, c) => {
        if (!Array.isArray(u) || !sizeOk(u)) return t.failure(u, c);
        const errors: t.ValidationError[] = [];
        for (let i = 0; i < u.length; i++) {
          const value: unknown = u[i];
          const result = item.validate(value, t.appendContext(c, String(i), item, value));
          if (result._tag === 'Left') for (const e of result.left) errors.push(e);
        }
        if (errors.length === 0 && listMapKeys !== undefined) {
          const duplicate = firstDuplicate(u, listMapKeys);
          if (duplicate !== -1) {
            const value: unknown = u[duplicate];
            errors.push({
              value,
              context: t.appendContext(c, String(duplicate), item, value),
              message: Issue.duplicate,
            });
          }
        }
        return errors.length === 0 ? t.success(u as A[]) : t.failures(errors);
      },
      t.identity,
    );
  }
  /** Whether the array-level constraints (size, list-map keys) hold, items aside: for compiled guards. */
  readonly constraintsHold = (u: readonly unknown[]): boolean => {
    const { minItems = 0, maxItems = Number.POSITIVE_INFINITY, listMapKeys } = this.constraints;
    if (u.length < minItems || u.length > maxItems) return false;
    return listMapKeys === undefined || firstDuplicate(u, listMapKeys) === -1;
  };

  /** Whether the array has constraints beyond its items' codec. */
  get isConstrained(): boolean {
    const { minItems, maxItems, listMapKeys } = this.constraints;
    return minItems !== undefined || maxItems !== undefined || listMapKeys !== undefined;
  }

  strictForm(): ArrayOf<A> {
    const strictItem = strict(this.item);
    if (strictItem === this.item) return this;
    this.strictTwin ??= new ArrayOf(strictItem, this.constraints);
    return this.strictTwin;
  }
}

export function arrayOf<A>(item: t.Type<A, A, unknown>, constraints?: ArrayConstraints): ArrayOf<A> {
  return new ArrayOf(item, constraints);
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
          if (result._tag === 'Left') for (const e of result.left) errors.push(e);
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
