import { type CloudProviderIDGrammar, singleTokenGrammar, tokenRules } from '../kit.js';

/** Equinix Metal; `packet://` is the scheme it had before 2021 and names the same devices. */
export const equinixMetalProviderID: CloudProviderIDGrammar = singleTokenGrammar({
  cloud: 'equinixmetal',
  title: 'Equinix Metal (legacy packet://)',
  schemes: ['equinixmetal', 'packet'],
  field: 'deviceId',
  rule: tokenRules.opaqueUUID,
  bareWhenNamed: true,
});
