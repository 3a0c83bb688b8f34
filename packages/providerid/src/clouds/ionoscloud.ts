import { type CloudProviderIDGrammar, singleTokenGrammar, tokenRules } from '../kit.js';

export const ionosCloudProviderID: CloudProviderIDGrammar = singleTokenGrammar({
  cloud: 'ionoscloud',
  title: 'IONOS Cloud',
  schemes: ['ionos'],
  field: 'serverId',
  rule: tokenRules.opaqueUUID,
  bareWhenNamed: true,
});
