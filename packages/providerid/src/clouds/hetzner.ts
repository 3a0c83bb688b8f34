import { right } from 'fp-ts/lib/Either.js';
import {
  type CloudProviderIDGrammar,
  canonicalInteger,
  type FieldsResult,
  formatFields,
  invalidField,
  isInt64Text,
  type ProviderIDFields,
  quoteInput,
  readAfterScheme,
} from '../kit.js';

const CLOUD = 'hetzner';
// Syself's CAPH wrote robot (dedicated) servers as hcloud://bm-<number> before hrobot://.
const LEGACY_ROBOT_PREFIX = 'bm-';

function readServer(rest: string, scheme: string): FieldsResult {
  const legacy = scheme === 'hcloud' && rest.startsWith(LEGACY_ROBOT_PREFIX);
  const number = legacy ? rest.slice(LEGACY_ROBOT_PREFIX.length) : rest;
  if (!isInt64Text(number)) {
    return invalidField(
      CLOUD,
      'serverId',
      `the server ID must be a decimal int64 (got ${quoteInput(number)})`,
    );
  }
  if (scheme === 'hrobot') return right({ scheme, serverId: number, serverType: 'robot' });
  const fields: ProviderIDFields = legacy
    ? { scheme, serverId: number, serverType: 'robot', legacyRobotPrefix: true }
    : { scheme, serverId: number, serverType: 'cloud' };
  return right(fields);
}

/**
 * Hetzner: cloud servers `hcloud://<id>`; dedicated (Robot) servers `hrobot://<number>` or
 * the legacy `hcloud://bm-<number>`. Numbers are int64. Identity: (server type, number):
 * cloud IDs and robot numbers are separate namespaces, so `hcloud://7` and `hrobot://7`
 * are different machines while `hrobot://7` and `hcloud://bm-7` are the same.
 */
export const hetznerProviderID: CloudProviderIDGrammar = {
  cloud: CLOUD,
  title: 'Hetzner (Cloud and Robot)',
  schemes: ['hcloud', 'hrobot'],
  parse: (id) => readAfterScheme(CLOUD, id, ['hcloud', 'hrobot'], readServer),
  format: (fields) =>
    formatFields(CLOUD, fields, ['serverId'], ({ serverId }) => {
      if (fields.serverType !== 'robot') return `hcloud://${serverId}`;
      return fields.legacyRobotPrefix === true ? `hcloud://bm-${serverId}` : `hrobot://${serverId}`;
    }),
  identity: (fields) => ({
    space: CLOUD,
    parts: [String(fields.serverType), canonicalInteger(String(fields.serverId))],
  }),
};

/**
 * The providerID CAPH gives a bare-metal (Robot) server: `hcloud://bm-<n>` by default,
 * `hrobot://<n>` when the cluster opts in to the upstream form.
 */
export function hetznerBareMetalProviderID(
  serverNumber: number | string,
  options: { useHrobot?: boolean } = {},
) {
  return options.useHrobot ? `hrobot://${serverNumber}` : `hcloud://bm-${serverNumber}`;
}
