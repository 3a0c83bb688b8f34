#!/usr/bin/env node
import { enableCompileCache } from 'node:module';

// Node's on-disk cache of compiled modules (Node >= 22.1): a second start skips parsing and
// compiling the CLI's modules. Turned on before anything else is imported, hence the dynamic
// import below; a cache that cannot be written is skipped by Node without an error.
enableCompileCache();
const { main } = await import('./main.js');

// A reader that stops early (`capi-kit providerid parse < ids | head`) closes the pipe;
// that is the reader's choice, not an error of ours, so end quietly as other Unix tools do.
// Any other write error (a full disk: ENOSPC, an unwritable descriptor) means the output is
// incomplete: said once on stderr, exit 1, never reported as success nor as a stack trace.
let writeFailed = false;
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  if (!writeFailed) {
    writeFailed = true;
    process.stderr.write(`capi-kit: cannot write to standard output: ${error.code ?? error.message}\n`);
  }
  process.exit(1);
});

// A command is over when main resolves: exit then (once stdout has drained), rather than
// when the event loop empties. A watch connection that a library's stop() has not torn
// down yet would otherwise keep a finished `autoscaler node-group` alive for ~30 s.
main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
    // A failed write is the stdout 'error' handler's to report (exit 1).
    process.stdout.write('', (error) => {
      if (!error) process.exit(code);
    });
  },
  (error: unknown) => {
    process.stderr.write(
      `capi-kit: internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    process.exitCode = 70;
  },
);
