import { left, right } from 'fp-ts/lib/Either.js';
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
} from '../kit.js';

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
