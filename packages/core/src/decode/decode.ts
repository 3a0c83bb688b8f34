import * as E from 'fp-ts/lib/Either.js';
import * as t from 'io-ts';
import { compiledGuard } from '../api/schema/compile.js';
import { strict } from '../api/schema/strict.js';
import { isPlainObject } from '../api/schema/struct.js';
import { mistypedTypeMeta } from '../objects/type-meta.js';
import { type CapiObject, defaultRegistry, type KindRegistry } from './registry.js';
import { reportErrors, type SchemaError } from './report.js';

export interface DecodeOptions {
  /** Also report every field the schema does not define (default: unknown fields pass through). */
  readonly strict?: boolean;
  /** The kinds to recognise (default: the Cluster API kinds of both versions). */
  readonly registry?: KindRegistry;
}

/**
 * Why `decode` refused a value, tagged `code` like every capi-kit error. Every variant has a
 * one-line `message`; `unknown-kind` has a `path` when a type-meta field is missing, and
 * `invalid-type-meta` names the field that is there but not a string (the `invalid`
 * variant's paths are on each of its `errors`).
 */
export type DecodeError =
  | { readonly code: 'not-an-object'; readonly message: string }
  | {
      readonly code: 'unknown-kind';
      readonly apiVersion: string | undefined;
      readonly kind: string | undefined;
      /** `apiVersion` or `kind` when that field is missing; absent when the pair is unknown. */
      readonly path?: 'apiVersion' | 'kind';
      readonly message: string;
    }
  | {
      /**
       * `apiVersion: 5`, `kind: [Machine]`: no Kubernetes object (the API server, kubectl and
       * client-go all refuse to decode it), so not a document of some other kind to skip.
       */
      readonly code: 'invalid-type-meta';
      readonly path: 'apiVersion' | 'kind';
      readonly message: string;
    }
  | {
      readonly code: 'invalid';
      readonly apiVersion: string;
      readonly kind: string;
      readonly errors: readonly SchemaError[];
      readonly message: string;
    };

/**
 * Checks `value` against `codec` and returns every error at once. The value itself is
 * returned on success: nothing is copied, dropped or rewritten.
 */
export function decodeWith<A>(
  codec: t.Type<A, unknown, unknown>,
  value: unknown,
  options: Pick<DecodeOptions, 'strict'> = {},
): E.Either<SchemaError[], A> {
  const checked = options.strict ? strict(codec as t.Mixed) : codec;
  // Fast path: the type guard, compiled to straight-line code (compile.ts), allocates no error
  // contexts; only a failing value is walked again by `validate` to collect every error with
  // its path. It is only valid for codecs that do not transform (all of capi-kit's: their
  // encode is the identity), since a guard speaks about the decoded type.
  if (checked.encode === t.identity && compiledGuard(checked)(value)) return E.right(value as A);
  const result = checked.validate(value, [{ key: '', type: codec, actual: value }]);
  return E.isLeft(result) ? E.left(reportErrors(result.left)) : E.right(result.right as A);
}

function typeMetaField(value: Record<string, unknown>, key: string): string | undefined {
  const field = value[key];
  return typeof field === 'string' ? field : undefined;
}

/**
 * Decodes any Cluster API object: looks up the codec by `apiVersion` + `kind` and checks
 * the whole value. The result is the input itself, typed as the union `CapiObject`;
 * narrow it on `apiVersion` and `kind` (or with `isKind`).
 */
export function decode(value: unknown, options: DecodeOptions = {}): E.Either<DecodeError, CapiObject> {
  if (!isPlainObject(value)) {
    return E.left({
      code: 'not-an-object',
      message: 'not a Kubernetes object (expected a JSON/YAML mapping)',
    });
  }
  const apiVersion = typeMetaField(value, 'apiVersion');
  const kind = typeMetaField(value, 'kind');
  // (only an object without both strings is asked why: decoding valid objects pays nothing)
  const mistyped = apiVersion === undefined || kind === undefined ? mistypedTypeMeta(value) : undefined;
  if (mistyped !== undefined)
    return E.left({
      code: 'invalid-type-meta',
      path: mistyped.path,
      message: `${mistyped.path}: ${mistyped.message}`,
    });
  const codec =
    apiVersion === undefined || kind === undefined
      ? undefined
      : (options.registry ?? defaultRegistry).lookup(apiVersion, kind);
  if (codec === undefined || apiVersion === undefined || kind === undefined) {
    const missing = apiVersion === undefined ? 'apiVersion' : kind === undefined ? 'kind' : undefined;
    const what = missing === undefined ? `unknown kind ${kind} in ${apiVersion}` : 'no apiVersion and kind';
    return E.left({
      code: 'unknown-kind',
      apiVersion,
      kind,
      ...(missing && { path: missing }),
      message: what,
    });
  }
  const result = decodeWith(codec, value, options);
  if (E.isRight(result)) return result as E.Right<CapiObject>;
  const errors = result.left;
  return E.left({
    code: 'invalid',
    apiVersion,
    kind,
    errors,
    message: `${kind} (${apiVersion}) is invalid: ${errors.length} error${errors.length === 1 ? '' : 's'}`,
  });
}

/** Narrows a decoded object to one apiVersion + kind. */
export function isKind<V extends CapiObject['apiVersion'], K extends CapiObject['kind']>(
  object: CapiObject,
  apiVersion: V,
  kind: K,
): object is Extract<CapiObject, { apiVersion: V; kind: K }> {
  return object.apiVersion === apiVersion && object.kind === kind;
}
