import { describe, expect, it } from 'vitest';
import { runCli } from './helpers/run-cli.js';

describe('the capi-kit binary', () => {
  it('answers --version and --help', () => {
    const v = runCli(['--version']);
    expect(v.code).toBe(0);
    expect(v.stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
    const h = runCli(['--help']);
    expect(h.code).toBe(0);
    expect(h.stdout).toContain('Usage: capi-kit <command>');
  });

  it('exits 2 on an unknown command', () => {
    const r = runCli(['frobnicate']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("unknown command 'frobnicate'");
  });
});
