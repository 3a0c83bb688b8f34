import { type CloudProviderIDGrammar, singleTokenGrammar, tokenRules } from '../kit.js';

/** Kamatera (cluster-autoscaler); a configured prefix may add a third slash. */
export const kamateraProviderID: CloudProviderIDGrammar = singleTokenGrammar({
  cloud: 'kamatera',
  title: 'Kamatera',
  schemes: ['kamatera'],
  field: 'serverName',
  rule: tokenRules.opaque,
  slashes: [0, 1],
  bareWhenNamed: true,
});
