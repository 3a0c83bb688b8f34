import { type CloudProviderIDGrammar, singleTokenGrammar } from '../kit.js';

// KubeVirt's cloud provider only accepts VM names of these characters (no dots).
const KUBEVIRT_NAME = /^[0-9A-Za-z_-]+$/;

export const kubevirtProviderID: CloudProviderIDGrammar = singleTokenGrammar({
  cloud: 'kubevirt',
  title: 'KubeVirt',
  schemes: ['kubevirt'],
  field: 'vmName',
  rule: { test: (t) => KUBEVIRT_NAME.test(t), expected: 'a VM name of letters, digits, "-" and "_"' },
});
