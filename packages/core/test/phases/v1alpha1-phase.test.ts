import { describe, expect, it } from 'vitest';
import { normalizeV1alpha1Phase } from '../../src/phases/index.js';

describe('normalizeV1alpha1Phase', () => {
  it.each([
    ['Pending', 'pending'],
    ['Provisioning', 'provisioning'],
    ['Creating', 'provisioning'],
    ['Provisioned', 'provisioned'],
    ['Running', 'running'],
    ['Deleting', 'deleting'],
    ['Terminating', 'deleting'],
    ['Failed', 'failed'],
    ['running', 'running'],
    ['RUNNING', 'running'],
    ['  Terminating\n', 'deleting'],
    ['\tcReAtInG ', 'provisioning'],
  ])('maps %j to %j', (value, phase) => {
    expect(normalizeV1alpha1Phase(value)).toEqual({ phase, recognised: true, from: value });
  });

  it.each(['Ready', 'Unknown', 'Deleted', 'Stopped', 'Run ning', 'Running.', 'Processing'])(
    'maps %j to unknown and says it did not recognise it',
    (value) => {
      expect(normalizeV1alpha1Phase(value)).toEqual({ phase: '', recognised: false, from: value });
    },
  );

  it('has nothing to lose for an absent or blank phase', () => {
    expect(normalizeV1alpha1Phase(undefined)).toEqual({ phase: '', recognised: true, from: undefined });
    expect(normalizeV1alpha1Phase(null)).toEqual({ phase: '', recognised: true, from: undefined });
    expect(normalizeV1alpha1Phase('  ')).toEqual({ phase: '', recognised: true, from: '  ' });
  });
});
