import { type CloudProviderIDGrammar, singleTokenGrammar, tokenRules } from '../kit.js';

/** Exoscale; overridden IDs look like `exoscale://external-<sha256>`. */
export const exoscaleProviderID: CloudProviderIDGrammar = singleTokenGrammar({
  cloud: 'exoscale',
  title: 'Exoscale',
  schemes: ['exoscale'],
  field: 'instanceId',
  rule: tokenRules.opaqueUUID,
  bareWhenNamed: true,
});
