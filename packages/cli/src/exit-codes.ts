/** The CLI's exit codes: part of its scriptable contract (see each command's usage text). */
export const ExitCode = {
  ok: 0,
  /** Bad input: a document that does not decode, convert or parse. */
  input: 1,
  /** The command line itself is wrong: unknown command or flag, missing argument. */
  usage: 2,
  /** The cluster or its API answered with an error, or could not be reached. */
  cluster: 3,
} as const;
export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode];

/** Thrown for a malformed command line; `main` prints it with a hint and exits 2. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}
