import {
  type CloudProviderIDGrammar,
  foldUUID,
  formatFields,
  readAfterScheme,
  readField,
  readLayouts,
} from '../kit.js';

const CLOUD = 'scaleway';
const SERVER_ID = { name: 'serverId', label: 'the server ID' };
const LAYOUTS = [
  { fields: [{ name: 'product', label: 'the product' }, { name: 'zone', label: 'the zone' }, SERVER_ID] },
  // The legacy form names an instance in an unknown zone.
  { fields: [SERVER_ID], implied: { product: 'instance', zone: '' } },
];
const EXPECTED = 'scaleway://<product>/<zone>/<server-id> or legacy scaleway://<server-id>';
const readServer = (rest: string, scheme: string) => readLayouts(CLOUD, scheme, rest, LAYOUTS, EXPECTED);

/**
 * Scaleway: `scaleway://<product>/<zone>/<server-uuid>` (product `instance` or
 * `baremetal`) and the legacy `scaleway://<server-uuid>` (an instance, zone unknown).
 * Identity: (product, server UUID), qualified by the zone.
 */
export const scalewayProviderID: CloudProviderIDGrammar = {
  cloud: CLOUD,
  title: 'Scaleway',
  schemes: ['scaleway'],
  parse: (id) => readAfterScheme(CLOUD, id, ['scaleway'], readServer),
  format: (fields) =>
    formatFields(CLOUD, fields, ['serverId'], ({ serverId }) => {
      const zone = readField(fields, 'zone') ?? '';
      const product = readField(fields, 'product') ?? 'instance';
      if (zone === '' && product === 'instance') return `scaleway://${serverId}`;
      return `scaleway://${product}/${zone}/${serverId}`;
    }),
  identity: (fields) => ({
    space: CLOUD,
    parts: [String(fields.product), foldUUID(String(fields.serverId))],
    qualifier: String(fields.zone ?? ''),
    qualifierName: 'zone',
  }),
};
