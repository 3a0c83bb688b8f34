import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { runCli } from './helpers/run-cli.js';

// The shared vectors, run end to end through the built binary (run `pnpm build` first).
interface Vectors {
  parse: { id: string; cloud: string; input: string; valid: boolean; lenient?: boolean; expected?: object }[];
  match: {
    id: string;
    nodeProviderID: string;
    machineProviderID: string;
    expected: { sameInstance: boolean | null };
  }[];
}
const vectors: Vectors = JSON.parse(
  readFileSync(new URL('../../providerid/test/fixtures/providerid-vectors.json', import.meta.url), 'utf8'),
);

describe('capi-kit providerid (built binary)', () => {
  const clouds = [...new Set(vectors.parse.map((v) => v.cloud))];

  it.each(clouds)('parses the %s vectors with --cloud', (cloud) => {
    const cases = vectors.parse.filter((v) => v.cloud === cloud);
    const r = runCli(['providerid', 'parse', '--cloud', cloud, '--json', '--', ...cases.map((v) => v.input)]);
    const results = r.stdout
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => JSON.parse(l));
    expect(results).toHaveLength(cases.length);
    for (const [i, v] of cases.entries()) {
      const got = results[i];
      expect(got.input, v.id).toBe(v.input);
      if (v.lenient && !got.valid) continue;
      expect(got.valid, `${v.id}: ${got.error ?? ''}`).toBe(v.valid);
      if (v.valid) expect(got.fields, v.id).toMatchObject(v.expected ?? {});
    }
    expect(r.code).toBe(results.every((x) => x.valid) ? 0 : 1);
  });

  it('matches every match vector from stdin', () => {
    const stdin = vectors.match.map((v) => `${v.nodeProviderID}\t${v.machineProviderID}\n`).join('');
    const r = runCli(['providerid', 'match', '--json'], { stdin });
    expect(r.code).toBe(0);
    const results = r.stdout
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => JSON.parse(l));
    expect(results).toHaveLength(vectors.match.length);
    for (const [i, v] of vectors.match.entries()) {
      if (v.expected.sameInstance !== null) expect(results[i].match, v.id).toBe(v.expected.sameInstance);
      expect(typeof results[i].reason).toBe('string');
    }
  });

  it('answers a single pair and exits 0', () => {
    const r = runCli(['providerid', 'match', 'packet://abc', 'equinixmetal://abc', '--json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ match: true, verdict: 'same' });
  });

  it('exits 1 when an ID is invalid and 2 on a usage error', () => {
    expect(runCli(['providerid', 'parse', 'linode://foobar']).code).toBe(1);
    expect(runCli(['providerid', 'match', 'only-one']).code).toBe(2);
  });
});
