import { describe, expect, it } from 'vitest';
import { ExitCode } from '../src/exit-codes.js';
import { main } from '../src/main.js';
import { captureIO, runMain } from './helpers/capture-io.js';

function validate(stdin: string, ...flags: string[]) {
  return runMain(['validate', '-f', '-', ...flags], stdin);
}

const machine = `apiVersion: cluster.x-k8s.io/v1alpha2
kind: Machine
metadata:
  name: m-1
  namespace: default
spec:
  bootstrap:
    data: ""
  infrastructureRef:
    apiVersion: infrastructure.cluster.x-k8s.io/v1alpha2
    kind: AWSMachine
    name: m-1
`;

const secret = `apiVersion: v1
kind: Secret
metadata:
  name: creds
stringData:
  key: value
`;

const badMachineSet = `apiVersion: cluster.k8s.io/v1alpha1
kind: MachineSet
metadata:
  name: pool
spec:
  replicas: "3"
  deletePolicy: Sometimes
  template:
    spec:
      versions:
        kubelet: 1.14.3
`;

describe('capi-kit validate', () => {
  it('exits 0 when every document decodes, listing skipped kinds on stderr', async () => {
    const r = await validate(`${machine}---\n${secret}`);
    expect(r.code).toBe(ExitCode.ok);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('document 2 (Secret creds, line 14): skipped: unknown kind Secret in v1');
    expect(r.stderr).toContain('<stdin>: 2 object(s): 1 valid, 0 invalid, 1 skipped');
  });

  it('takes `labels:` and `annotations:` with nothing after them (null), as kubectl apply does', async () => {
    const empty = machine.replace(
      '  namespace: default\n',
      '  namespace: default\n  labels:\n  annotations:\n',
    );
    expect(empty).toContain('  labels:\n  annotations:\nspec:');
    const r = await validate(empty, '--strict');
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('<stdin>: 1 object(s): 1 valid, 0 invalid, 0 skipped');
    expect(r.code).toBe(ExitCode.ok);
  });

  it('prints one line per error with document, kind/name and JSON path, and exits 1', async () => {
    const r = await validate(`${machine}---\n${badMachineSet}`);
    expect(r.code).toBe(ExitCode.input);
    expect(r.stdout.trimEnd().split('\n')).toEqual([
      'document 2 (MachineSet pool, line 14): spec.selector: required field is missing (expected LabelSelector object)',
      'document 2 (MachineSet pool, line 14): spec.replicas: expected int32 (>= 0), got "3"',
      'document 2 (MachineSet pool, line 14): spec.deletePolicy: expected "Random" | "Newest" | "Oldest", got "Sometimes"',
      'document 2 (MachineSet pool, line 14): spec.template.spec.providerSpec: required field is missing (expected ProviderSpec object)',
    ]);
  });

  it('--strict reports unknown fields and fails on kinds it cannot check', async () => {
    const extra = machine.replace('  bootstrap:\n', '  bootstrap:\n    dataSecretName: x\n');
    const lenient = await validate(extra);
    expect(lenient.code).toBe(ExitCode.ok);
    const strict = await validate(`${extra}---\n${secret}`, '--strict');
    expect(strict.code).toBe(ExitCode.input);
    expect(strict.stdout.trimEnd().split('\n')).toEqual([
      'document 1 (Machine default/m-1, line 1): spec.bootstrap.dataSecretName: unknown field',
      'document 2 (Secret creds, line 15): unknown kind Secret in v1 (--strict fails on kinds it cannot check)',
    ]);
  });

  it('reads JSON, and checks a v1 List item by item', async () => {
    const list = JSON.stringify({
      apiVersion: 'v1',
      kind: 'List',
      items: [
        { apiVersion: 'cluster.x-k8s.io/v1alpha2', kind: 'Cluster', metadata: { name: 'c' }, spec: {} },
        {
          apiVersion: 'cluster.x-k8s.io/v1alpha2',
          kind: 'Cluster',
          metadata: { name: 'd' },
          spec: { clusterNetwork: { apiServerPort: 6443.5 } },
        },
      ],
    });
    const r = await validate(list);
    expect(r.code).toBe(ExitCode.input);
    expect(r.stdout).toBe(
      'document 1 (List, line 1): items[1] (Cluster d): spec.clusterNetwork.apiServerPort: expected int32, got 6443.5\n',
    );
    expect(r.stderr).toContain('2 object(s): 1 valid, 1 invalid, 0 skipped');
  });

  it('reports YAML syntax errors with line and column', async () => {
    const r = await validate(`${machine}---\nkind: Machine\nmetadata: {name: a, name: b}\n`);
    expect(r.code).toBe(ExitCode.input);
    expect(r.stdout).toBe('document 2, line 15, column 21: duplicate key "name"\n');
  });

  it('reports what kubectl refuses and other readers take, such as content on a --- line, with its place', async () => {
    const r = await validate(`${machine}--- kind: Machine\n`);
    expect(r.code).toBe(ExitCode.input);
    expect(r.stdout).toMatch(
      /^document 2, line 13, column 5: a line that starts with `---` may hold nothing after it but a comment/,
    );
  });

  it('rejects documents that are not objects', async () => {
    const r = await validate('- a\n- b\n');
    expect(r.code).toBe(ExitCode.input);
    expect(r.stdout).toBe('document 1 (line 1): not a Kubernetes object (expected a JSON/YAML mapping)\n');
  });

  it('fails on apiVersion or kind that is not a string, which no Kubernetes tool decodes (not skipped)', async () => {
    const r = await validate(
      'apiVersion: 5\nkind: Machine\nmetadata: {name: a}\n---\napiVersion: v1\nkind: {a: 1}\n',
    );
    expect(r.code).toBe(ExitCode.input);
    expect(r.stdout).toBe(
      'document 1 (Machine a, line 1): apiVersion: must be a string, not a number\ndocument 2 (line 5): kind: must be a string, not a map\n',
    );
    expect(r.stderr).toContain('0 valid, 2 invalid, 0 skipped');
  });

  it('is a usage error without -f or with a stray argument', async () => {
    expect(await main(['validate'], captureIO().io)).toBe(ExitCode.usage);
    expect(await main(['validate', '-f', '-', 'extra'], captureIO().io)).toBe(ExitCode.usage);
    expect(await main(['validate', '--nope'], captureIO().io)).toBe(ExitCode.usage);
  });

  it('is an input error for a missing file', async () => {
    const c = captureIO();
    expect(await main(['validate', '-f', '/nonexistent/manifest.yaml'], c.io)).toBe(ExitCode.input);
    expect(c.stderr()).toContain('no such file');
  });
});

