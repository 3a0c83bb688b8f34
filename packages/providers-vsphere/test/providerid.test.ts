import { vsphereProviderID as fromProviderID } from '@capi-kit/providerid/clouds/vsphere';
import { describe, expect, it } from 'vitest';
import { vsphereProviderID } from '../src/providerid.js';

describe('@capi-kit/providers-vsphere/providerid', () => {
  it('is the grammar of @capi-kit/providerid, not a copy', () => {
    expect(vsphereProviderID).toBe(fromProviderID);
  });
});
