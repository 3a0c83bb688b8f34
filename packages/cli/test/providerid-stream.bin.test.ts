import { spawn, spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { runMain } from './helpers/capture-io.js';
import { cliBin } from './helpers/run-cli.js';

/** Resolves once `text()` satisfies `done`, polling; rejects after `ms`. */
async function waitFor(text: () => string, done: (t: string) => boolean, ms = 20_000): Promise<string> {
  const until = Date.now() + ms;
  while (!done(text())) {
    if (Date.now() > until) throw new Error(`timed out; got ${JSON.stringify(text())}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return text();
}

describe('providerid match from stdin is streamed', () => {
  it("prints a line's result before the next line is written (the built binary)", async () => {
    const child = spawn(process.execPath, [cliBin, 'providerid', 'match'], { stdio: 'pipe' });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString('utf8');
    });
    child.stderr.on('data', (d: Buffer) => {
      err += d.toString('utf8');
    });
    const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
    try {
      // The first line, in two writes: a line is read once its '\n' arrives.
      child.stdin.write('aws:///us-east-1a/i-0123456');
      child.stdin.write('789abcdef0\taws://us-east-1a/i-0123456789abcdef0\r\n');
      const first = await waitFor(
        () => out,
        (t) => t.split('\n').length > 2,
      );
      expect(first).toMatch(/^match {5}"aws:\/\/\/us-east-1a\/i-0123456789abcdef0" {2}"aws:\/\/us-east-1a\//);
      child.stdin.write('no-tab\n');
      await waitFor(
        () => err,
        (t) => t.includes('line 2: expected NODE_ID<TAB>MACHINE_ID (found 0 tabs)'),
      );
      child.stdin.end('a\tb');
      expect(await exited).toBe(1);
      expect(out.slice(first.length)).toBe('no match  "a"  "b"\n          different instances: a vs b\n');
    } finally {
      child.kill();
    }
  });

  it('reports invalid UTF-8 at its place in stdin, after the results before it', () => {
    const input = Buffer.concat([
      Buffer.from('\u{feff}a\ta\r\nb\tc\n\u{feff}q\tr\n'),
      Buffer.from([0x78, 0x09, 0xff, 0x0a]),
    ]);
    const r = spawnSync(process.execPath, [cliBin, 'providerid', 'match'], { input, encoding: 'utf8' });
    expect(r.status).toBe(1);
    // The leading BOM is not part of the first ID; one at the start of a later line is kept
    // (and shown escaped, as text output shows every invisible character).
    expect(r.stdout).toContain('match     "a"  "a"\n');
    expect(r.stdout).toContain('no match  "b"  "c"\n');
    expect(r.stdout).toContain('no match  "\\ufeffq"  "r"\n');
    expect(r.stderr).toContain('<stdin>: not valid UTF-8 (byte 21, line 4)');
  });

  it('reads the same lines in process (capture-io)', async () => {
    const r = await runMain(['providerid', 'match', '--json'], 'a\ta\r\n\nb\tc');
    expect(r.code).toBe(1);
    expect(
      r.stdout
        .trimEnd()
        .split('\n')
        .map((line) => JSON.parse(line)),
    ).toMatchObject([
      { match: true, nodeProviderID: 'a', machineProviderID: 'a' },
      { line: 2, input: '', error: 'line 2: expected NODE_ID<TAB>MACHINE_ID (found 0 tabs)' },
      { match: false, nodeProviderID: 'b', machineProviderID: 'c' },
    ]);
  });
});
