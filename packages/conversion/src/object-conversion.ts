import { mistypedTypeMeta } from '@capi-kit/core/objects';
import * as E from 'fp-ts/lib/Either.js';
import type { ConversionError, ConversionFailure } from './errors.js';
import { WrittenOutputs, writtenTwiceMessage } from './output-identity.js';
import { clone, isObject, type JsonObject } from './path.js';
import type { ObjectReport } from './report.js';

/**
 * What converting one object or List means, whichever converter does it: the v1alpha1 ⇄
 * v1alpha2 engine (convert.ts) and the chain (chain/convert.ts) share the result types, the
 * checks every input goes through first, the unchanged result, and how a typed List converts
 * item by item.
 */

/** One converted object, the objects generated for it, and what happened. */
export interface ObjectConversion {
  readonly object: JsonObject;
  readonly generated: readonly JsonObject[];
  readonly report: ObjectReport;
}

/**
 * A converted document: the object (or List), every object generated for it in order, and
 * one report per object (a List's own entry first, then one per item).
 */
export interface DocumentConversion {
  readonly object: JsonObject;
  readonly generated: readonly JsonObject[];
  readonly reports: readonly ObjectReport[];
}

/**
 * The object's name and namespace, when set (for reports and errors). Read straight from
 * `metadata` (it runs several times per converted object: input, report, generated objects).
 */
export function identity(object: JsonObject): { name?: string; namespace?: string } {
  const id: { name?: string; namespace?: string } = {};
  const metadata = Object.hasOwn(object, 'metadata') ? object.metadata : undefined;
  if (!isObject(metadata)) return id;
  const name = Object.hasOwn(metadata, 'name') ? metadata.name : undefined;
  if (typeof name === 'string' && name !== '') id.name = name;
  const namespace = Object.hasOwn(metadata, 'namespace') ? metadata.namespace : undefined;
  if (typeof namespace === 'string' && namespace !== '') id.namespace = namespace;
  return id;
}

/** An object passed through as it is. */
export function unchanged(object: JsonObject, kind: string): ObjectConversion {
  return {
    object,
    generated: [],
    report: {
      kind,
      ...identity(object),
      action: 'unchanged',
      moves: [],
      stashed: [],
      restored: [],
      keptEdits: [],
      generated: [],
      warnings: [],
    },
  };
}

export function single(c: ObjectConversion): DocumentConversion {
  return { object: c.object, generated: c.generated, reports: [c.report] };
}

/** An input that is an object with an apiVersion and a kind, and how to report its failures. */
export interface ConversionInput {
  readonly object: JsonObject;
  readonly apiVersion: string;
  readonly kind: string;
  /** An error about this object (its kind, name and namespace filled in). */
  readonly fail: (f: ConversionFailure) => ConversionError;
}

/** The checks every input goes through first: an object, with a non-empty apiVersion and kind. */
export function conversionInput(value: unknown): E.Either<ConversionError, ConversionInput> {
  if (!isObject(value)) return E.left({ code: 'invalid-object', message: 'is not an object' });
  const apiVersion = value.apiVersion;
  const kind = value.kind;
  // (the identity is read only when something fails)
  const fail = (f: ConversionFailure): ConversionError => ({
    code: 'invalid-object',
    ...(typeof kind === 'string' ? { objectKind: kind } : {}),
    ...identity(value),
    ...f,
  });
  if (typeof apiVersion !== 'string' || apiVersion === '' || typeof kind !== 'string' || kind === '') {
    const mistyped = mistypedTypeMeta(value);
    if (mistyped !== undefined) return E.left(fail(mistyped));
    const missing = typeof apiVersion !== 'string' || apiVersion === '' ? 'apiVersion' : 'kind';
    return E.left(fail({ path: missing, message: 'is missing' }));
  }
  return E.right({ object: value, apiVersion, kind, fail });
}

/**
 * A typed List (`MachineList`, …) converted item by item with `convertItem`: items must be
 * objects of the List's kind and version (or leave them out); the first failing item fails
 * the List, its path prefixed with `items[i]`. The List's own report comes first.
 */
function convertListItems(
  input: ConversionInput,
  itemKind: string,
  to: string,
  convertItem: (item: JsonObject) => E.Either<ConversionFailure, ObjectConversion>,
): E.Either<ConversionError, DocumentConversion> {
  const { object, apiVersion, kind, fail } = input;
  const items = object.items;
  if (items !== undefined && items !== null && !Array.isArray(items)) {
    return E.left(fail({ path: 'items', message: 'must be a list' }));
  }
  const converted: JsonObject[] = [];
  const results: ObjectConversion[] = [];
  for (const [i, item] of (items ?? []).entries()) {
    const at = `items[${i}]`;
    if (!isObject(item)) return E.left(fail({ path: at, message: 'is not an object' }));
    if (item.kind !== undefined && item.kind !== itemKind) {
      return E.left(fail({ path: `${at}.kind`, message: `is ${JSON.stringify(item.kind)} in a ${kind}` }));
    }
    if (item.apiVersion !== undefined && item.apiVersion !== apiVersion) {
      return E.left(
        fail({
          path: `${at}.apiVersion`,
          message: `mixed versions: the item is ${JSON.stringify(item.apiVersion)} but its ${kind} is ${apiVersion}`,
        }),
      );
    }
    const result = convertItem(item);
    if (E.isLeft(result)) {
      return E.left({
        code: result.left.code ?? 'invalid-object',
        objectKind: itemKind,
        ...identity(item),
        path: result.left.path === undefined ? at : `${at}.${result.left.path}`,
        message: result.left.message,
      });
    }
    converted.push(result.right.object);
    results.push(result.right);
  }
  const generated = distinctOutputs(results);
  if (E.isLeft(generated)) return E.left(fail(generated.left));
  // (`items: null` stays null: a List without items as it was given)
  const list = withItems(object, Array.isArray(items) ? converted : undefined);
  list.apiVersion = to;
  return E.right({
    object: list,
    generated: generated.right,
    reports: [
      { ...unchanged(list, kind).report, action: 'converted', from: apiVersion, to },
      ...results.map((r) => r.report),
    ],
  });
}

