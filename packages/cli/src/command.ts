import type { CliIO } from './io.js';

/** One `capi-kit <name>` subcommand. Each lives in its own module under commands/. */
export interface Command {
  readonly name: string;
  /** One line for `capi-kit --help`. */
  readonly summary: string;
  /** The full usage text for `capi-kit <name> --help`. */
  readonly usage: string;
  /** Runs with the arguments after the command name; resolves to the exit code. */
  readonly run: (args: readonly string[], io: CliIO) => Promise<number>;
}
