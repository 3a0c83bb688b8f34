import { describe, expect, it } from 'vitest';
import type { Command } from '../src/command.js';
import { ExitCode, UsageError } from '../src/exit-codes.js';
import { main } from '../src/main.js';
import { version } from '../src/version.js';
import { captureIO } from './helpers/capture-io.js';

const echo: Command = {
  name: 'echo',
  summary: 'prints its arguments',
  usage: 'Usage: capi-kit echo [WORD ...]',
  run: async (args, io) => {
    if (args.includes('--bad')) throw new UsageError('--bad is not allowed');
    io.stdout(`${args.join(' ')}\n`);
    return ExitCode.ok;
  },
};

describe('capi-kit main', () => {
  it('prints help listing the commands', async () => {
    const c = captureIO();
    expect(await main(['--help'], c.io, [echo])).toBe(0);
    expect(c.stdout()).toContain('echo  prints its arguments');
  });

  it('prints help on stderr and exits 2 with no command (nothing on stdout on a failure)', async () => {
    const c = captureIO();
    expect(await main([], c.io, [echo])).toBe(ExitCode.usage);
    expect(c.stderr()).toContain('Usage: capi-kit <command>');
    expect(c.stdout()).toBe('');
  });

  it('-h and --help after `--` are operands, not a request for help', async () => {
    const c = captureIO();
    expect(await main(['providerid', 'parse', '--json', '--', '--help', '-h'], c.io)).toBe(ExitCode.input);
    expect(
      c
        .stdout()
        .trimEnd()
        .split('\n')
        .map((line) => JSON.parse(line)),
    ).toMatchObject([
      { input: '--help', valid: false },
      { input: '-h', valid: false },
    ]);
    const help = captureIO();
    expect(await main(['providerid', 'parse', '--help', '--', 'x'], help.io)).toBe(0);
    expect(help.stdout()).toContain('Usage: capi-kit providerid parse');
  });

  it('prints the package version', async () => {
    const c = captureIO();
    expect(await main(['--version'], c.io, [echo])).toBe(0);
    expect(c.stdout()).toBe(`${version}\n`);
    expect(version).toMatch(/^\d+\.\d+\.\d+/);
  });

  it('rejects an unknown command with exit 2', async () => {
    const c = captureIO();
    expect(await main(['nope'], c.io, [echo])).toBe(ExitCode.usage);
    expect(c.stderr()).toContain("unknown command 'nope'");
  });

  it('runs a command and shows its usage', async () => {
    const c = captureIO();
    expect(await main(['echo', 'a', 'b'], c.io, [echo])).toBe(0);
    expect(c.stdout()).toBe('a b\n');
    const h = captureIO();
    expect(await main(['echo', '--help'], h.io, [echo])).toBe(0);
    expect(h.stdout()).toBe('Usage: capi-kit echo [WORD ...]\n');
  });

  it('shows a long command-line text in a usage message by its start and end', async () => {
    // (before, a 5 MB argument came back whole, in the unknown command and in every usage error)
    const long = `${'a'.repeat(700)}${'\u{1F600}'.repeat(5_000_000)}${'z'.repeat(199)}`;
    const unknown = captureIO();
    expect(await main([long], unknown.io, [echo])).toBe(ExitCode.usage);
    const shown = `${'a'.repeat(600)}… (5000099 characters left out) …😀${'z'.repeat(199)}`;
    expect(unknown.stderr()).toBe(
      `capi-kit: unknown command '${shown}'\nRun 'capi-kit --help' for the list of commands.\n`,
    );
    const quoting: Command = {
      ...echo,
      run: async (args) => {
        throw new UsageError(`unexpected argument '${args[0]}'`);
      },
    };
    const usage = captureIO();
    expect(await main(['echo', long], usage.io, [quoting])).toBe(ExitCode.usage);
    expect(usage.stderr()).toBe(
      `capi-kit echo: unexpected argument '${'a'.repeat(579)}… (5000121 characters left out) …${'z'.repeat(199)}'\nRun 'capi-kit echo --help' for usage.\n`,
    );
    // A message of ordinary length is shown whole.
    const short = captureIO();
    expect(await main(['echo', 'x'.repeat(800)], short.io, [quoting])).toBe(ExitCode.usage);
    expect(short.stderr()).toContain(`'${'x'.repeat(800)}'`);
  });

  it('turns a usage error into exit 2 with a hint', async () => {
    const c = captureIO();
    expect(await main(['echo', '--bad'], c.io, [echo])).toBe(ExitCode.usage);
    expect(c.stderr()).toContain('--bad is not allowed');
    expect(c.stderr()).toContain('capi-kit echo --help');
  });
});
