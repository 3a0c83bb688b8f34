import { decodeWith, type SchemaError } from '@capi-kit/core';
import * as E from 'fp-ts/lib/Either.js';
import type * as t from 'io-ts';
import type { ClientError, InvalidObject } from './errors.js';

/** An object read from the server that did not decode: kept raw, with every error and its path. */
export type Unreadable = Extract<ClientError, { code: 'invalid-object' | 'conversion-failed' }>;

function metaOf(raw: unknown): { namespace?: string; name?: string } {
  const metadata =
    typeof raw === 'object' && raw !== null ? (raw as { metadata?: unknown }).metadata : undefined;
  if (typeof metadata !== 'object' || metadata === null) return {};
  const { name, namespace } = metadata as { name?: unknown; namespace?: unknown };
  return {
    ...(typeof namespace === 'string' ? { namespace } : {}),
    ...(typeof name === 'string' ? { name } : {}),
  };
}

/** The namespace and name of a raw object, when it has them. */
export const identityOf = metaOf;

/** `Machine default/web-0 (cluster.x-k8s.io/v1alpha2) does not decode: 2 errors: spec.x: …`. */
function invalidMessage(object: Omit<InvalidObject, 'message'>): string {
  const where = object.namespace === undefined ? '' : `${object.namespace}/`;
  const first = object.errors.slice(0, 3).map((e: SchemaError) => e.message);
  const more = object.errors.length > 3 ? `; and ${object.errors.length - 3} more` : '';
  return `${object.kind} ${where}${object.name ?? '(unnamed)'} (${object.apiVersion}) does not decode: ${first.join('; ')}${more}`;
}

/** Builds the `invalid-object` error for a raw object and its schema errors. */
export function invalidObject(
  raw: unknown,
  apiVersion: string,
  kind: string,
  errors: readonly SchemaError[],
): Unreadable {
  const base = { apiVersion, kind, ...metaOf(raw), object: raw, errors };
  return { code: 'invalid-object', path: errors[0]?.path ?? '', ...base, message: invalidMessage(base) };
}

/**
 * Checks a served object against its codec. The object itself comes back on success
 * (nothing copied or dropped); on failure it comes back raw with every error.
 */
export function decodeServed<T>(
  codec: t.Mixed,
  raw: unknown,
  apiVersion: string,
  kind: string,
): E.Either<Unreadable, T> {
  const decoded = decodeWith(codec, raw);
  return E.isRight(decoded)
    ? E.right(decoded.right as T)
    : E.left(invalidObject(raw, apiVersion, kind, decoded.left));
}
