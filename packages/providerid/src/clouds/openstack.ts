import { left, right } from 'fp-ts/lib/Either.js';
import {
  type CloudProviderIDGrammar,
  checkScheme,
  type FieldsResult,
  foldUUID,
  formatted,
  invalidField,
  isToken,
  malformed,
  missingField,
  readField,
} from '../kit.js';

const CLOUD = 'openstack';

// `<region>/<server-id>`: the region may be empty, the server ID may not.
function readRegionAndServer(rest: string, scheme: string): FieldsResult {
  const slash = rest.indexOf('/');
  if (slash < 0 || rest.indexOf('/', slash + 1) >= 0) {
    return malformed(CLOUD, 'expected openstack:///<server-id> or openstack://<region>/<server-id>');
  }
  const region = rest.slice(0, slash);
  const instanceId = rest.slice(slash + 1);
  if (region !== '' && !isToken(region)) return invalidField(CLOUD, 'region', 'the region contains spaces');
  if (!isToken(instanceId))
    return invalidField(CLOUD, 'instanceId', 'the server ID is empty or contains spaces');
  return right({ scheme, region, instanceId });
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
  parse(id, named) {
    if (id.scheme === '' && named) return readRegionAndServer(id.rest, '');
    const bad = checkScheme(CLOUD, id, ['openstack']);
    if (bad) return left(bad);
    return readRegionAndServer(id.rest, id.scheme);
  },
  format(fields) {
    const instanceId = readField(fields, 'instanceId');
    if (instanceId === undefined) return missingField(CLOUD, 'instanceId');
    return formatted(`openstack://${readField(fields, 'region') ?? ''}/${instanceId}`);
  },
  identity: (fields) => ({
    space: CLOUD,
    parts: [foldUUID(String(fields.instanceId))],
    qualifier: String(fields.region ?? ''),
    qualifierName: 'region',
  }),
};
