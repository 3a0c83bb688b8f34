import { type CloudProviderIDGrammar, singleTokenGrammar, tokenRules } from '../kit.js';

export const vultrProviderID: CloudProviderIDGrammar = singleTokenGrammar({
  cloud: 'vultr',
  title: 'Vultr',
  schemes: ['vultr'],
  field: 'instanceId',
  rule: tokenRules.opaqueUUID,
});
