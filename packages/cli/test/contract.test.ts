// The CLI contract and library names of /work/shared/ARCHITECTURE.md ("CLI contract",
// "Library names used by checks outside the unit tests"), item by item, as checks outside
// the unit tests use them: manifest commands in process, exit codes and the library names
// through the BUILT packages (dist, resolved by package name in a child process).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { runMain } from './helpers/capture-io.js';
import { runCli } from './helpers/run-cli.js';

const examplePath = fileURLToPath(new URL('../../../examples/aws-v1alpha1.yaml', import.meta.url));
const example = readFileSync(examplePath, 'utf8');
const scratch = mkdtempSync(join(tmpdir(), 'capi-kit-contract-'));
const jsonLines = (text: string) =>
  text
    .trimEnd()
    .split('\n')
    .map((l) => JSON.parse(l) as Record<string, unknown>);
const ESC = '\u001b';

const awsId = 'aws:///us-east-1a/i-0123456789abcdef0';
const awsOtherZone = 'aws:///us-east-1b/i-0123456789abcdef0';

const machine = (name: string, extra = '') => `apiVersion: cluster.x-k8s.io/v1alpha2
kind: Machine
metadata: {name: ${name}, namespace: shop}
spec:
  clusterName: shop
  bootstrap: {data: eA==}
  infrastructureRef: {apiVersion: infrastructure.cluster.x-k8s.io/v1alpha2, kind: AWSMachine, name: ${name}}
${extra}`;

describe('contract: providerid parse|match|clouds', () => {
  it('parse --json: one {"input","valid","cloud","fields","key","error"?} object per ID; exit 1 when any is invalid', async () => {
    const { code, stdout } = await runMain(['providerid', 'parse', awsId, 'nonsense', '--json']);
    expect(code).toBe(1);
    const [good, bad] = jsonLines(stdout);
    expect(good).toMatchObject({ input: awsId, valid: true, cloud: 'aws', key: expect.any(String) });
    expect(good?.fields).toBeTypeOf('object');
    expect(good).not.toHaveProperty('error');
    expect(bad).toMatchObject({ input: 'nonsense', valid: false, cloud: null, fields: null, key: null });
    expect(bad?.error).toBeTypeOf('string');
  });

  it('parse reads stdin one ID a line when none are given; --cloud names the cloud', async () => {
    const { code, stdout } = await runMain(['providerid', 'parse', '--json'], `${awsId}\n${awsOtherZone}\n`);
    expect(code).toBe(0);
    expect(jsonLines(stdout).map((o) => o.input)).toEqual([awsId, awsOtherZone]);
    const bare = await runMain(['providerid', 'parse', 'i-0123456789abcdef0', '--cloud', 'aws', '--json']);
    expect(bare.code).toBe(0);
    expect(jsonLines(bare.stdout)[0]).toMatchObject({ valid: true, cloud: 'aws' });
  });

  it('match NODE_ID MACHINE_ID --json: {"match","verdict","reason",…}; stdin NODE_ID<TAB>MACHINE_ID lines', async () => {
    const one = await runMain(['providerid', 'match', 'aws:////i-0123456789abcdef0', awsId, '--json']);
    expect(one.code).toBe(0);
    expect(jsonLines(one.stdout)[0]).toMatchObject({
      match: true,
      verdict: 'same',
      reason: expect.any(String),
    });
    const lines = await runMain(
      ['providerid', 'match', '--json'],
      `${awsId}\t${awsOtherZone}\n${awsId}\t${awsId}\n`,
    );
    expect(lines.code).toBe(0);
    expect(jsonLines(lines.stdout).map((o) => [o.match, o.verdict])).toEqual([
      [false, 'different'],
      [true, 'same'],
    ]);
  });

  it('clouds, as text and as JSON', async () => {
    const text = await runMain(['providerid', 'clouds']);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/^aws\s/m);
    const json = await runMain(['providerid', 'clouds', '--json']);
    expect(json.code).toBe(0);
    expect(jsonLines(json.stdout).map((o) => o.cloud)).toContain('aws');
  });

  it('text output escapes control characters from input', async () => {
    const { stdout } = await runMain(['providerid', 'parse', `aws:///us-east-1a/i-${ESC}[2J`]);
    expect(stdout).not.toContain(ESC);
    expect(stdout).toContain('i-');
  });
});

