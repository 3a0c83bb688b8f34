import { describe, expect, it } from 'vitest';
import { LeaseConfigError } from '../src/errors.js';
import { checkHolderIdentity, isReservedHolder } from '../src/holder-identity.js';
import { defaultLeaseNamespace, medik8sLeases, nodeNamedLeases } from '../src/location.js';

describe('holder identity', () => {
  it('accepts ordinary identities', () => {
    expect(checkHolderIdentity('reboot-agent/node-7')).toBe('reboot-agent/node-7');
  });

  it('refuses empty identities and the administrators’ kubeadm prefix', () => {
    expect(() => checkHolderIdentity('')).toThrow(LeaseConfigError);
    expect(() => checkHolderIdentity('  ')).toThrow(/required/);
    expect(() => checkHolderIdentity('kubeadm')).toThrow(/reserved prefix 'kubeadm'/);
    expect(() => checkHolderIdentity('kubeadm-alice')).toThrow(LeaseConfigError);
    expect(() => checkHolderIdentity('kubeadm-alice')).toThrow(
      expect.objectContaining({ code: 'invalid-config', path: 'holderIdentity' }),
    );
  });

  it('recognises reserved holders by prefix only', () => {
    expect(isReservedHolder('kubeadm:alice')).toBe(true);
    expect(isReservedHolder('alice-kubeadm')).toBe(false);
    expect(isReservedHolder('')).toBe(false);
    expect(isReservedHolder(undefined)).toBe(false);
  });
});

describe('lease location', () => {
  it('defaults to the KEP layout', () => {
    const location = nodeNamedLeases();
    expect(location.namespace).toBe(defaultLeaseNamespace);
    expect(location.namespace).toBe('kube-node-maintenance');
    expect(location.leaseName('worker-1')).toBe('worker-1');
    expect(location.nodeOf('worker-1')).toBe('worker-1');
  });

  it('has a medik8s preset: medik8s-leases, node-<node>', () => {
    const location = medik8sLeases();
    expect(location.namespace).toBe('medik8s-leases');
    expect(location.leaseName('worker-1')).toBe('node-worker-1');
    expect(location.nodeOf('node-worker-1')).toBe('worker-1');
    expect(location.nodeOf('machine-x')).toBeUndefined();
    expect(medik8sLeases('other').namespace).toBe('other');
  });
});
