import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startSupervisedProcess } from '../src/supervised-process.js';
import { eventually, processesMentioning } from './helpers/processes.js';

/** Waits (up to 5 s) until the process's out.log in `dir` contains `text`. */
function logSays(dir: string, text: string): Promise<boolean> {
  const log = join(dir, 'out.log');
  return eventually(() => existsSync(log) && readFileSync(log, 'utf8').includes(text), 5_000);
}

describe('startSupervisedProcess', () => {
  it('stop() ends the process, then the guard removes its directory', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'envtest-guard-'));
    const marker = `guard-test-${process.pid}-${Date.now()}`;
    const proc = startSupervisedProcess({
      name: 'sleeper',
      binary: '/bin/sh',
      args: ['-c', `echo started ${marker}; exec sleep 1000`, marker],
      logFile: join(dir, 'out.log'),
      removeAfterExit: dir,
    });
    expect(await logSays(dir, 'started')).toBe(true);
    expect(processesMentioning(marker).length).toBeGreaterThan(0);
    expect(proc.hasExited()).toBe(false);
    await proc.stop();
    expect(proc.hasExited()).toBe(true);
    expect(processesMentioning(marker)).toEqual([]);
    expect(existsSync(dir)).toBe(false);
  });

  it('escalates to SIGKILL when the process ignores SIGTERM', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'envtest-guard-'));
    const marker = `guard-stubborn-${process.pid}-${Date.now()}`;
    const proc = startSupervisedProcess({
      name: 'stubborn',
      binary: '/bin/sh',
      args: ['-c', 'trap "" TERM; echo ready; while :; do sleep 0.1; done', marker],
      logFile: join(dir, 'out.log'),
      removeAfterExit: dir,
      stopGraceMs: 500,
    });
    expect(await logSays(dir, 'ready')).toBe(true);
    await proc.stop();
    expect(await eventually(() => processesMentioning(marker).length === 0, 2_000)).toBe(true);
  });

  it('reports the tail of the log and the exit of a process that fails by itself', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'envtest-guard-'));
    const proc = startSupervisedProcess({
      name: 'failing',
      binary: '/bin/sh',
      args: ['-c', 'for i in 1 2 3 4 5; do echo line $i; done; exit 3'],
      logFile: join(dir, 'out.log'),
      removeAfterExit: dir,
    });
    expect(await proc.exited).toBe('3');
    expect(existsSync(dir)).toBe(false);
    expect(proc.logTail(2)).toContain('no log at');
  });
});
