import {
  type CloudProviderIDGrammar,
  checkScheme,
  foldUUID,
  formatted,
  invalidField,
  isToken,
  malformed,
  missingField,
  readField,
} from '@capi-kit/core/providerid';
import { left, right } from 'fp-ts/lib/Either.js';

/**
 * Scaleway: `scaleway://<product>/<zone>/<server-uuid>` (product `instance` or
 * `baremetal`) and the legacy `scaleway://<server-uuid>` (an instance, zone unknown).
 * Identity: (product, server UUID), qualified by the zone.
 */
export const scalewayProviderID: CloudProviderIDGrammar = {
  cloud: 'scaleway',
  title: 'Scaleway',
  schemes: ['scaleway'],
  parse(id) {
    const bad = checkScheme('scaleway', id, ['scaleway']);
    if (bad) return left(bad);
    const s = id.rest.split('/');
    if (s.length === 1) {
      if (!isToken(s[0]!)) return invalidField('scaleway', 'serverId', 'the server ID is empty');
      return right({ scheme: id.scheme, product: 'instance', zone: '', serverId: s[0]! });
    }
    if (s.length !== 3) return malformed('scaleway', 'expected scaleway://<product>/<zone>/<server-id>');
    const [product, zone, serverId] = s as [string, string, string];
    if (!isToken(product)) return invalidField('scaleway', 'product', 'the product is empty');
    if (!isToken(zone)) return invalidField('scaleway', 'zone', 'the zone is empty');
    if (!isToken(serverId)) return invalidField('scaleway', 'serverId', 'the server ID is empty');
    return right({ scheme: id.scheme, product, zone, serverId });
  },
  format(fields) {
    const serverId = readField(fields, 'serverId');
    if (serverId === undefined) return missingField('scaleway', 'serverId');
    const zone = readField(fields, 'zone') ?? '';
    const product = readField(fields, 'product') ?? 'instance';
    if (zone === '' && product === 'instance') return formatted(`scaleway://${serverId}`);
    return formatted(`scaleway://${product}/${zone}/${serverId}`);
  },
  identity: (fields) => ({
    space: 'scaleway',
    parts: [String(fields.product), foldUUID(String(fields.serverId))],
    qualifier: String(fields.zone ?? ''),
    qualifierName: 'zone',
  }),
};

// cluster-autoscaler's Tencent Cloud rule: lower-case letters, digits and '-'.
const QCLOUD_TOKEN = /^[-0-9a-z]*$/;

/**
 * Tencent Cloud: `qcloud:///<zone>/<instance-id>`. Identity: the instance ID, qualified
 * by the zone.
 */
export const tencentCloudProviderID: CloudProviderIDGrammar = {
  cloud: 'tencentcloud',
  title: 'Tencent Cloud',
  schemes: ['qcloud'],
  parse(id) {
    const bad = checkScheme('tencentcloud', id, ['qcloud']);
    if (bad) return left(bad);
    const s = id.rest.split('/');
    if (s.length !== 3 || s[0] !== '')
      return malformed('tencentcloud', 'expected qcloud:///<zone>/<instance-id>');
    const zone = s[1]!;
    const instanceId = s[2]!;
    if (!QCLOUD_TOKEN.test(zone))
      return invalidField('tencentcloud', 'zone', 'the zone has characters outside [-0-9a-z]');
    if (instanceId === '' || !QCLOUD_TOKEN.test(instanceId)) {
      return invalidField(
        'tencentcloud',
        'instanceId',
        'the instance ID is empty or has characters outside [-0-9a-z]',
      );
    }
    return right({ scheme: id.scheme, zone, instanceId });
  },
  format(fields) {
    const instanceId = readField(fields, 'instanceId');
    if (instanceId === undefined) return missingField('tencentcloud', 'instanceId');
    return formatted(`qcloud:///${readField(fields, 'zone') ?? ''}/${instanceId}`);
  },
  identity: (fields) => ({
    space: 'tencentcloud',
    parts: [String(fields.instanceId)],
    qualifier: String(fields.zone ?? ''),
    qualifierName: 'zone',
  }),
};

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
