import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { minimumNode, unsupportedNode } from '../src/node-version.js';
import { cliBin } from './helpers/run-cli.js';

describe('the Node.js version check', () => {
  it.each([
    ['20.20.2', true],
    ['8.17.0', true],
    ['22.18.9', true],
    ['22.19.0', false],
    ['22.100.0', false],
    ['23.0.0', false],
    ['24.21.0', false],
    ['100.0.0-nightly2026', false],
  ])('Node.js %s refused: %s', (version, refused) => {
    const reason = unsupportedNode(version);
    expect(reason !== undefined).toBe(refused);
    if (refused) expect(reason).toBe(`needs Node.js 22.19 or later; this is Node.js ${version}`);
  });

  it('does not refuse a version it cannot read', () => {
    expect(unsupportedNode('')).toBeUndefined();
    expect(unsupportedNode('v20')).toBeUndefined();
  });

  it('asks for what engines.node in package.json asks for', () => {
    for (const file of ['../package.json', '../../../package.json']) {
      const manifest = JSON.parse(readFileSync(new URL(file, import.meta.url), 'utf8'));
      expect(manifest.engines.node, file).toBe(`>=${minimumNode.join('.')}`);
    }
  });

  it('an older Node.js running the binary gets one line on stderr and exit 1', () => {
    const older = 'data:text/javascript,Object.defineProperty(process.versions,"node",{value:"20.20.2"})';
    const r = spawnSync(process.execPath, ['--import', older, cliBin, '--version'], { encoding: 'utf8' });
    expect(r.status).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe('capi-kit: needs Node.js 22.19 or later; this is Node.js 20.20.2\n');
  });
});
