import { describe, expect, it } from 'vitest';
import { ExitCode } from '../src/exit-codes.js';
import { runMain } from './helpers/capture-io.js';

async function run(args: string[], stdin = '') {
  const result = await runMain(['providerid', ...args], stdin);
  return { ...result, lines: result.stdout.split('\n').filter((l) => l !== '') };
}

const json = (line: string) => JSON.parse(line) as Record<string, unknown>;

describe('capi-kit providerid parse', () => {
  it('prints one JSON object per ID with cloud, fields and key', async () => {
    const r = await run(['parse', 'aws:///us-east-1a/i-0123456789abcdef0', 'hcloud://bm-42', '--json']);
    expect(r.code).toBe(ExitCode.ok);
    expect(r.lines.map(json)).toEqual([
      {
        input: 'aws:///us-east-1a/i-0123456789abcdef0',
        valid: true,
        cloud: 'aws',
        fields: { scheme: 'aws', zone: 'us-east-1a', instanceId: 'i-0123456789abcdef0', kind: 'ec2' },
        key: 'aws|i-0123456789abcdef0@us-east-1a',
        canonical: 'aws:///us-east-1a/i-0123456789abcdef0',
      },
      {
        input: 'hcloud://bm-42',
        valid: true,
        cloud: 'hetzner',
        fields: { scheme: 'hcloud', serverId: '42', serverType: 'robot', legacyRobotPrefix: true },
        key: 'hetzner|robot/42',
        canonical: 'hcloud://bm-42',
      },
    ]);
  });

  it('reports invalid IDs with an error and exits 1', async () => {
    const r = await run(['parse', 'gce://p/z', 'digitalocean://12x', '--json']);
    expect(r.code).toBe(ExitCode.input);
    const [gce, droplet] = r.lines.map(json);
    expect(gce).toMatchObject({ input: 'gce://p/z', valid: false, cloud: 'gce', fields: null, key: null });
    expect(gce!.error).toMatch(/gce:\/\/<project>\/<zone>\/<instance-name>/);
    expect(droplet).toMatchObject({ valid: false, cloud: 'digitalocean', errorCode: 'invalid-field' });
  });

  it('reads IDs from stdin, one a line, keeping empty lines as (invalid) IDs', async () => {
    const r = await run(['parse', '--json'], 'ocid1.instance.oc1.x\n\ncn-hangzhou.i-1\r\n');
    expect(r.lines.map((l) => [json(l).input, json(l).valid, json(l).cloud])).toEqual([
      ['ocid1.instance.oc1.x', true, 'oci'],
      ['', false, null],
      ['cn-hangzhou.i-1', true, 'alibaba'],
    ]);
    expect(r.code).toBe(ExitCode.input);
  });

  it('parses a bare ID with --cloud', async () => {
    const bare = await run(['parse', '/7b9cf879', '--json']);
    expect(json(bare.lines[0]!)).toMatchObject({ valid: false, errorCode: 'no-scheme' });
    const named = await run(['parse', '/7b9cf879', '--cloud', 'openstack', '--json']);
    expect(json(named.lines[0]!)).toMatchObject({
      valid: true,
      cloud: 'openstack',
      fields: { scheme: '', region: '', instanceId: '7b9cf879' },
    });
  });

  it('prints readable text without --json', async () => {
    const r = await run(['parse', 'packet://3f3c8a8e-0b2a-4d5e-9a41-8c3b2f1d7e60', 'vsphere://1234']);
    expect(r.code).toBe(ExitCode.input);
    expect(r.stdout).toContain('valid    equinixmetal  packet://3f3c8a8e-0b2a-4d5e-9a41-8c3b2f1d7e60');
    expect(r.stdout).toContain('deviceId=3f3c8a8e-0b2a-4d5e-9a41-8c3b2f1d7e60');
    expect(r.stdout).toContain('invalid  vsphere  "vsphere://1234"');
  });

  it('rejects an unknown cloud or subcommand as a usage error', async () => {
    expect((await run(['parse', 'x', '--cloud', 'mars'])).code).toBe(ExitCode.usage);
    expect((await run(['frobnicate'])).code).toBe(ExitCode.usage);
    expect((await run([])).code).toBe(ExitCode.usage);
  });
});

