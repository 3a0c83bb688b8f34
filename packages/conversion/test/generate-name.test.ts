import * as E from 'fp-ts/lib/Either.js';
import { describe, expect, it } from 'vitest';
import { awsConversionPlugin } from '../../providers-aws/src/conversion/index.js';
import { convertManifest, formatConversionError, V1ALPHA2 } from '../src/index.js';

const plugins = [awsConversionPlugin];

const worker = (instanceType = 't3.medium') => `apiVersion: cluster.k8s.io/v1alpha1
kind: Machine
metadata:
  generateName: worker-
  namespace: default
  labels:
    cluster.k8s.io/cluster-name: c1
spec:
  providerSpec:
    value:
      apiVersion: awsprovider/v1alpha1
      kind: AWSMachineProviderSpec
      instanceType: ${instanceType}
  versions:
    kubelet: v1.15.3
`;

type Obj = { kind: string; metadata: { name?: string }; spec?: Record<string, unknown> };

function convert(text: string) {
  const result = convertManifest(text, { to: V1ALPHA2, plugins });
  if (E.isLeft(result)) throw new Error(result.left.map(formatConversionError).join('\n'));
  return { ...result.right, objects: result.right.documents as Obj[] };
}

describe('a v1alpha1 Machine with only metadata.generateName', () => {
  it('is named from its generateName, and its generated objects and references share that name', () => {
    const { objects, report } = convert(worker());
    expect(objects.map((o) => o.kind)).toEqual(['Machine', 'AWSMachine', 'KubeadmConfig']);
    const name = objects[0]!.metadata.name!;
    expect(name).toMatch(/^worker-[0-9a-f]{8}$/);
    expect(objects.map((o) => o.metadata.name)).toEqual([name, name, name]);
    const spec = objects[0]!.spec as {
      infrastructureRef: { name: string };
      bootstrap: { configRef: { name: string } };
    };
    expect(spec.infrastructureRef.name).toBe(name);
    expect(spec.bootstrap.configRef.name).toBe(name);
    expect(report.warnings.some((w) => w.includes('generateName') && w.includes(name))).toBe(true);
  });

  it('gets the same name on every run, and different Machines (even identical ones) different names', () => {
    const once = convert(worker()).objects[0]!.metadata.name;
    expect(convert(worker()).objects[0]!.metadata.name).toBe(once);
    const two = convert(`${worker()}---\n${worker()}`).objects.filter((o) => o.kind === 'Machine');
    expect(two).toHaveLength(2);
    expect(two[0]!.metadata.name).not.toBe(two[1]!.metadata.name);
    const list = `apiVersion: v1\nkind: List\nitems:\n${[worker(), worker()]
      .map((w) => `- ${w.trimEnd().split('\n').join('\n  ')}`)
      .join('\n')}\n`;
    const listed = convert(list).objects.filter((o) => o.kind === 'Machine');
    expect(listed).toHaveLength(2);
    expect(listed[0]!.metadata.name).not.toBe(listed[1]!.metadata.name);
  });
});
