import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from './helpers/run-cli.js';

// End to end through the built binary (run `pnpm build` first).
describe('capi-kit validate (built binary)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'capi-kit-validate-'));
  const file = join(dir, 'cluster.yaml');
  writeFileSync(
    file,
    [
      'apiVersion: cluster.k8s.io/v1alpha1',
      'kind: Cluster',
      'metadata: {name: c1, namespace: ns}',
      'spec:',
      '  clusterNetwork:',
      '    services: {cidrBlocks: ["10.96.0.0/12"]}',
      '    pods: {cidrBlocks: null}',
      '    serviceDomain: cluster.local',
      '---',
      'apiVersion: cluster.k8s.io/v1alpha1',
      'kind: Cluster',
      'metadata: {name: c2}',
      'spec: {}',
      '',
    ].join('\n'),
  );

  it('validates a file and exits 1 with one line per error', () => {
    const r = runCli(['validate', '-f', file]);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe(
      'document 2 (Cluster c2, line 10): spec.clusterNetwork: required field is missing (expected ClusterNetworkingConfig object)\n',
    );
    expect(r.stderr).toContain('2 object(s): 1 valid, 1 invalid, 0 skipped');
  });

  it('reads standard input and exits 0 when valid', () => {
    const r = runCli(['validate', '-f', '-'], {
      stdin: '{"apiVersion":"cluster.x-k8s.io/v1alpha2","kind":"MachineList","items":null}',
    });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('');
  });
});
