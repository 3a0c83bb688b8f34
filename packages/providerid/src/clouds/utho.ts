import { type CloudProviderIDGrammar, singleTokenGrammar, tokenRules } from '../kit.js';

export const uthoProviderID: CloudProviderIDGrammar = singleTokenGrammar({
  cloud: 'utho',
  title: 'Utho',
  schemes: ['utho'],
  field: 'instanceId',
  rule: tokenRules.opaque,
  bareWhenNamed: true,
});
