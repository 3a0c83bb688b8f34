import { type CloudProviderIDGrammar, singleTokenGrammar, tokenRules } from '../kit.js';

export const civoProviderID: CloudProviderIDGrammar = singleTokenGrammar({
  cloud: 'civo',
  title: 'Civo',
  schemes: ['civo'],
  field: 'instanceId',
  rule: tokenRules.opaqueUUID,
  bareWhenNamed: true,
});
