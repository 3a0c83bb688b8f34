import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runMain } from './helpers/capture-io.js';

// Text output escapes control characters that came from the input (printable()): none of
// C0 (except the line break), DEL or C1 may reach stdout or stderr raw.
// biome-ignore lint/suspicious/noControlCharactersInRegex: these are what must not appear
const RAW_CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/;

function expectNoRawControl(r: { stdout: string; stderr: string }): void {
  expect(r.stdout).not.toMatch(RAW_CONTROL);
  expect(r.stderr).not.toMatch(RAW_CONTROL);
}

// An unknown kind and an unknown apiVersion, each with ESC and BEL.
const hostileKinds = [
  'apiVersion: v1',
  'kind: "Conf\\e[31mRED\\a"',
  'metadata:',
  '  name: x',
  '---',
  'apiVersion: "cluster.x-k8s.io/v1beta1\\e[31m"',
  'kind: Machine',
  'metadata:',
  '  name: m',
  '',
].join('\n');

// A v1alpha1 Machine whose free-text status.phase has ESC, CSI (U+009B) and BEL.
const hostilePhase = [
  'apiVersion: cluster.k8s.io/v1alpha1',
  'kind: Machine',
  'metadata:',
  '  name: m',
  'status:',
  '  phase: "\\e[31mRunn\\u009bing\\a"',
  '',
].join('\n');

/** A paused v1alpha3 Machine whose stored status.phase (YAML double-quoted) is kept. */
function pausedMachine(phase: string): string {
  return [
    'apiVersion: cluster.x-k8s.io/v1alpha3',
    'kind: Machine',
    'metadata:',
    '  name: m',
    '  annotations: {cluster.x-k8s.io/paused: "true"}',
    'spec:',
    '  clusterName: c',
    '  bootstrap: {dataSecretName: x}',
    '  infrastructureRef: {kind: K, name: k}',
    'status:',
    `  phase: "${phase}"`,
    '',
  ].join('\n');
}

const dir = mkdtempSync(join(tmpdir(), 'capi-kit-control-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
/** A manifest file whose name has ESC and CSI in it. */
function hostileFile(text: string): string {
  const file = join(dir, `m\u001b[31m\u009b.yaml`);
  writeFileSync(file, text);
  return file;
}
const escapedName = 'm\\x1b[31m\\x9b.yaml';

describe('control characters from the input are escaped in text output', () => {
  it('validate: skipped lines, --strict lines and the file name', async () => {
    for (const strict of [[], ['--strict']]) {
      const r = await runMain(['validate', '-f', hostileFile(hostileKinds), ...strict]);
      expectNoRawControl(r);
      const out = r.stdout + r.stderr;
      expect(out).toContain('document 1 (Conf\\x1b[31mRED\\x07 x, line 1)');
      expect(out).toContain('unknown kind Machine in cluster.x-k8s.io/v1beta1\\x1b[31m');
      expect(r.stderr).toContain(`${escapedName}: 2 object(s)`);
    }
  });

  it.each([
    ['validate', [], `${escapedName}: cannot be read as a manifest (1 error(s))`],
    ['phase', [], `${escapedName}: cannot be read as a manifest (1 error(s))`],
    ['convert', ['--to', 'cluster.x-k8s.io/v1alpha2'], `${escapedName}: document 1: line 2, column 1: `],
  ])('%s: the file name of a manifest that does not parse', async (command, flags, summary) => {
    const r = await runMain([command, '-f', hostileFile('a: [\n'), ...flags]);
    expectNoRawControl(r);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(summary);
  });

  it('phase: the ignored-kind notes, a v1alpha1 free-text phase and the file name', async () => {
    const ignored = await runMain(['phase', '-f', hostileFile(hostileKinds)]);
    expectNoRawControl(ignored);
    expect(ignored.stderr).toContain('ignored v1 Conf\\x1b[31mRED\\x07: only Machines');
    expect(ignored.stderr).toContain('ignored cluster.x-k8s.io/v1beta1\\x1b[31m Machine');
    expect(ignored.stderr).toContain(`${escapedName}: no Machines or Clusters`);

    const phase = await runMain(['phase', '-f', '-'], hostilePhase);
    expectNoRawControl(phase);
    expect(phase.stderr).toContain('status.phase "\\x1b[31mRunn\\x9bing\\x07" not recognised');
  });

  it('phase: a stored phase kept in the table (paused Machine)', async () => {
    const paused = pausedMachine('\\e[31mX\\x7f');
    const r = await runMain(['phase', '-f', '-'], paused);
    expect(r.code).toBe(0);
    expectNoRawControl(r);
    expect(r.stdout).toContain('Machine  m     \\x1b[31mX\\x7f\n');
    // JSON output stays JSON: the value is kept, JSON-escaped.
    const json = await runMain(['phase', '-f', '-', '--json'], paused);
    expect(JSON.parse(json.stdout).phase).toBe('\u001b[31mX\u007f');
  });

  it('phase: bidi and invisible characters in a stored phase, in text and with --json', async () => {
    const paused = pausedMachine('Run\\u202Eing\\u200B\\u00A0');
    const raw = /[\u202e\u200b\u00a0]/;
    const text = await runMain(['phase', '-f', '-'], paused);
    expect(text.stdout).not.toMatch(raw);
    expect(text.stdout).toContain('Machine  m     Run\\u{202E}ing\\u{200B}\\u{00A0}\n');
    // JSON output writes them as JSON escapes: the value is kept.
    const json = await runMain(['phase', '-f', '-', '--json'], paused);
    expect(json.stdout).not.toMatch(raw);
    expect(json.stdout).toContain('"phase":"Run\\u202eing\\u200b\\u00a0"');
    expect(JSON.parse(json.stdout).phase).toBe('Run\u202eing\u200b\u00a0');
  });

  it('convert: error lines, the file name, --report - and warnings', async () => {
    const failed = await runMain(['convert', '-f', hostileFile(hostileKinds)]);
    expect(failed.code).toBe(1);
    expectNoRawControl(failed);
    expect(failed.stderr).toContain(
      `${escapedName}: document 2 (Machine m, line 6): apiVersion: cluster.x-k8s.io/v1beta1\\x1b[31m is not`,
    );

    const reported = await runMain(['convert', '-f', '-', '--report', '-'], hostilePhase);
    expect(reported.code).toBe(0);
    expect(reported.stderr).not.toMatch(RAW_CONTROL);
    expect(reported.stderr).toContain(
      '  warning status.phase "\\u001b[31mRunn\\x9bing\\u0007" has no v1alpha2',
    );
    expect(reported.stderr).toContain(
      'capi-kit convert: warning: document 1 (Machine m): status.phase "\\u001b[31mRunn\\x9bing\\u0007"',
    );
    // The report keeps its lines.
    expect(reported.stderr).toContain('\ndocument 1: Machine m: converted');
  });

  it('convert: a --report path that cannot be written', async () => {
    const report = join(dir, 'no-such-dir', 'r\u001b[31m\u009b.txt');
    const r = await runMain(['convert', '-f', '-', '--report', report], hostilePhase);
    expect(r.code).toBe(1);
    expectNoRawControl(r);
    expect(r.stderr).toContain('cannot write report ');
    expect(r.stderr).toContain('r\\x1b[31m\\x9b.txt: ENOENT; nothing written');
  });
});
