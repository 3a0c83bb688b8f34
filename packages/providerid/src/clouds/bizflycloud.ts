import { type CloudProviderIDGrammar, singleTokenGrammar, tokenRules } from '../kit.js';

export const bizflyCloudProviderID: CloudProviderIDGrammar = singleTokenGrammar({
  cloud: 'bizflycloud',
  title: 'Bizfly Cloud',
  schemes: ['bizflycloud'],
  field: 'instanceId',
  rule: tokenRules.opaqueUUID,
  bareWhenNamed: true,
});
