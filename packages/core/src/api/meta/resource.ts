import type * as t from 'io-ts';
import { arrayOf, literal, nullable, type Props, StructType, struct } from '../schema/index.js';
import { ListMetaCodec } from './object-meta.js';

/**
 * An object as it appears inside a List. The API server writes `apiVersion` and `kind` on
 * each item, but typed Go clients leave them out, so they are optional there.
 */
export type ListItem<T extends { apiVersion: string; kind: string }> = Omit<T, 'apiVersion' | 'kind'> &
  Partial<Pick<T, 'apiVersion' | 'kind'>>;

/** The codecs of one kind: the object itself and the form it takes inside its List. */
export interface ResourceCodecs<T extends { apiVersion: string; kind: string }> {
  readonly codec: t.Type<T>;
  readonly itemCodec: t.Type<ListItem<T>>;
}

/**
 * Builds a kind's codecs. `apiVersion` and `kind` are required and fixed on the object;
 * inside a List they are optional but still fixed when present.
 */
export function resourceCodecs<T extends { apiVersion: string; kind: string }>(
  apiVersion: T['apiVersion'],
  kind: T['kind'],
  required: Props,
  optional: Props,
): ResourceCodecs<T> {
  const typeMeta = { apiVersion: literal(apiVersion), kind: literal(kind) };
  return {
    codec: new StructType<T>(kind, { ...typeMeta, ...required }, optional, false),
    itemCodec: new StructType<ListItem<T>>(kind, required, { ...typeMeta, ...optional }, false),
  };
}

/** `XxxList`: `items` has no `omitempty` in Go, so an empty list may be written as `null`. */
export function listCodec<L extends { apiVersion: string; kind: string }, Item>(
  apiVersion: L['apiVersion'],
  kind: L['kind'],
  item: t.Type<Item>,
): t.Type<L> {
  return struct(
    kind,
    { apiVersion: literal(apiVersion), kind: literal(kind), items: nullable(arrayOf(item)) },
    { metadata: ListMetaCodec },
  ) as unknown as t.Type<L>;
}
