#!/usr/bin/env node
// A namespace import: a named import of an export this Node.js lacks would fail before the
// version check below could say why.
import * as nodeModule from 'node:module';
import { unsupportedNode } from './node-version.js';

// An older Node.js than package.json's engines gets one line and exit 1, not a stack trace
// from the first API it lacks.
const unsupported = unsupportedNode(process.versions.node);
if (unsupported !== undefined) {
  process.stderr.write(`capi-kit: ${unsupported}\n`);
  process.exit(1);
}

// Node's on-disk cache of compiled modules (Node >= 22.1): a second start skips parsing and
// compiling the CLI's modules. Turned on before the CLI itself is imported, hence the dynamic
// import below; a cache that cannot be written is skipped by Node without an error.
nodeModule.enableCompileCache();
const { main } = await import('./main.js');

// A failed write on stdout means the output is incomplete, whoever caused it: a full disk
// (ENOSPC), an unwritable descriptor, or a reader that closed the pipe before reading
// everything (EPIPE: `capi-kit convert -f big.yaml | head -c1`). A script must not take
// partial output for a result, so it is said once on stderr and the exit code is 1; never
// success, never a stack trace. (A stdout closed with `>&-` cannot be told from
// `>/dev/null`: Node reopens a closed descriptor 0-2 on /dev/null at start-up; see
// packages/cli/README.md, "Output and write errors".)
let writeFailed = false;
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (!writeFailed) {
    writeFailed = true;
    process.stderr.write(`capi-kit: cannot write to standard output: ${error.code ?? error.message}\n`);
  }
  process.exit(1);
});
// A diagnostic that cannot be written has nowhere to be reported; the exit code still says
// how the command ended (rather than an unhandled 'error' event ending it with a trace).
process.stderr.on('error', () => {});

// Anything a command did not turn into a message is a bug of capi-kit's: exit 70, and a
// message without a stack trace unless CAPI_KIT_DEBUG asks for one (internal-error.ts). So
// too for what a library throws outside the command's own promise (an event handler of
// client-node's informer, say), which Node would print with its stack and exit 1 for.
async function internalError(error: unknown): Promise<void> {
  process.exitCode = 70;
  const { debugRequested, internalErrorText } = await import('./internal-error.js');
  process.stderr.write(internalErrorText(error, debugRequested(process.env)));
}
process.on('uncaughtException', (error) => {
  void internalError(error).finally(() => process.exit(70));
});

// A command is over when main resolves: exit then (once stdout has drained), rather than
// when the event loop empties, so that nothing a library leaves pending can delay the exit
// of a command whose output is complete. (The libraries' stop() do end their watches:
// packages/autoscaler/test/stop.integration.test.ts.)
main(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
  // A failed write is the stdout 'error' handler's to report (exit 1).
  process.stdout.write('', (error) => {
    if (!error) process.exit(code);
  });
}, internalError);
