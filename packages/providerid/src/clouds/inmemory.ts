import { type CloudProviderIDGrammar, singleTokenGrammar, tokenRules } from '../kit.js';

/** CAPD's in-memory backend (scale tests). */
export const inMemoryProviderID: CloudProviderIDGrammar = singleTokenGrammar({
  cloud: 'inmemory',
  title: 'CAPD in-memory backend',
  schemes: ['in-memory'],
  field: 'name',
  rule: tokenRules.opaque,
});
