import { type CloudProviderIDGrammar, singleTokenGrammar, tokenRules } from '../kit.js';

/** DigitalOcean: `digitalocean://<droplet-id>`, an int64. */
export const digitaloceanProviderID: CloudProviderIDGrammar = singleTokenGrammar({
  cloud: 'digitalocean',
  title: 'DigitalOcean',
  schemes: ['digitalocean'],
  field: 'dropletId',
  rule: tokenRules.int64,
});
