import { left, right } from 'fp-ts/lib/Either.js';
import {
  type CloudProviderIDGrammar,
  checkScheme,
  formatted,
  invalidField,
  isToken,
  malformed,
  missingField,
  readField,
} from '../kit.js';

/** kind clusters with cloud-provider-kind: `kind://<cluster>/kind/<node>`. Identity: (cluster, node). */
export const kindProviderID: CloudProviderIDGrammar = {
  cloud: 'kind',
  title: 'kind (cloud-provider-kind)',
  schemes: ['kind'],
  parse(id) {
    const bad = checkScheme('kind', id, ['kind']);
    if (bad) return left(bad);
    const s = id.rest.split('/');
    if (s.length !== 3 || s[1] !== 'kind') return malformed('kind', 'expected kind://<cluster>/kind/<node>');
    if (!isToken(s[0]!)) return invalidField('kind', 'clusterName', 'the cluster name is empty');
    if (!isToken(s[2]!)) return invalidField('kind', 'nodeName', 'the node name is empty');
    return right({ scheme: id.scheme, clusterName: s[0]!, nodeName: s[2]! });
  },
  format(fields) {
    const clusterName = readField(fields, 'clusterName');
    const nodeName = readField(fields, 'nodeName');
    if (clusterName === undefined) return missingField('kind', 'clusterName');
    if (nodeName === undefined) return missingField('kind', 'nodeName');
    return formatted(`kind://${clusterName}/kind/${nodeName}`);
  },
  identity: (fields) => ({ space: 'kind', parts: [String(fields.clusterName), String(fields.nodeName)] }),
};
