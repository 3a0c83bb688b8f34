// Scale from zero from the infrastructure machine template: the reference and the
// template's status are untrusted input, and the annotations' precedence over the status.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  annotationCapacityOf,
  infrastructureRefOf,
  type KubeObject,
  capacityAnnotations as keys,
  templateNodeOf,
  templateStatusOf,
  withTemplateStatus,
} from '../src/index.js';

const md = (infrastructureRef: unknown): KubeObject => ({
  kind: 'MachineDeployment',
  metadata: { name: 'md', namespace: 'ns' },
  spec: { template: { spec: { infrastructureRef } } },
});
const refError = (infrastructureRef: unknown) => {
  const result = infrastructureRefOf(md(infrastructureRef));
  if (result._tag === 'Right') throw new Error(`read: ${JSON.stringify(result.right)}`);
  return result.left;
};
const statusError = (status: unknown) => {
  const result = templateStatusOf({ kind: 'T', metadata: { name: 't', namespace: 'ns' }, status });
  if (result._tag === 'Right') throw new Error(`read: ${JSON.stringify(result.right)}`);
  return result.left;
};
const annotations = (values: Record<string, string>) => {
  const result = annotationCapacityOf(values);
  if (result._tag === 'Left') throw new Error(result.left.message);
  return result.right;
};

describe('infrastructureRefOf', () => {
  it('reads apiVersion, kind and name in the group namespace; apiGroup wins over apiVersion; none is null', () => {
    expect(infrastructureRefOf(md({ apiVersion: 'infra.example/v1', kind: 'T', name: 't' }))).toEqual({
      _tag: 'Right',
      right: { apiVersion: 'infra.example/v1', kind: 'T', name: 't', namespace: 'ns' },
    });
    expect(
      infrastructureRefOf(
        md({ apiGroup: 'infra.example', apiVersion: 'x/v9', kind: 'T', name: 't', namespace: 'ns' }),
      ),
    ).toEqual({ _tag: 'Right', right: { apiGroup: 'infra.example', kind: 'T', name: 't', namespace: 'ns' } });
    expect(infrastructureRefOf(md(undefined))).toEqual({ _tag: 'Right', right: null });
  });

  it('a reference that is not well formed is an error naming the field', () => {
    const at = 'spec.template.spec.infrastructureRef';
    expect(refError({ apiVersion: 'a.b/v1', kind: 7, name: 't' })).toEqual({
      code: 'invalid-infrastructure-template',
      object: 'MachineDeployment ns/md',
      path: `${at}.kind`,
      message: `invalid infrastructure template reference: ${at}.kind: expected a string, got number`,
    });
    expect(refError({ apiVersion: 'a.b/v1', name: 't' }).path).toBe(`${at}.kind`);
    expect(refError({ apiVersion: 'a.b/v1', kind: 'T' }).path).toBe(`${at}.name`);
    expect(refError({ kind: 'T', name: 't' }).path).toBe(`${at}.apiVersion`);
    expect(refError({ apiVersion: 'v1', kind: 'T', name: 't' }).path).toBe(`${at}.apiVersion`);
    expect(refError({ apiVersion: 'a.b/v1', kind: 'T', name: 'T_T' }).path).toBe(`${at}.name`);
    expect(refError({ apiVersion: 'a.b/v1', kind: 'T', name: 't', namespace: 'other' }).message).toBe(
      `invalid infrastructure template reference: ${at}.namespace: "other" is not the group's namespace "ns" ` +
        "(the template is read in the group's namespace)",
    );
    expect(refError('T/t').path).toBe(at);
  });
});

describe('templateStatusOf', () => {
  it('reads status.capacity and the arch and os of status.nodeInfo; absent ones are empty', () => {
    expect(
      templateStatusOf({
        status: {
          capacity: { cpu: '2', memory: '4Gi', 'nvidia.com/gpu': '1' },
          nodeInfo: { architecture: 'arm64', operatingSystem: 'linux', kernelVersion: 6 },
        },
      }),
    ).toEqual({
      _tag: 'Right',
      right: {
        capacity: { cpu: '2', memory: '4Gi', 'nvidia.com/gpu': '1' },
        nodeInfo: { architecture: 'arm64', operatingSystem: 'linux' },
      },
    });
    expect(templateStatusOf({})).toEqual({ _tag: 'Right', right: { capacity: {}, nodeInfo: {} } });
  });

  it('a quantity that is not a string or does not parse, or a nodeInfo field that is not a string, is an error', () => {
    expect(statusError({ capacity: { cpu: 2 } })).toEqual({
      code: 'invalid-infrastructure-template',
      object: 'T ns/t',
      path: 'status.capacity.cpu',
      message:
        'invalid infrastructure template: T ns/t: status.capacity.cpu: expected a quantity as a string, got number',
    });
    expect(statusError({ capacity: { memory: '4 GiB' } }).path).toBe('status.capacity.memory');
    expect(statusError({ capacity: { memory: '-4Gi' } }).message).toContain('"-4Gi" is negative');
    expect(statusError({ capacity: { 'bad name!': '1' } }).path).toBe('status.capacity["bad name!"]');
    expect(statusError({ capacity: 'cpu=2' }).path).toBe('status.capacity');
    expect(statusError({ nodeInfo: { operatingSystem: ['linux'] } }).path).toBe(
      'status.nodeInfo.operatingSystem',
    );
    expect(statusError({ nodeInfo: { architecture: 'arm 64' } }).path).toBe('status.nodeInfo.architecture');
  });

  it('never throws, whatever the status', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (status) => {
        templateStatusOf({ status } as KubeObject);
      }),
    );
  });
});

describe('withTemplateStatus (upstream InstanceCapacity precedence)', () => {
  const status = {
    capacity: { cpu: '8', memory: '32Gi', pods: '250', 'ephemeral-storage': '1Ti' },
    nodeInfo: { architecture: 'arm64' },
  };

  it('the template first, each resource of the annotations over it; pods is always the annotations', () => {
    const joined = withTemplateStatus(annotations({ [keys.cpu]: '2', [keys.maxPods]: '30' }), status);
    expect(joined?.capacity).toEqual({ cpu: '2', memory: '32Gi', pods: '30', 'ephemeral-storage': '1Ti' });
    expect(withTemplateStatus(annotations({}), status)?.capacity.pods).toBe('110');
  });

  it('null without cpu or memory in the result; without a template, the annotations alone', () => {
    expect(withTemplateStatus(annotations({}), { capacity: { cpu: '1' }, nodeInfo: {} })).toBeNull();
    expect(withTemplateStatus(annotations({ [keys.cpu]: '1' }), null)).toBeNull();
    expect(
      withTemplateStatus(annotations({ [keys.cpu]: '1', [keys.memory]: '1Gi' }), null)?.capacity,
    ).toEqual({
      cpu: '1',
      memory: '1Gi',
      pods: '110',
    });
  });

  it('nodeInfo sets arch and os; the labels annotation overrides them; absent keeps the defaults', () => {
    const resource = { metadata: { name: 'g' } };
    const node = templateNodeOf(resource, withTemplateStatus(annotations({}), status)!);
    expect(node.metadata.labels).toMatchObject({
      'kubernetes.io/arch': 'arm64',
      'kubernetes.io/os': 'linux',
    });
    const labelled = templateNodeOf(
      resource,
      withTemplateStatus(annotations({ [keys.labels]: 'kubernetes.io/arch=amd64' }), status)!,
    );
    expect(labelled.metadata.labels['kubernetes.io/arch']).toBe('amd64');
  });
});
