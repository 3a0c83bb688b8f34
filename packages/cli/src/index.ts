export type { Command } from './command.js';
export { CliError, type CliErrorCode, ExitCode, exitCodeOfError, UsageError } from './exit-codes.js';
export type { CliIO } from './io.js';
export { main } from './main.js';
