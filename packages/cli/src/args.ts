import { type ParseArgsConfig, parseArgs } from 'node:util';
import { UsageError } from './exit-codes.js';

type Options = NonNullable<ParseArgsConfig['options']>;

/**
 * `node:util` parseArgs in strict mode, with its errors turned into usage errors (exit 2).
 * Commands declare their flags as data and read typed values back.
 */
export function parseCommandLine<const O extends Options>(args: readonly string[], options: O) {
  try {
    const parsed = parseArgs({
      args: [...args],
      options,
      strict: true,
      allowPositionals: true,
      tokens: true,
    });
    // parseArgs keeps the last of a repeated flag; `-f a.yaml -f b.yaml` silently reading
    // only b.yaml is a usage error instead.
    const seen = new Set<string>();
    for (const token of parsed.tokens) {
      if (token.kind !== 'option' || options[token.name]?.multiple === true) continue;
      if (seen.has(token.name)) throw new UsageError(`${token.rawName} given more than once`);
      seen.add(token.name);
    }
    const { tokens: _tokens, ...result } = parsed;
    return result;
  } catch (error) {
    if (error instanceof UsageError) throw error;
    // (parseArgs' hint about positionals is dropped; its other messages run over several
    // lines, which a usage error prints as one)
    const message = error instanceof Error ? error.message : String(error);
    throw new UsageError(message.replace(/\. To specify a positional.*$/s, '').replaceAll('\n', ' '));
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
