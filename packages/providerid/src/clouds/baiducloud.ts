import { type CloudProviderIDGrammar, singleTokenGrammar, tokenRules } from '../kit.js';

/** Baidu Cloud Container Engine. */
export const baiduCloudProviderID: CloudProviderIDGrammar = singleTokenGrammar({
  cloud: 'baiducloud',
  title: 'Baidu Cloud (CCE)',
  schemes: ['cce'],
  field: 'instanceId',
  rule: tokenRules.opaque,
});
