import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Command } from '../src/command.js';
import { CliError, type CliErrorCode, ExitCode, exitCodeOfError, UsageError } from '../src/exit-codes.js';
import { InputFileError, readInput, utf8Text } from '../src/io.js';
import { KubeconfigError, loadKubeConfig } from '../src/kubeconfig.js';
import { main } from '../src/main.js';
import { captureIO } from './helpers/capture-io.js';

// The CLI's own errors are tagged `code` like every capi-kit error (docs/architecture.md),
// and the code alone decides the exit status. These tests pin the tags and that mapping.

const dir = mkdtempSync(join(tmpdir(), 'capi-kit-codes-'));
const file = (name: string, text: string) => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};

describe('KubeconfigError is tagged code', () => {
  const noCluster = file(
    'no-cluster',
    'apiVersion: v1\nkind: Config\nclusters: []\ncontexts: []\nusers: []\ncurrent-context: ""\n',
  );
  it.each<[CliErrorCode, Record<string, string>, string | undefined]>([
    ['no-kubeconfig', { HOME: '/nonexistent-home' }, undefined],
    ['no-kubeconfig', { KUBECONFIG: join(dir, 'missing') }, undefined],
    ['kubeconfig-unreadable', {}, dir],
    ['kubeconfig-empty', {}, file('empty', '  \n')],
    ['kubeconfig-invalid', {}, file('garbage', ': : [not yaml\n')],
    ['no-current-cluster', {}, noCluster],
  ])('%s', async (code, env, path) => {
    const loading = loadKubeConfig(captureIO('', env).io, path);
    await expect(loading).rejects.toBeInstanceOf(KubeconfigError);
    await expect(loading).rejects.toMatchObject({ code, message: expect.any(String) });
    expect(exitCodeOfError[code]).toBe(ExitCode.cluster);
  });
});

describe('InputFileError is tagged code', () => {
  it('input-unreadable', async () => {
    const reading = readInput(captureIO().io, join(dir, 'missing.yaml'));
    await expect(reading).rejects.toBeInstanceOf(InputFileError);
    await expect(reading).rejects.toMatchObject({ code: 'input-unreadable' });
  });

  it('input-not-utf8', () => {
    expect(() => utf8Text(Buffer.from([0x61, 0xff, 0x0a]), 'x.yaml')).toThrow(
      expect.objectContaining({
        code: 'input-not-utf8',
        message: 'x.yaml: not valid UTF-8 (byte 1, line 1)',
      }),
    );
  });

  it('usage (UsageError)', () => {
    expect(new UsageError('bad')).toMatchObject({ code: 'usage', message: 'bad', name: 'UsageError' });
  });
});

describe('main ends a command with the exit code of the error code', () => {
  const throwing = (error: Error): Command => ({
    name: 'boom',
    summary: 'throws',
    usage: 'Usage: capi-kit boom',
    run: async () => {
      throw error;
    },
  });

  it.each<[Error, number, string]>([
    [new UsageError('--x is not allowed'), ExitCode.usage, "--x is not allowed\nRun 'capi-kit boom --help'"],
    [new InputFileError('input-unreadable', 'cannot read f: no such file'), ExitCode.input, 'cannot read f'],
    [
      new KubeconfigError('kubeconfig-empty', 'kubeconfig k is empty'),
      ExitCode.cluster,
      'kubeconfig k is empty',
    ],
    [
      new CliError('no-current-cluster', 'no current cluster \u001b[2J'),
      ExitCode.cluster,
      'no current cluster \\x1b[2J',
    ],
  ])('%s', async (error, exit, stderr) => {
    const c = captureIO();
    expect(await main(['boom'], c.io, [throwing(error)])).toBe(exit);
    expect(c.stderr()).toContain(`capi-kit boom: ${stderr}`);
    expect(c.stdout()).toBe('');
  });

  it('rethrows what is not a CliError', async () => {
    await expect(main(['boom'], captureIO().io, [throwing(new TypeError('bug'))])).rejects.toThrow('bug');
  });
});
