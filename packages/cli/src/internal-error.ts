import { printable } from './text.js';

/** Set (to anything but `0` or empty) to see where an internal error happened. */
export const DEBUG_VARIABLE = 'CAPI_KIT_DEBUG';

/** Whether `env` asks for internal errors' stack traces. */
export function debugRequested(env: NodeJS.ProcessEnv): boolean {
  const value = env[DEBUG_VARIABLE];
  return value !== undefined && value !== '' && value !== '0';
}

/**
 * What the CLI prints when something throws that no command turned into a message: a bug of
 * capi-kit's, not of the input (exit 70). One line saying what was thrown, escaped like all
 * text output (a message may quote the input), and one saying what to do. The stack trace
 * is for whoever debugs capi-kit, so it is printed only when they ask (`CAPI_KIT_DEBUG=1`):
 * a user's terminal or a CI log gets no trace of library internals.
 */
export function internalErrorText(error: unknown, debug: boolean): string {
  const what = error instanceof Error ? `${error.name}: ${error.message}` : describeThrown(error);
  const lines = [`capi-kit: internal error: ${printable(what)}`];
  if (debug && error instanceof Error && error.stack !== undefined) {
    lines.push(...error.stack.split('\n').slice(1).map(printable));
  } else {
    lines.push(
      `capi-kit: this is a bug in capi-kit; please report it with the command that caused it (${DEBUG_VARIABLE}=1 shows where it happened)`,
    );
  }
  return `${lines.join('\n')}\n`;
}

/** A thrown value that is not an Error, as text (`String` itself throws on some: `Object.create(null)`). */
function describeThrown(value: unknown): string {
  try {
    return String(value);
  } catch {
    return `a thrown ${typeof value} without a text form`;
  }
}
