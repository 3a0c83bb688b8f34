import { describe, expect, it } from 'vitest';
import { runCli } from './helpers/run-cli.js';

// End to end through the built binary (run `pnpm build` first).
const example = (name: string) => new URL(`../../../examples/${name}`, import.meta.url).pathname;

describe('capi-kit convert (built binary)', () => {
  it('converts the AWS example and converts it back', () => {
    const up = runCli(['convert', '-f', example('aws-v1alpha1.yaml')]);
    expect(up.code).toBe(0);
    expect(up.stderr).toBe('');
    expect(up.stdout).toContain('kind: AWSMachineTemplate');
    const down = runCli(['convert', '-f', '-', '--to', 'cluster.k8s.io/v1alpha1'], { stdin: up.stdout });
    expect(down.code).toBe(0);
    expect(down.stdout).toContain('kind: AWSMachineProviderSpec');
    expect(down.stdout).not.toContain('conversion.capi-kit.dev/data');
  });

  it('fails with exit 1 and an empty stdout when a MachineClass is missing', () => {
    const text = `apiVersion: cluster.k8s.io/v1alpha1
kind: Machine
metadata: {name: m, namespace: ns}
spec:
  providerSpec:
    valueFrom: {machineClass: {name: small}}
`;
    const r = runCli(['convert', '-f', '-'], { stdin: text });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(
      'document 1 (Machine ns/m, line 1): spec.providerSpec.valueFrom.machineClass: MachineClass ns/small is not in this manifest',
    );
  });

  it('lists convert in --help', () => {
    const r = runCli(['--help']);
    expect(r.stdout).toMatch(/^\s+convert\s+convert manifests between any Cluster API versions/m);
  });
});
