import type { Command, CommandBody, CommandEntry } from './command.js';
import { commands as defaultCommands } from './commands/index.js';
import { CliError, type CliErrorCode, ExitCode, exitCodeOfError } from './exit-codes.js';
import { type CliIO, processIO } from './io.js';
import { printable, shortened } from './text.js';
import { version } from './version.js';

function help(commands: readonly (Command | CommandEntry)[]): string {
  const width = Math.max(0, ...commands.map((c) => c.name.length));
  const lines = commands.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`);
  return [
    'capi-kit — tools for Kubernetes Cluster API objects',
    '',
    'Usage: capi-kit <command> [options]',
    '',
    'Commands:',
    ...(lines.length > 0 ? lines : ['  (none yet)']),
    '',
    'Options:',
    '  -h, --help     show help (also: capi-kit <command> --help)',
    '  -V, --version  print the version',
    '',
    'Exit codes: 0 success, 1 input or validation error or refusal, 2 usage error, 3 cluster/API error.',
    '',
  ].join('\n');
}

/** Runs the CLI with `argv` (without node and script) and resolves to the exit code. */
export async function main(
  argv: readonly string[],
  io: CliIO = processIO,
  commands: readonly (Command | CommandEntry)[] = defaultCommands,
): Promise<number> {
  const [first, ...rest] = argv;
  if (first === undefined) {
    // (a usage error: the help goes to stderr, as nothing goes to stdout on a failure)
    io.stderr(help(commands));
    return ExitCode.usage;
  }
  if (first === '-h' || first === '--help' || first === 'help') {
    io.stdout(help(commands));
    return ExitCode.ok;
  }
  if (first === '-V' || first === '--version') {
    io.stdout(`${version}\n`);
    return ExitCode.ok;
  }
  const command = commands.find((c) => c.name === first);
  if (command === undefined) {
    io.stderr(
      `capi-kit: unknown command '${printable(shortened(first))}'\nRun 'capi-kit --help' for the list of commands.\n`,
    );
    return ExitCode.usage;
  }
  const body: CommandBody = 'load' in command ? await command.load() : command;
  // (after `--` they are operands: `providerid parse -- --help` parses the ID "--help")
  const end = rest.indexOf('--');
  const flags = end < 0 ? rest : rest.slice(0, end);
  if (flags.includes('-h') || flags.includes('--help')) {
    io.stdout(body.usage.endsWith('\n') ? body.usage : `${body.usage}\n`);
    return ExitCode.ok;
  }
  try {
    return await body.run(rest, io);
  } catch (error) {
    if (!(error instanceof CliError)) throw error;
    const hint = error.code === 'usage' ? `\nRun 'capi-kit ${command.name} --help' for usage.` : '';
    // (a usage error quotes the command line, which may be megabytes long)
    const message = error.code === 'usage' ? shortened(error.message) : error.message;
    io.stderr(`capi-kit ${command.name}: ${printable(message)}${hint}\n`);
    return exitCodeOfError[error.code as CliErrorCode];
  }
}