describe('contract: convert -f FILE|- [--to APIVERSION] [-o yaml|json] [--report]', () => {
  it('the default target stays cluster.x-k8s.io/v1alpha2; multi-document in and out', async () => {
    const { code, stdout } = await runMain(['convert', '-f', '-'], example);
    expect(code).toBe(0);
    const docs = parseAllDocuments(stdout).map((d) => d.toJS() as { apiVersion: string; kind: string });
    expect(docs.length).toBeGreaterThan(1);
    expect(docs.find((d) => d.kind === 'Cluster')?.apiVersion).toBe('cluster.x-k8s.io/v1alpha2');
  });

  it.each([
    'cluster.k8s.io/v1alpha1',
    'cluster.x-k8s.io/v1alpha2',
    'cluster.x-k8s.io/v1alpha3',
    'cluster.x-k8s.io/v1alpha4',
    'cluster.x-k8s.io/v1beta1',
    'cluster.x-k8s.io/v1beta2',
  ])('--to %s -o json: a v1 List of the converted documents', async (to) => {
    const { code, stdout } = await runMain(['convert', '-f', examplePath, '--to', to, '-o', 'json']);
    expect(code).toBe(0);
    const list = JSON.parse(stdout) as { kind: string; items: { apiVersion: string; kind: string }[] };
    expect(list.kind).toBe('List');
    expect(list.items.find((i) => i.kind === 'Cluster')?.apiVersion).toBe(to);
  });

  it('--report as a bare flag (last or before another option) writes the report to stderr', async () => {
    for (const argv of [
      ['convert', '-f', examplePath, '--report'],
      ['convert', '--report', '-f', examplePath],
    ]) {
      const { code, stdout, stderr } = await runMain(argv);
      expect(code).toBe(0);
      expect(stdout).toContain('kind: Cluster');
      expect(stderr).toContain('document 1: Cluster');
    }
  });

  it('nothing on stdout and exit 1 when any document fails; the error on stderr', async () => {
    const broken = `${example}\n---\napiVersion: cluster.k8s.io/v1alpha1\nkind: Machine\nmetadata: {name: x}\nspec: {providerSpec: {value: 5}}\n`;
    const { code, stdout, stderr } = await runMain(['convert', '-f', '-'], broken);
    expect(code).toBe(1);
    expect(stdout).toBe('');
    expect(stderr).toContain('Machine x');
  });
});

describe('contract: validate and phase', () => {
  it('validate -f FILE|-: 0 valid, 1 with the error named; --strict fails on unknown fields', async () => {
    expect((await runMain(['validate', '-f', '-'], machine('ok'))).code).toBe(0);
    const bad = await runMain(['validate', '-f', '-'], machine('bad', 'status: {phase: 5}\n'));
    expect(bad.code).toBe(1);
    expect(bad.stdout).toContain('status.phase');
    const extra = machine('extra', 'spec2: {}\n');
    expect((await runMain(['validate', '-f', '-'], extra)).code).toBe(0);
    expect((await runMain(['validate', '-f', '-', '--strict'], extra)).code).toBe(1);
  });

  it('phase --json: one {"kind","name","namespace","phase"} object a line', async () => {
    const { code, stdout } = await runMain(
      ['phase', '-f', '-', '--json'],
      `${machine('a', 'status: {bootstrapReady: true, infrastructureReady: true, nodeRef: {name: node-a}}\n')}---\n${machine('b')}`,
    );
    expect(code).toBe(0);
    const rows = jsonLines(stdout);
    for (const row of rows) expect(Object.keys(row).sort()).toEqual(['kind', 'name', 'namespace', 'phase']);
    expect(rows.map((r) => [r.kind, r.name, r.namespace, r.phase])).toEqual([
      ['Machine', 'a', 'shop', 'running'],
      ['Machine', 'b', 'shop', 'provisioning'],
    ]);
  });

  it('phase: nothing on stdout on failure (exit 1)', async () => {
    const { code, stdout } = await runMain(['phase', '-f', '-'], `${machine('a')}---\n: : not yaml [\n`);
    expect(code).toBe(1);
    expect(stdout).toBe('');
  });

  it('text output escapes control characters from input', async () => {
    const tricky = machine('a').replace('clusterName: shop', `clusterName: "shop${ESC}[2J"`);
    const validate = await runMain(['validate', '-f', '-', '--strict'], `${tricky}spec9: "x${ESC}]0;t\\a"\n`);
    expect(validate.stdout + validate.stderr).not.toContain(ESC);
  });
});

