import { describe, expect, it } from 'vitest';
import { runCli } from './helpers/run-cli.js';
import { badMachineManifest, mixedJsonLines, mixedManifest } from './phase-fixtures.js';

describe('capi-kit phase (the built binary)', () => {
  it('prints JSON lines for a manifest on stdin', () => {
    const r = runCli(['phase', '-f', '-', '--json'], { stdin: mixedManifest });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(mixedJsonLines);
    expect(r.stderr).toContain('ignored v1 Secret');
  });

  it('prints the table', () => {
    const r = runCli(['phase', '-f', '-'], { stdin: mixedManifest });
    expect(r.code).toBe(0);
    expect(r.stdout.split('\n')[0]).toBe('KIND     NAME             PHASE');
    expect(r.stdout).toContain('Machine  infra/prod-cp-0  deleting\n');
  });

  it('exits 1 with the document index for an invalid document', () => {
    const r = runCli(['phase', '-f', '-'], { stdin: badMachineManifest });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('document 2 (Machine default/bad, line 5): status.bootstrapReady');
  });

  it('exits 2 without -f', () => {
    const r = runCli(['phase']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('missing -f FILE');
  });
});
