import { type ChildProcess, spawn } from 'node:child_process';
import { closeSync, openSync, readFileSync, rmSync } from 'node:fs';

// Node has no prctl(PR_SET_PDEATHSIG). To make sure etcd and kube-apiserver die with the
// test process, even when it is killed with SIGKILL or crashes, each one runs under a tiny
// POSIX shell guard whose stdin is a pipe from Node. The kernel closes that pipe whenever
// Node exits, however it exits; the guard sees end-of-file and terminates its child
// (SIGTERM, then SIGKILL after a grace period). stop() uses the very same path: it closes
// the pipe. The guard leads its own process group so a last-resort SIGKILL reaches both.
const guardScript = `
exec 3<&0 0</dev/null
"$@" 3<&- &
child=$!
(
  while read -r _ <&3; do :; done
  kill -TERM "$child" 2>/dev/null || exit 0
  i=0
  while kill -0 "$child" 2>/dev/null; do
    i=$((i + 1))
    if [ "$i" -ge "$GUARD_GRACE_TICKS" ]; then kill -KILL "$child" 2>/dev/null; exit 0; fi
    sleep 0.1
  done
) &
watcher=$!
exec 3<&-
trap 'kill -TERM "$child" 2>/dev/null' TERM INT HUP
while :; do
  wait "$child"
  status=$?
  kill -0 "$child" 2>/dev/null || break
done
kill "$watcher" 2>/dev/null
wait "$watcher" 2>/dev/null
if [ -n "$GUARD_REMOVE_AFTER" ]; then rm -rf "$GUARD_REMOVE_AFTER"; fi
exit "$status"
`;

/** Options for {@link startSupervisedProcess}. */
export interface SupervisedProcessOptions {
  /** Short name used in messages ("etcd", "kube-apiserver"). */
  name: string;
  binary: string;
  args: readonly string[];
  /** Both stdout and stderr of the process are appended here. */
  logFile: string;
  /** How long stop() waits after SIGTERM before it sends SIGKILL. */
  stopGraceMs?: number;
  env?: NodeJS.ProcessEnv;
  /**
   * A directory the guard deletes once the process has exited, so a crashed test run
   * leaves no data behind either.
   */
  removeAfterExit?: string;
}

/** A process that dies with its parent. */
export interface SupervisedProcess {
  readonly name: string;
  readonly pid: number | undefined;
  readonly logFile: string;
  /** Resolves with the exit code (or signal) when the process has exited. */
  readonly exited: Promise<string>;
  hasExited(): boolean;
  /** Stops the process and waits until it has gone. Safe to call twice. */
  stop(): Promise<void>;
  /** The last lines of the process's log, for error messages. */
  logTail(lines?: number): string;
}

// Running guards, with the directory each one removes after its child has exited.
const live = new Map<ChildProcess, string | undefined>();
let exitHookInstalled = false;

// A synchronous last word for ordinary exits (process.exit, end of the event loop): kill
// at once and clean up, rather than leave processes running for the guard's grace period.
// A crash or SIGKILL of Node skips this; then the closed pipe makes the guard do it.
function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once('exit', () => {
    for (const [child, removeAfterExit] of live) {
      if (child.pid !== undefined) {
        try {
          process.kill(-child.pid, 'SIGKILL');
        } catch {
          // already gone
        }
      }
      if (removeAfterExit) rmSync(removeAfterExit, { recursive: true, force: true });
    }
  });
}

/** Reads the last lines of a log file; never throws. */
export function tailFile(path: string, lines = 30): string {
  try {
    const text = readFileSync(path, 'utf8').trimEnd();
    return text.split('\n').slice(-lines).join('\n');
  } catch (error) {
    return `(no log at ${path}: ${(error as Error).message})`;
  }
}

/** Starts a binary under the parent-death guard described above. */
export function startSupervisedProcess(options: SupervisedProcessOptions): SupervisedProcess {
  const graceMs = options.stopGraceMs ?? 10_000;
  const logFd = openSync(options.logFile, 'a');
  let child: ChildProcess;
  try {
    child = spawn('/bin/sh', ['-c', guardScript, options.name, options.binary, ...options.args], {
      stdio: ['pipe', logFd, logFd],
      detached: true,
      env: {
        ...(options.env ?? process.env),
        GUARD_GRACE_TICKS: String(Math.ceil(graceMs / 100)),
        GUARD_REMOVE_AFTER: options.removeAfterExit ?? '',
      },
    });
  } finally {
    closeSync(logFd);
  }
  live.set(child, options.removeAfterExit);
  installExitHook();
  // The guard must not keep the test process's event loop alive on its own.
  child.unref();
  (child.stdin as unknown as { unref?: () => void } | null)?.unref?.();
  child.stdin?.on('error', () => {
    // EPIPE when the guard is already gone: nothing to do.
  });

  let exitedFlag = false;
  const exited = new Promise<string>((resolve) => {
    child.once('exit', (code, signal) => {
      exitedFlag = true;
      live.delete(child);
      child.stdin?.destroy();
      resolve(signal ?? String(code));
    });
    child.once('error', (error) => {
      exitedFlag = true;
      live.delete(child);
      resolve(`spawn error: ${error.message}`);
    });
  });

  let stopping: Promise<void> | undefined;
  const stop = (): Promise<void> => {
    stopping ??= (async () => {
      if (exitedFlag) return;
      child.stdin?.end();
      // The guard gives its child graceMs after SIGTERM; add a margin, then kill the group.
      const timer = setTimeout(() => {
        if (child.pid !== undefined && !exitedFlag) {
          try {
            process.kill(-child.pid, 'SIGKILL');
          } catch {
            // already gone
          }
        }
      }, graceMs + 2_000);
      await exited;
      clearTimeout(timer);
    })();
    return stopping;
  };

  return {
    name: options.name,
    pid: child.pid,
    logFile: options.logFile,
    exited,
    hasExited: () => exitedFlag,
    stop,
    logTail: (lines) => tailFile(options.logFile, lines),
  };
}