describe('capi-kit validate --strict checks names as the API server does (issue #12)', () => {
  const named = (name: string, namespace = 'shop') => `apiVersion: cluster.x-k8s.io/v1alpha2
kind: Cluster
metadata: {name: '${name}', namespace: '${namespace}'}
spec: {}
`;
  it.each([
    ['Web_0', 'shop', 'metadata.name: "Web_0" is not a DNS-1123 subdomain'],
    ['a..b', 'shop', 'metadata.name: "a..b" is not a DNS-1123 subdomain'],
    ['web', 'Shop.x', 'metadata.namespace: "Shop.x" is not a DNS-1123 label'],
  ])('%s in %s is refused with --strict', async (name, namespace, message) => {
    const strict = await runMain(['validate', '-f', '-', '--strict'], named(name, namespace));
    expect(strict.code).toBe(ExitCode.input);
    expect(strict.stdout).toContain(message);
  });

  it('a valid name passes --strict', async () => {
    const r = await runMain(['validate', '-f', '-', '--strict'], named('web-0.prod'));
    expect(r.code).toBe(ExitCode.ok);
  });
});

describe('summaries of a manifest with more errors than the reader reports (MAX_REPORTED_ERRORS)', () => {
  // 130 documents with one syntax error each: the reader reports 100, then a note counting
  // the other 30. The summaries said "101 error(s)", counting the note as an error.
  const broken = Array.from({ length: 130 }, (_, i) => `a${i}: [1\n`).join('---\n');
  const note = 'only the first 100 errors are shown; from here on: 30 more syntax errors';

  it.each([
    ['validate', 'stdout'],
    ['phase', 'stderr'],
  ] as const)(
    '%s counts the errors shown and the ones left out, as the note does',
    async (command, errorsTo) => {
      const r = await runMain([command, '-f', '-'], broken);
      expect(r.code).toBe(ExitCode.input);
      expect(r[errorsTo]).toContain(`document 101, line 202, column 1: ${note}\n`);
      expect(r.stderr).toContain(
        '<stdin>: cannot be read as a manifest (100 error(s) shown, then 30 more syntax errors)\n',
      );
      expect(r.stderr).not.toContain('101 error');
    },
  );

  it('convert counts them so too', async () => {
    const r = await runMain(['convert', '-f', '-'], broken);
    expect(r.code).toBe(ExitCode.input);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(`document 101: line 202, column 1: ${note}\n`);
    expect(r.stderr).toMatch(
      /capi-kit convert: 100 errors shown, then 30 more syntax errors; nothing written\n$/,
    );
  });

  it('with unchecked documents: says so rather than a count it does not know', async () => {
    const dup = 'b: 1\nb: 2\n'; // a duplicate key: found only when a document is checked
    const r = await runMain(['validate', '-f', '-'], `${broken}---\n${dup}---\n${dup}`);
    expect(r.stderr).toContain(
      'cannot be read as a manifest (100 error(s) shown, then 30 more syntax errors, and 2 more documents not checked)\n',
    );
  });

  it('exactly 100 errors: all counted, no note', async () => {
    const hundred = Array.from({ length: 100 }, (_, i) => `a${i}: [1\n`).join('---\n');
    const r = await runMain(['validate', '-f', '-'], hundred);
    expect(r.stderr).toContain('cannot be read as a manifest (100 error(s))\n');
    const c = await runMain(['convert', '-f', '-'], hundred);
    expect(c.stderr).toMatch(/capi-kit convert: 100 errors; nothing written\n$/);
  });
});