describe('capi-kit providerid match', () => {
  it('answers for two IDs with match and reason, exit 0 either way', async () => {
    const same = await run([
      'match',
      'openstack:///7b9cf879-7146-417c-abfd-cb4272f0c935',
      'openstack://RegionOne/7b9cf879-7146-417c-abfd-cb4272f0c935',
      '--json',
    ]);
    expect(same.code).toBe(ExitCode.ok);
    expect(json(same.lines[0]!)).toMatchObject({
      match: true,
      verdict: 'same',
      reason: expect.stringContaining('region'),
    });
    const different = await run(['match', 'gce://p/us-central1-a/n', 'gce://p/us-central1-b/n', '--json']);
    expect(different.code).toBe(ExitCode.ok);
    expect(json(different.lines[0]!)).toMatchObject({ match: false, verdict: 'different' });
  });

  it('reads NODE<TAB>MACHINE lines from stdin and flags bad lines', async () => {
    const r = await run(
      ['match', '--json'],
      'hrobot://7\thcloud://bm-7\nmetal3://uid\tmetal3://ns/b/m\nno tab here\n',
    );
    expect(r.code).toBe(ExitCode.input);
    expect(r.lines.map(json)).toEqual([
      expect.objectContaining({
        match: true,
        nodeProviderID: 'hrobot://7',
        machineProviderID: 'hcloud://bm-7',
      }),
      expect.objectContaining({ match: false, verdict: 'unknown' }),
      expect.objectContaining({ line: 3, error: expect.stringContaining('NODE_ID<TAB>MACHINE_ID') }),
    ]);
    expect(r.stderr).toContain('line 3');
  });

  it('prints readable verdicts without --json', async () => {
    const r = await run(['match', 'kwok:n1', 'kwok://n1']);
    expect(r.stdout).toMatch(/^match {5}"kwok:n1" {2}"kwok:\/\/n1"\n {10}same kwok instance n1/);
  });

  it('needs zero or two IDs', async () => {
    const r = await run(['match', 'aws:////i-1']);
    expect(r.code).toBe(ExitCode.usage);
    expect(r.stderr).toContain('NODE_ID MACHINE_ID');
  });
});

describe('capi-kit providerid clouds', () => {
  it('lists every cloud with its schemes', async () => {
    const r = await run(['clouds', '--json']);
    expect(r.code).toBe(ExitCode.ok);
    const clouds = r.lines.map(json);
    expect(clouds).toContainEqual(
      expect.objectContaining({ cloud: 'hetzner', schemes: ['hcloud', 'hrobot'] }),
    );
    expect(clouds.length).toBeGreaterThan(25);
  });

  it('lists them as aligned text: cloud, schemes, title', async () => {
    const r = await run(['clouds']);
    expect(r.code).toBe(ExitCode.ok);
    expect(r.lines).toContain(
      `${'generic'.padEnd(14)} ${'(any other)'.padEnd(34)} Any other cloud (Cluster API generic grammar)`,
    );
    expect(r.lines.find((l) => l.startsWith('aws '))).toBe(
      `${'aws'.padEnd(14)} ${'aws'.padEnd(34)} AWS EC2 / EKS Fargate`,
    );
    expect((await run(['clouds', '--json'])).lines).toHaveLength(r.lines.length);
  });

  it('--cloud is a usage error, not taken and ignored', async () => {
    const r = await run(['clouds', '--json', '--cloud', 'aws']);
    expect([r.code, r.stdout]).toEqual([ExitCode.usage, '']);
    expect(r.stderr).toContain('--cloud goes with parse and match, not clouds');
  });
});
