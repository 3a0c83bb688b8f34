import fc from 'fast-check';
import * as E from 'fp-ts/lib/Either.js';
import { describe, expect, it } from 'vitest';
import { awsConversionPlugin } from '../../providers-aws/src/conversion/index.js';
import { vsphereConversionPlugin } from '../../providers-vsphere/src/conversion/index.js';
import { type ConversionPlugin, convertObject, V1ALPHA2 } from '../src/index.js';
import { findPlugin, type MachinePluginInput, pluginFail, pluginOk } from '../src/plugin-kit.js';
import { machineProviderSpec, name } from './support/arbitraries.js';

const machine = (value: Record<string, unknown>) => ({
  apiVersion: 'cluster.k8s.io/v1alpha1',
  kind: 'Machine',
  metadata: { name: 'm', namespace: 'ns' },
  spec: { providerSpec: { value } },
});

describe('plug-in selection', () => {
  it('finds the plug-in by the providerSpec apiVersion and kind, every spelling', () => {
    const plugins = [awsConversionPlugin, vsphereConversionPlugin];
    expect(
      findPlugin(plugins, { apiVersion: 'awsprovider.k8s.io/v1alpha1', kind: 'AWSMachineProviderSpec' })
        ?.name,
    ).toBe('aws');
    expect(
      findPlugin(plugins, { apiVersion: 'awsprovider/v1alpha1', kind: 'AWSClusterProviderSpec' })?.name,
    ).toBe('aws');
    expect(
      findPlugin(plugins, {
        apiVersion: 'vsphereproviderconfig.sigs.k8s.io/v1alpha1',
        kind: 'VsphereMachineProviderConfig',
      })?.name,
    ).toBe('vsphere');
    expect(
      findPlugin(plugins, {
        apiVersion: 'vsphere.cluster.sigs.k8s.io/v1alpha1',
        kind: 'VsphereMachineProviderSpec',
      })?.name,
    ).toBe('vsphere');
    expect(
      findPlugin(plugins, { apiVersion: 'awsprovider/v1alpha1', kind: 'VsphereMachineProviderSpec' }),
    ).toBeUndefined();
    expect(findPlugin(plugins, { kind: 'AWSMachineProviderSpec' })).toBeUndefined();
  });

  it('asks plug-ins in order: the first that claims the type wins', () => {
    const custom: ConversionPlugin = {
      ...awsConversionPlugin,
      name: 'in-house',
      machine: (input) =>
        pluginOk({
          infrastructureRef: {
            apiVersion: 'infrastructure.example.com/v1alpha2',
            kind: 'InHouseMachine',
            name: input.owner.name,
          },
          bootstrap: {
            configRef: {
              apiVersion: 'bootstrap.example.com/v1alpha2',
              kind: 'Script',
              name: input.owner.name,
            },
          },
          objects: [],
          moves: [],
          warnings: [],
        }),
    };
    const value = { apiVersion: 'awsprovider/v1alpha1', kind: 'AWSMachineProviderSpec' };
    const result = convertObject(machine(value), V1ALPHA2, { plugins: [custom, awsConversionPlugin] });
    if (E.isLeft(result)) throw new Error(JSON.stringify(result.left));
    expect((result.right.object.spec as { infrastructureRef: { kind: string } }).infrastructureRef.kind).toBe(
      'InHouseMachine',
    );
  });

  it('a plug-in that makes no bootstrap config for a Machine is an error (v1alpha2 requires one)', () => {
    const noBootstrap: ConversionPlugin = {
      ...awsConversionPlugin,
      name: 'partial',
      machine: (input) =>
        pluginOk({
          infrastructureRef: {
            apiVersion: 'infrastructure.example.com/v1alpha2',
            kind: 'X',
            name: input.owner.name,
          },
          objects: [],
          moves: [],
          warnings: [],
        }),
    };
    const value = { apiVersion: 'awsprovider/v1alpha1', kind: 'AWSMachineProviderSpec' };
    expect(convertObject(machine(value), V1ALPHA2, { plugins: [noBootstrap] })).toEqual(
      E.left({
        code: 'plugin-refused',
        objectKind: 'Machine',
        name: 'm',
        namespace: 'ns',
        path: 'spec.providerSpec',
        message: 'partial plug-in made no bootstrap config, which v1alpha2 requires',
      }),
    );
  });

  it('a plug-in refusal becomes the error, prefixed with the plug-in name', () => {
    const refusing: ConversionPlugin = {
      ...awsConversionPlugin,
      name: 'strict',
      machine: () => pluginFail('instanceType is required'),
    };
    const value = { apiVersion: 'awsprovider/v1alpha1', kind: 'AWSMachineProviderSpec' };
    const result = convertObject(machine(value), V1ALPHA2, { plugins: [refusing] });
    expect(E.isLeft(result) && result.left).toMatchObject({
      path: 'spec.providerSpec.value',
      message: 'strict plug-in: instanceType is required',
    });
  });

  it('with no plug-ins loaded, the error says so', () => {
    const value = { apiVersion: 'awsprovider/v1alpha1', kind: 'AWSMachineProviderSpec' };
    const result = convertObject(machine(value), V1ALPHA2);
    expect(E.isLeft(result) && result.left.message).toBe(
      'no conversion plug-in handles providerSpec apiVersion "awsprovider/v1alpha1" kind "AWSMachineProviderSpec" (none loaded)',
    );
  });
});

describe('machineReferences agree with the hooks (the way down checks a stash with them)', () => {
  const input = fc.record({
    owner: fc.record(
      { kind: fc.constantFrom('Machine' as const, 'MachineSet' as const), name, namespace: name },
      { requiredKeys: ['kind', 'name'] },
    ),
    providerSpec: machineProviderSpec,
    providerSpecSource: fc.constant('spec.providerSpec.value'),
    controlPlane: fc.boolean(),
    clusterName: fc.option(name, { nil: undefined }),
  });
  for (const plugin of [awsConversionPlugin, vsphereConversionPlugin]) {
    for (const template of [false, true]) {
      it(`${plugin.name}, ${template ? 'machineTemplate' : 'machine'} (1,000 inputs)`, () => {
        let made = 0;
        fc.assert(
          fc.property(input, (raw) => {
            const given = JSON.parse(JSON.stringify(raw)) as MachinePluginInput;
            const result = (template ? plugin.machineTemplate : plugin.machine)(given);
            if (E.isLeft(result)) return;
            made++;
            const { infrastructureRef, bootstrap } = result.right;
            expect(plugin.machineReferences?.(given, template)).toStrictEqual({
              infrastructureRef,
              bootstrap,
            });
          }),
          { numRuns: 1000 },
        );
        expect(made).toBeGreaterThan(100); // (the property saw hooks that succeed)
      });
    }
  }
});
