import { type CloudProviderIDGrammar, positionalGrammar } from '../kit.js';

/**
 * IBM Power Virtual Server: `ibmpowervs://<region>/<zone>/<workspace>/<instance>`, read by
 * position (IBM publishes the format but no parser).
 */
export const ibmPowerVSProviderID: CloudProviderIDGrammar = positionalGrammar({
  cloud: 'ibm-powervs',
  title: 'IBM Power Virtual Server',
  scheme: 'ibmpowervs',
  fields: [{ name: 'region' }, { name: 'zone' }, { name: 'serviceInstanceId' }, { name: 'instanceId' }],
});
