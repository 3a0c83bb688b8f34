import { type CloudProviderIDGrammar, positionalGrammar } from '../kit.js';

/**
 * IBM Cloud VPC / IKS: `ibm://<account>/<region>/<zone>/<cluster>/<instance>`; emitters
 * leave region and zone empty (`ibm://acct///cluster/worker`). Identity: every segment.
 * IBM publishes the format but no parser, so fields are read by position.
 */
export const ibmProviderID: CloudProviderIDGrammar = positionalGrammar({
  cloud: 'ibm',
  title: 'IBM Cloud VPC / IKS',
  scheme: 'ibm',
  fields: [
    { name: 'accountId' },
    { name: 'region', optional: true },
    { name: 'zone', optional: true },
    { name: 'clusterId' },
    { name: 'instanceId' },
  ],
});
