import { type CloudProviderIDGrammar, singleTokenGrammar, tokenRules } from '../kit.js';

export const brightboxProviderID: CloudProviderIDGrammar = singleTokenGrammar({
  cloud: 'brightbox',
  title: 'Brightbox',
  schemes: ['brightbox'],
  field: 'serverId',
  rule: tokenRules.opaque,
  bareWhenNamed: true,
});
