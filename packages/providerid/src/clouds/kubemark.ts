import { type CloudProviderIDGrammar, singleTokenGrammar, tokenRules } from '../kit.js';

/** kubemark hollow nodes; cluster-api-provider-kubemark documents a four-slash form too. */
export const kubemarkProviderID: CloudProviderIDGrammar = singleTokenGrammar({
  cloud: 'kubemark',
  title: 'kubemark',
  schemes: ['kubemark'],
  field: 'nodeName',
  rule: tokenRules.opaque,
  slashes: [0, 2],
});
