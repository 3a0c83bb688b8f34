import { type CloudProviderIDGrammar, singleTokenGrammar, tokenRules } from '../kit.js';

export const volcengineProviderID: CloudProviderIDGrammar = singleTokenGrammar({
  cloud: 'volcengine',
  title: 'Volcengine',
  schemes: ['volcengine'],
  field: 'instanceId',
  rule: tokenRules.opaque,
  bareWhenNamed: true,
});