/**
 * A copy of a List with `items` (when given) in place of its own, which are not copied: they
 * were converted one by one, and copying them again would double a large List's cost.
 */
function withItems(list: JsonObject, items: JsonObject[] | undefined): JsonObject {
  if (items === undefined) return clone(list);
  // (the spread keeps the key order; `items` is replaced where it stands)
  const copy: JsonObject = clone({ ...list, items: [] });
  copy.items = items;
  return copy;
}

/**
 * The objects generated for a List's items, each written once: an object made twice alike
 * (a List holding one item twice) is kept once, and items that would make one object with
 * different content (two same-named Clusters, two credentials Secrets) are refused, as a
 * manifest refuses them, rather than leaving the later to overwrite the other on apply.
 */
function distinctOutputs(
  results: readonly { readonly generated: readonly JsonObject[] }[],
): E.Either<ConversionFailure, JsonObject[]> {
  const out: JsonObject[] = [];
  const written = new WrittenOutputs<number>();
  for (const [item, result] of results.entries()) {
    for (const value of result.generated) {
      const added = written.add(value, item);
      if (added === 'new') out.push(value);
      else if (added !== 'again') {
        return E.left({
          code: 'duplicate-output',
          path: `items[${item}]`,
          message: `${writtenTwiceMessage(value, `items[${added.conflict}]`)}; do two items share a name?`,
        });
      }
    }
  }
  return E.right(out);
}

/**
 * A `v1 List` (what `kubectl get -o json` gives for several objects) converts item by item,
 * each item an object of its own, of any kind and version (`convertItem`), as a manifest
 * converts it. The first failing item fails the List, its path prefixed with `items[i]`; the
 * List's own report (unchanged: it stays `v1`) comes first. Before, a v1 List passed through
 * as an object of the core group: nothing in it converted, and nothing said so.
 */
export function convertV1List(
  input: ConversionInput,
  convertItem: (item: unknown) => E.Either<ConversionError, DocumentConversion>,
): E.Either<ConversionError, DocumentConversion> {
  const { object, kind, fail } = input;
  const items = object.items;
  if (items === undefined || items === null) return E.right(single(unchanged(object, kind)));
  if (!Array.isArray(items)) return E.left(fail({ path: 'items', message: 'must be a list' }));
  const converted: JsonObject[] = [];
  const results: DocumentConversion[] = [];
  for (const [i, item] of items.entries()) {
    const result = convertItem(item);
    if (E.isLeft(result)) {
      const { path } = result.left;
      return E.left({
        ...result.left,
        path: path === undefined || path === '' ? `items[${i}]` : `items[${i}].${path}`,
      });
    }
    converted.push(result.right.object);
    results.push(result.right);
  }
  const generated = distinctOutputs(results);
  if (E.isLeft(generated)) return E.left(fail(generated.left));
  const list = withItems(object, converted);
  return E.right({
    object: list,
    generated: generated.right,
    reports: [unchanged(list, kind).report, ...results.flatMap((r) => r.reports)],
  });
}

/** How one converter converts one object of a kind it knows, and what it calls its versions. */
export interface KindConverter<K extends string> {
  readonly isKind: (kind: unknown) => kind is K;
  readonly convert: (object: JsonObject, kind: K) => E.Either<ConversionFailure, ObjectConversion>;
  /** The version converted from, for "unknown <from> kind" errors. */
  readonly from: string;
  /** What the target is called in the MachineClass refusal ("v1alpha2", "later"). */
  readonly machineClassTarget: string;
}

/**
 * The last step both converters share, once the versions are settled: a typed List item by
 * item, a MachineClass refused (only a whole manifest can resolve the objects using it), an
 * unknown kind refused, else the one object.
 */
export function convertListOrObject<K extends string>(
  input: ConversionInput,
  to: string,
  converter: KindConverter<K>,
): E.Either<ConversionError, DocumentConversion> {
  const { object, kind, fail } = input;
  const listOf = kind.endsWith('List') ? kind.slice(0, -'List'.length) : undefined;
  if (listOf !== undefined && converter.isKind(listOf)) {
    return convertListItems(input, listOf, to, (item) => converter.convert(item, listOf));
  }
  if (kind === 'MachineClass') {
    return E.left(
      fail({
        message: `MachineClass has no ${converter.machineClassTarget} kind; convert it together with the objects that use it (a whole manifest)`,
      }),
    );
  }
  if (!converter.isKind(kind))
    return E.left(fail({ path: 'kind', message: `unknown ${converter.from} kind ${JSON.stringify(kind)}` }));
  const result = converter.convert(object, kind);
  if (E.isLeft(result)) return E.left(fail(result.left));
  return E.right(single(result.right));
}
