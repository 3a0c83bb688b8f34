import {
  type CloudProviderIDGrammar,
  type FieldsResult,
  formatFields,
  malformed,
  readAfterScheme,
  readSegments,
} from '../kit.js';

const CLOUD = 'kind';
const FIELDS = [
  { name: 'clusterName', label: 'the cluster name' },
  { name: 'nodeName', label: 'the node name' },
];

function readClusterAndNode(rest: string, scheme: string): FieldsResult {
  const s = rest.split('/');
  if (s.length !== 3 || s[1] !== 'kind') return malformed(CLOUD, 'expected kind://<cluster>/kind/<node>');
  return readSegments(CLOUD, scheme, [s[0]!, s[2]!], FIELDS);
}

/** kind clusters with cloud-provider-kind: `kind://<cluster>/kind/<node>`. Identity: (cluster, node). */
export const kindProviderID: CloudProviderIDGrammar = {
  cloud: CLOUD,
  title: 'kind (cloud-provider-kind)',
  schemes: ['kind'],
  parse: (id) => readAfterScheme(CLOUD, id, ['kind'], readClusterAndNode),
  format: (fields) =>
    formatFields(
      CLOUD,
      fields,
      ['clusterName', 'nodeName'],
      (v) => `kind://${v.clusterName}/kind/${v.nodeName}`,
    ),
  identity: (fields) => ({ space: CLOUD, parts: [String(fields.clusterName), String(fields.nodeName)] }),
};
