import type * as t from 'io-ts';
import { Issue } from '../api/schema/issues.js';
import { StructType } from '../api/schema/struct.js';
import { appendJsonPath } from '../objects/json-path.js';

/**
 * What is wrong at one path: a value of the wrong type (`type`), or one of the `Issue`s —
 * a required field `missing`, a list-map item's key `duplicate`d, an object with
 * `too-few-fields` set, or (strict mode) an `unknown` field.
 */
export type SchemaErrorCode = 'type' | Issue;

/** One reason a value does not match its schema, tagged `code` like every capi-kit error. */
export interface SchemaError {
  /** What went wrong: a type mismatch, a missing required field, or (strict mode) an unknown field. */
  readonly code: SchemaErrorCode;
  /** Where, as a JSON path: `spec.template.spec.infrastructureRef.name`, `spec.taints[0].key`; `""` is the value itself. */
  readonly path: string;
  /** What the schema wants there: `int32`, `string`, `"Random" | "Newest" | "Oldest"`, `ObjectReference object`, ... */
  readonly expected: string;
  /** The value found (`undefined` when a required field is missing). */
  readonly received: unknown;
  /** One line for people: `spec.replicas: expected int32, got "3"`. */
  readonly message: string;
}

/**
 * Joins the keys of an io-ts context into a JSON path. Index keys under an array print
 * as `[i]`, keys that are not identifiers (label names) as `["a/b"]`. The codecs here never
 * add intersection or union members to the context, so every key is a real one.
 */
export function contextPath(context: t.Context): string {
  let path = '';
  for (let i = 1; i < context.length; i++) {
    const entry = context[i]!;
    const parent = context[i - 1]!;
    path = appendJsonPath(path, entry.key, Array.isArray(parent.actual));
  }
  return path;
}

function describeType(type: t.Decoder<unknown, unknown>): string {
  return type instanceof StructType ? `${type.name} object` : type.name;
}

/** A short rendering of a received value: JSON, cut to `max` characters. */
export function describeValue(value: unknown, max = 48): string {
  if (value === undefined) return 'nothing';
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = String(value);
  }
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** Turns io-ts validation errors into `SchemaError`s, one per failing field, in schema order. */
export function reportErrors(errors: t.Errors): SchemaError[] {
  return errors.map((error) => {
    const last = error.context[error.context.length - 1];
    const path = contextPath(error.context);
    const expected = last === undefined ? 'value' : describeType(last.type);
    const where = path === '' ? '(root)' : path;
    if (error.message === Issue.missing) {
      return {
        path,
        expected,
        received: undefined,
        code: Issue.missing,
        message: `${where}: required field is missing (expected ${expected})`,
      };
    }
    if (error.message === Issue.duplicate) {
      return {
        path,
        expected: 'a unique key',
        received: error.value,
        code: Issue.duplicate,
        message: `${where}: duplicate list item (the list's key repeats an earlier item's)`,
      };
    }
    if (error.message === Issue.tooFewFields) {
      return {
        path,
        expected,
        received: error.value,
        code: Issue.tooFewFields,
        message: `${where}: ${expected} needs at least ${last?.type instanceof StructType ? (last.type.constraints.minProperties ?? 1) : 1} field(s) set, got ${describeValue(error.value)}`,
      };
    }
    if (error.message === Issue.unknown) {
      return {
        path,
        expected: 'no such field',
        received: error.value,
        code: Issue.unknown,
        message: `${where}: unknown field`,
      };
    }
    return {
      path,
      expected,
      received: error.value,
      code: 'type',
      message: `${where}: expected ${expected}, got ${describeValue(error.value)}`,
    };
  });
}
