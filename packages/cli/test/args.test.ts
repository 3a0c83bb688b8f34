import { describe, expect, it } from 'vitest';
import { parseCommandLine } from '../src/args.js';
import { UsageError } from '../src/exit-codes.js';

const options = { file: { type: 'string', short: 'f' }, quiet: { type: 'boolean' } } as const;
const usageMessage = (args: string[]) => {
  try {
    parseCommandLine(args, options);
  } catch (error) {
    if (error instanceof UsageError) return error.message;
    throw error;
  }
  throw new Error(`parsed ${JSON.stringify(args)}`);
};

describe('parseCommandLine', () => {
  it('reads flags and positionals', () => {
    expect(parseCommandLine(['-f', 'a.yaml', 'x'], options)).toEqual({
      values: { file: 'a.yaml' },
      positionals: ['x'],
    });
  });

  it("gives parseArgs' several-line messages as one line, with their hint", () => {
    // (`-f --` is ambiguous: parseArgs' message runs over three lines, printed as \x0a)
    expect(usageMessage(['-f', '--'])).toBe(
      "Option '-f' argument is ambiguous. Did you forget to specify the option argument for '-f'? To specify an option argument starting with a dash use '--file=-XYZ' or '-f-XYZ'.",
    );
  });

  it('drops the hint about positionals and refuses a flag given twice', () => {
    expect(usageMessage(['--nope'])).toBe("Unknown option '--nope'");
    expect(usageMessage(['-f', 'a', '-f', 'b'])).toBe('-f given more than once');
  });
});
