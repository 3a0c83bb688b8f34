import {
  type CloudProviderIDGrammar,
  type FieldsResult,
  foldUUID,
  formatFields,
  malformed,
  readAfterScheme,
  readField,
  readSegments,
} from '../kit.js';

const CLOUD = 'openstack';
// `<region>/<server-id>`: the region may be empty, the server ID may not.
const FIELDS = [
  { name: 'region', optional: true, label: 'the region' },
  { name: 'instanceId', label: 'the server ID' },
];

function readRegionAndServer(rest: string, scheme: string): FieldsResult {
  const segments = rest.split('/');
  if (segments.length !== 2) {
    return malformed(CLOUD, 'expected openstack:///<server-id> or openstack://<region>/<server-id>');
  }
  return readSegments(CLOUD, scheme, segments, FIELDS);
}

/**
 * OpenStack: `openstack:///<server-id>` or, for regional clouds (OCCM with
 * OS_CCM_REGIONAL, CAPO), `openstack://<region>/<server-id>`. A bare `/<id>` or
 * `<region>/<id>` parses when the cloud is named (OCCM prefixes such strings with
 * `openstack://`); a bare ID without '/' does not. Identity: the server ID (UUIDs
 * case-insensitively), qualified by the region: an ID without region matches one with,
 * two different regions do not.
 */
export const openstackProviderID: CloudProviderIDGrammar = {
  cloud: CLOUD,
  title: 'OpenStack',
  schemes: ['openstack'],
  parse: (id, named) => readAfterScheme(CLOUD, id, ['openstack'], readRegionAndServer, named),
  format: (fields) =>
    formatFields(
      CLOUD,
      fields,
      ['instanceId'],
      ({ instanceId }) => `openstack://${readField(fields, 'region') ?? ''}/${instanceId}`,
    ),
  identity: (fields) => ({
    space: CLOUD,
    parts: [foldUUID(String(fields.instanceId))],
    qualifier: String(fields.region ?? ''),
    qualifierName: 'region',
  }),
};
