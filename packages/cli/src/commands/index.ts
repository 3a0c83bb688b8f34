import type { Command } from '../command.js';
import { convertCommand } from './convert.js';
import { leaseCommand } from './lease.js';
import { phaseCommand } from './phase.js';
import { providerIDCommand } from './providerid.js';
import { validateCommand } from './validate.js';

/**
 * Every subcommand, in the order `--help` lists them. A new command is one module in
 * this folder plus one line here.
 */
export const commands: readonly Command[] = [
  convertCommand,
  validateCommand,
  phaseCommand,
  providerIDCommand,
  leaseCommand,
];
