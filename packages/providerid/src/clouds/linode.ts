import { type CloudProviderIDGrammar, singleTokenGrammar, tokenRules } from '../kit.js';

export const linodeProviderID: CloudProviderIDGrammar = singleTokenGrammar({
  cloud: 'linode',
  title: 'Akamai / Linode',
  schemes: ['linode'],
  field: 'linodeId',
  rule: tokenRules.int64,
});
