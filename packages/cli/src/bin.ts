#!/usr/bin/env node
import { main } from './main.js';

// A reader that stops early (`capi-kit providerid parse < ids | head`) closes the pipe;
// that is the reader's choice, not an error of ours, so end quietly as other Unix tools do.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  throw error;
});

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(
      `capi-kit: internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    process.exitCode = 70;
  },
);
