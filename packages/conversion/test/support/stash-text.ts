import * as E from 'fp-ts/lib/Either.js';
import { CONVERSION_DATA_ANNOTATION, type JsonObject } from '../../src/index.js';

/** Helpers of the tests on what a stash keeps out (key pairs, credentials). */

export function right<T>(result: E.Either<unknown, T>): T {
  if (E.isLeft(result)) throw new Error(JSON.stringify(result.left));
  return result.right;
}

/** The (first) error of a conversion that must fail. */
export function left(result: E.Either<unknown, unknown>): { code?: string; path?: string; message: string } {
  if (E.isRight(result)) throw new Error(`converted: ${JSON.stringify(result.right)}`);
  return (Array.isArray(result.left) ? result.left[0] : result.left) as { message: string };
}

/** The object's stash annotation text. */
export const stashOf = (object: unknown): string =>
  ((object as JsonObject).metadata as { annotations: Record<string, string> }).annotations[
    CONVERSION_DATA_ANNOTATION
  ]!;

/** `object` (changed in place) with its stash's `patch` edited, as whoever may annotate it could. */
export function withForgedPatch(object: JsonObject, edit: (patch: JsonObject[]) => JsonObject[]): JsonObject {
  const stash = JSON.parse(stashOf(object));
  stash.patch = edit(stash.patch);
  const annotations = (object.metadata as { annotations: Record<string, string> }).annotations;
  annotations[CONVERSION_DATA_ANNOTATION] = JSON.stringify(stash);
  return object;
}
