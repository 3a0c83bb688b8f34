import { type CloudProviderIDGrammar, singleTokenGrammar, tokenRules } from '../kit.js';

/** Cluster API's Docker provider (CAPD) writes four slashes: `docker:////<container>`. */
export const dockerProviderID: CloudProviderIDGrammar = singleTokenGrammar({
  cloud: 'docker',
  title: 'Docker (CAPD)',
  schemes: ['docker'],
  field: 'containerName',
  rule: tokenRules.opaque,
  slashes: [2],
});
