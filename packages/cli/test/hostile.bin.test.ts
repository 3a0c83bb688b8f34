import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { cliBin, runCli } from './helpers/run-cli.js';

// Issue #12: every command that reads a manifest, run on every file of the hostile corpus,
// ends with a clear message: never exit 70, never a stack trace, never output after a failure.
const dir = fileURLToPath(new URL('./fixtures/hostile/', import.meta.url));
const corpus = readdirSync(dir).sort();
const commands: readonly (readonly string[])[] = [
  ['convert'],
  ['convert', '--to', 'cluster.k8s.io/v1alpha1'],
  ['convert', '-o', 'json'],
  ['validate'],
  ['validate', '--strict'],
  ['phase'],
  ['phase', '--json'],
];
const STACK = /^\s+at .+[(:]\d+/m;

/**
 * Files `convert` must refuse whatever the target version. Not here: the harmless 101 aliases;
 * stashes on v1alpha2 objects (refused going down, passed through unchanged going up, where
 * the stash does not apply); and `list-not-list.yaml`, a v1alpha1 List passed through going
 * down (convert does not yet refuse everything validate refuses: see the issue note).
 */
const convertRefuses = (file: string, command: readonly string[]) =>
  file.startsWith('stash-')
    ? command.includes('cluster.k8s.io/v1alpha1')
    : !['aliases-101.yaml', 'list-not-list.yaml'].includes(file);

describe('the hostile corpus against every manifest command (built CLI)', () => {
  for (const file of corpus) {
    it(`${file}`, () => {
      for (const command of commands) {
        const { code, stdout, stderr } = runCli([...command, '-f', `${dir}${file}`]);
        const what = `${command.join(' ')} -f ${file}: exit ${code}\n${stderr}`;
        expect(code, what).not.toBe(70);
        expect(code, what).not.toBeNull(); // killed by the timeout
        expect(stderr, what).not.toMatch(STACK);
        expect(stderr, what).not.toContain('internal error');
        if (command[0] === 'convert' && convertRefuses(file, command)) {
          expect(code, what).toBe(1);
          expect(stdout, what).toBe('');
        }
      }
    }, 180_000);
  }

  it('reads a harmless manifest with 101 aliases in every command', () => {
    // (validate --strict refuses a ConfigMap, a kind it does not know: not about aliases)
    for (const command of commands.filter((c) => !c.includes('--strict'))) {
      const { code, stderr } = runCli([...command, '-f', `${dir}aliases-101.yaml`]);
      expect(code, stderr).toBe(0);
    }
  }, 120_000);
});

describe('smaller CLI defects (issue #12)', () => {
  it('-f given twice is a usage error, not a silent choice of the last', () => {
    const { code, stderr } = runCli(['validate', '-f', 'a.yaml', '-f', 'b.yaml']);
    expect(code).toBe(2);
    expect(stderr).toContain('-f given more than once');
  });

  it('convert of empty input says "no documents" and exits 1', () => {
    const { code, stdout, stderr } = runCli(['convert', '-f', '-'], { stdin: '# nothing\n' });
    expect(code).toBe(1);
    expect(stdout).toBe('');
    expect(stderr).toContain('no documents');
  });

  it('invalid UTF-8 is an error with the byte and line, not U+FFFD', () => {
    const { code, stderr } = runCli(['validate', '-f', `${dir}invalid-utf8.yaml`]);
    expect(code).toBe(1);
    expect(stderr).toContain('not valid UTF-8 (byte 50, line 3)');
  });

  it('a directory as -f is an input error naming it', () => {
    const { code, stderr } = runCli(['validate', '-f', dir]);
    expect(code).toBe(1);
    expect(stderr).toContain('is a directory');
  });

  it('a full disk on stdout (/dev/full) is reported once, exit 1, no stack trace', () => {
    const run = spawnSync(`exec "${process.execPath}" "${cliBin}" providerid clouds > /dev/full`, {
      shell: '/bin/sh',
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(run.status).toBe(1);
    expect(run.stderr).toBe('capi-kit: cannot write to standard output: ENOSPC\n');
  });
});
