import { awsProviderID as fromProviderID } from '@capi-kit/providerid/clouds/aws';
import { describe, expect, it } from 'vitest';
import { awsProviderID } from '../src/providerid.js';

describe('@capi-kit/providers-aws/providerid', () => {
  it('is the grammar of @capi-kit/providerid, not a copy', () => {
    expect(awsProviderID).toBe(fromProviderID);
  });
});
