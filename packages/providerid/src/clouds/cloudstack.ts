import {
  type CloudProviderIDGrammar,
  chosenScheme,
  type FieldsResult,
  foldUUID,
  formatFields,
  malformed,
  readAfterScheme,
  readSegments,
} from '../kit.js';

const CLOUD = 'cloudstack';
/** Written by the Apache CloudStack cloud controller manager. */
const CCM_SCHEME = 'external-cloudstack';
/** Written by Cluster API Provider CloudStack (CAPC), with three slashes. */
const CAPC_SCHEME = 'cloudstack';
const SCHEMES = [CCM_SCHEME, CAPC_SCHEME];
const SLASHES: Record<string, string> = { [CCM_SCHEME]: '', [CAPC_SCHEME]: '/' };
const FIELDS = [{ name: 'instanceId', label: 'the VM ID' }];

const readInstance = (token: string, scheme: string) => readSegments(CLOUD, scheme, [token], FIELDS);

function readAfterSlashes(rest: string, scheme: string): FieldsResult {
  const lead = SLASHES[scheme]!;
  if (!rest.startsWith(lead) || rest.charAt(lead.length) === '/') {
    return malformed(CLOUD, `expected ${scheme}://${lead}<vm-id>`);
  }
  return readInstance(rest.slice(lead.length), scheme);
}

/**
 * Apache CloudStack: `external-cloudstack://<vm-id>` (cloud controller manager) and
 * `cloudstack:///<vm-id>` (CAPC). A bare VM ID parses when the cloud is named (the CCM
 * keeps reading it for backward compatibility). Identity: the VM ID (UUIDs
 * case-insensitively), so both schemes match.
 */
export const cloudstackProviderID: CloudProviderIDGrammar = {
  cloud: CLOUD,
  title: 'Apache CloudStack',
  schemes: SCHEMES,
  parse: (id, named) =>
    id.scheme === '' && named
      ? readInstance(id.rest, '')
      : readAfterScheme(CLOUD, id, SCHEMES, readAfterSlashes),
  format: (fields) =>
    formatFields(CLOUD, fields, ['instanceId'], ({ instanceId }) => {
      const scheme = chosenScheme(fields, SCHEMES);
      return `${scheme}://${SLASHES[scheme]}${instanceId}`;
    }),
  identity: (fields) => ({ space: CLOUD, parts: [foldUUID(String(fields.instanceId))] }),
};

/**
 * Exactly what the CloudStack CCM writes for an instance ID, without validation (an empty
 * ID gives `external-cloudstack://`, which no parser accepts). For predicting node IDs.
 */
export function cloudstackCCMProviderID(instanceId: string): string {
  return `${CCM_SCHEME}://${instanceId}`;
}
