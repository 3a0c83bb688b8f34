import type { CliIO } from './io.js';

/** What a command module exports: its usage text and how it runs. */
export interface CommandBody {
  /** The full usage text for `capi-kit <name> --help`. */
  readonly usage: string;
  /** Runs with the arguments after the command name; resolves to the exit code. */
  readonly run: (args: readonly string[], io: CliIO) => Promise<number>;
}

/** One `capi-kit <name>` subcommand, all of it at hand (tests and embedders pass these). */
export interface Command extends CommandBody {
  readonly name: string;
  /** One line for `capi-kit --help`. */
  readonly summary: string;
}

/**
 * A row of the CLI's command table: what `--help` lists, and how to import the rest of the
 * command, which happens only when it runs (start-up then loads nothing a command does not use).
 */
export interface CommandEntry {
  readonly name: string;
  /** One line for `capi-kit --help`. */
  readonly summary: string;
  readonly load: () => Promise<CommandBody>;
}
