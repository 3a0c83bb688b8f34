import { type CloudProviderIDGrammar, foldUUID, singleTokenGrammar, tokenRules } from '../kit.js';

/** Nutanix AHV; the cloud provider writes the VM UUID lower-cased, CAPX keeps its case. */
export const nutanixProviderID: CloudProviderIDGrammar = singleTokenGrammar({
  cloud: 'nutanix',
  title: 'Nutanix AHV',
  schemes: ['nutanix'],
  field: 'uuid',
  rule: { ...tokenRules.opaqueUUID, canonical: foldUUID },
  bareWhenNamed: true,
});