describe('contract: exit codes 2 (usage) and 3 (cluster/API), nothing on stdout', () => {
  it.each([
    ['convert', '--bogus'],
    ['validate'],
    ['phase', '-f', '-', '--bogus'],
    ['providerid', 'nope'],
    ['lease', 'grab', 'node-1'],
    ['get', 'widgets'],
    ['get', 'machines', '-A', '-n', 'x'],
    ['describe', 'cluster'],
    ['autoscaler', 'scale'],
    ['migrate', 'move'],
  ])('%j: exit 2', async (...argv) => {
    const { code, stdout } = await runMain(argv);
    expect(code).toBe(2);
    expect(stdout).toBe('');
  });

  it.each([
    ['get', 'clusters', '-A'],
    ['describe', 'cluster', 'x', '-n', 'default'],
    ['lease', 'status', 'node-1'],
    ['autoscaler', 'groups'],
    ['migrate', 'plan', '-n', 'default'],
  ])('%j with an unusable kubeconfig: exit 3 (the built binary)', (...argv) => {
    const result = runCli(argv, { env: { KUBECONFIG: join(scratch, 'missing.yaml'), HOME: scratch } });
    expect(result.code).toBe(3);
    expect(result.stdout).toBe('');
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });
});

// Each library name resolved by package name from the built packages (dist), in a child
// process without the source condition, and the kind of value it is.
const libraryNames = {
  '@capi-kit/autoscaler': [
    'parseScalingBounds',
    'clusterNameOf',
    'parseAutoDiscoverySpec',
    'allowedByAutoDiscovery',
    'createNodeGroupProvider',
  ],
  '@capi-kit/conversion/webhook': ['handleConversionReview', 'serveConversionWebhook'],
  '@capi-kit/envtest': ['startControlPlane', 'loadCrds', 'startWebhookServer'],
  '@capi-kit/lease': ['NodeLeaseClient'],
} as const;

describe('contract: library names from the built packages', () => {
  const script = `
    const names = ${JSON.stringify(libraryNames)};
    const out = {};
    for (const [pkg, list] of Object.entries(names)) {
      const url = import.meta.resolve(pkg);
      const m = await import(pkg);
      for (const n of list) out[pkg + ' ' + n] = { kind: typeof m[n], url };
    }
    const { NodeLeaseClient } = await import('@capi-kit/lease');
    for (const n of ['tryAcquire', 'release']) out['NodeLeaseClient#' + n] = { kind: typeof NodeLeaseClient.prototype[n] };
    out['NodeLeaseClient is a class'] = { kind: /^class\\b/.test(Function.prototype.toString.call(NodeLeaseClient)) };
    const { handleConversionReview } = await import('@capi-kit/conversion/webhook');
    const review = handleConversionReview({
      apiVersion: 'apiextensions.k8s.io/v1', kind: 'ConversionReview',
      request: { uid: 'u-1', desiredAPIVersion: 'cluster.x-k8s.io/v1alpha2', objects: [] },
    });
    out['handleConversionReview response'] = { kind: JSON.stringify([review.kind, review.response.uid, review.response.result.status]) };
    console.log(JSON.stringify(out));
  `;
  const result = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
    // packages/cli depends on every package named (envtest as a devDependency).
    cwd: fileURLToPath(new URL('..', import.meta.url)),
    encoding: 'utf8',
    env: { ...process.env, NODE_OPTIONS: '' },
  });
  const found =
    result.status === 0 ? (JSON.parse(result.stdout) as Record<string, { kind: unknown; url?: string }>) : {};

  it('the child process ran', () => {
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
  });

  it.each(Object.entries(libraryNames).flatMap(([pkg, names]) => names.map((n) => [pkg, n] as const)))(
    '%s exports %s, a function, from dist',
    (pkg, name) => {
      expect(found[`${pkg} ${name}`]?.kind).toBe('function');
      expect(found[`${pkg} ${name}`]?.url).toMatch(/\/dist\/.*\.js$/);
    },
  );

  it('NodeLeaseClient is a class with tryAcquire and release methods', () => {
    expect(found['NodeLeaseClient is a class']?.kind).toBe(true);
    expect(found['NodeLeaseClient#tryAcquire']?.kind).toBe('function');
    expect(found['NodeLeaseClient#release']?.kind).toBe('function');
  });

  it('handleConversionReview takes a ConversionReview v1 and answers one', () => {
    expect(found['handleConversionReview response']?.kind).toBe(
      JSON.stringify(['ConversionReview', 'u-1', 'Success']),
    );
  });
});
