import { type ParseArgsConfig, parseArgs } from 'node:util';
import { UsageError } from './exit-codes.js';

type Options = NonNullable<ParseArgsConfig['options']>;

/**
 * `node:util` parseArgs in strict mode, with its errors turned into usage errors (exit 2).
 * Commands declare their flags as data and read typed values back.
 */
export function parseCommandLine<const O extends Options>(args: readonly string[], options: O) {
  try {
    return parseArgs({ args: [...args], options, strict: true, allowPositionals: true });
  } catch (error) {
    throw new UsageError(
      error instanceof Error ? error.message.replace(/\. To specify a positional.*$/s, '') : String(error),
    );
  }
}

/** Checks that `value` is one of `allowed`, naming the flag when it is not. */
export function oneOf<const T extends string>(
  flag: string,
  value: string | undefined,
  allowed: readonly T[],
  fallback: T,
): T {
  if (value === undefined) return fallback;
  if ((allowed as readonly string[]).includes(value)) return value as T;
  throw new UsageError(`${flag} must be one of ${allowed.join(', ')} (got '${value}')`);
}
