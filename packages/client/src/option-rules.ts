import type { ClientError } from './errors.js';
import { shownValue } from './names.js';

/**
 * The rules of the options that are no names: numbers that must be whole and in range, and
 * strings. Shared by the informer's options and `ResourceClient`'s list and watch options,
 * so a page size means the same thing to both.
 */

export const invalidOption = (path: string, message: string): ClientError => ({
  code: 'invalid-option',
  path,
  message,
});

/** What a whole-number option must be: from 1 to `max`, `rule` saying so in words. */
export interface NumberRule {
  readonly max: number;
  readonly rule: string;
}

/** setTimeout's longest delay: a longer one fires at once (Node warns and waits 1 ms). */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** A timer's delay: 0, negative or NaN looped; past 2³¹−1 Node's timer fires at once. */
export const TIMER_MS: NumberRule = {
  max: MAX_TIMER_MS,
  rule: `whole milliseconds from 1 to ${MAX_TIMER_MS}`,
};

/**
 * Objects per page of a list (its `limit`): 0 is "no limit" to the server (the whole
 * collection in one answer), a fraction or a negative number it refuses or reads otherwise.
 */
export const PAGE_SIZE: NumberRule = {
  max: Number.MAX_SAFE_INTEGER,
  rule: 'a whole number of objects from 1 up',
};

/** Why `value`, the option at `path`, breaks `rule`, if it does (absent is fine). */
export function wholeNumberProblem(
  path: string,
  value: unknown,
  { max, rule }: NumberRule,
): ClientError | undefined {
  if (value === undefined) return undefined;
  if (typeof value === 'number' && Number.isInteger(value) && value >= 1 && value <= max) return undefined;
  return invalidOption(
    path,
    `${path} ${typeof value === 'number' ? String(value) : shownValue(value)} is not ${rule}`,
  );
}

/** Why `value`, the option at `path`, is no string, if it is not (absent is fine). */
export function stringOptionProblem(path: string, value: unknown): ClientError | undefined {
  if (value === undefined || typeof value === 'string') return undefined;
  return invalidOption(path, `${path} ${shownValue(value)} is not a string`);
}
