import { isRight, right } from 'fp-ts/lib/Either.js';
import { describe, expect, it } from 'vitest';
import { azureLowerResourceGroup, azureProviderID } from '../../src/clouds/azure.js';
import { createProviderIDRegistry } from '../../src/index.js';

const registry = createProviderIDRegistry([azureProviderID]);
const fieldsOf = (input: string) => {
  const r = registry.parse(input, { cloud: 'azure' });
  return isRight(r) ? r.right.fields : undefined;
};
const SUB = '00000000-0000-0000-0000-000000000000';
const vm = (rg: string, name: string) =>
  `azure:///subscriptions/${SUB}/resourceGroups/${rg}/providers/Microsoft.Compute/virtualMachines/${name}`;
const vmss = (rg: string, set: string, instance: string) =>
  `azure:///subscriptions/${SUB}/resourceGroups/${rg}/providers/Microsoft.Compute/virtualMachineScaleSets/${set}/virtualMachines/${instance}`;

describe('azureProviderID', () => {
  it('reads VMs, uniform and flex scale set members, and AKS nodes', () => {
    expect(fieldsOf(vm('myRG', 'k8s-agent-AAAAAAAA-0'))).toEqual({
      scheme: 'azure',
      subscriptionId: SUB,
      resourceGroup: 'myRG',
      resourceType: 'virtualMachines',
      vmName: 'k8s-agent-AAAAAAAA-0',
      variant: 'vm',
    });
    expect(fieldsOf(vmss('rg', 'pool1-vmss', '3'))).toMatchObject({
      vmssName: 'pool1-vmss',
      vmssInstanceId: '3',
      variant: 'vmss-uniform',
    });
    expect(fieldsOf(vmss('rg', 'flex', 'flex_1a2b3c'))).toMatchObject({ variant: 'vmss-flex' });
    expect(fieldsOf(vmss('MC_rg_aks1_eastus', 'aks-nodepool1-12345678-vmss', '0'))).toMatchObject({
      aks: true,
    });
  });

  it.each([
    'azure://',
    'k8s-agent-AAAAAAAA-0',
    `:///subscriptions/${SUB}/resourceGroups/rg/providers/Microsoft.Compute/virtualMachines/vm`,
    `aws:///subscriptions/${SUB}/resourceGroups/rg/providers/Microsoft.Compute/virtualMachines/vm`,
    `azure:///subscriptions/${SUB}/resourceGroups/rg/providers/Microsoft.Network/virtualMachines/vm`,
    `azure:///subscriptions/${SUB}/resourceGroups//providers/Microsoft.Compute/virtualMachines/vm`,
    `azure:///subscriptions/${SUB}/resourceGroups/rg/providers/Microsoft.Compute/virtualMachines/`,
    'azure:///subscriptions/sub1/virtualMachineScaleSets/vmss1/virtualMachines/0',
    `/prescriptions/${SUB}/resourceGroups/rg/providers/Microsoft.Compute/virtualMachines/vm`,
  ])('rejects %j', (input) => {
    expect(fieldsOf(input)).toBeUndefined();
  });

  it('claims a bare ARM path', () => {
    const r = registry.parse(vm('rg', 'vm').slice('azure://'.length));
    expect(isRight(r) && r.right.cloud).toBe('azure');
  });

  it('matches resource groups (and all ARM names) case-insensitively, never across scale sets', () => {
    expect(
      registry.sameInstance(vmss('K8S1-RG', 'pool-vmss', '68'), vmss('k8s1-rg', 'pool-vmss', '68')).match,
    ).toBe(true);
    const lowered = vmss('Tilt', 'pool-vmss', '1').toLowerCase();
    expect(registry.sameInstance(vmss('Tilt', 'pool-vmss', '1'), lowered).match).toBe(true);
    expect(registry.sameInstance(vmss('rg', 'pool1-vmss', '0'), vmss('rg', 'pool2-vmss', '0')).match).toBe(
      false,
    );
    expect(registry.sameInstance(vm('rg', 'vm1'), vm('rg2', 'vm1')).match).toBe(false);
  });

  it('treats a flex member under its scale set and as a VM as one machine', () => {
    expect(registry.sameInstance(vmss('rg', 'flex', 'flex_1a2b3c'), vm('rg', 'flex_1a2b3c')).match).toBe(
      true,
    );
  });

  it('writes the resource group lower-cased, as the cloud provider does', () => {
    expect(registry.format('azure', { subscriptionId: SUB, resourceGroup: 'MyRG', vmName: 'vm1' })).toEqual(
      right(vm('myrg', 'vm1')),
    );
    expect(azureLowerResourceGroup(vm('MyRG', 'VM1'))).toEqual(right(vm('myrg', 'VM1')));
    expect(azureLowerResourceGroup('')._tag).toBe('Left');
  });
});
