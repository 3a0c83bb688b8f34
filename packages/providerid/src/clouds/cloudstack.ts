import { left, right } from 'fp-ts/lib/Either.js';
import {
  type CloudProviderIDGrammar,
  checkScheme,
  chosenScheme,
  type FieldsResult,
  foldUUID,
  formatted,
  invalidField,
  isToken,
  malformed,
  missingField,
  readField,
} from '../kit.js';

const CLOUD = 'cloudstack';
/** Written by the Apache CloudStack cloud controller manager. */
const CCM_SCHEME = 'external-cloudstack';
/** Written by Cluster API Provider CloudStack (CAPC), with three slashes. */
const CAPC_SCHEME = 'cloudstack';
const SLASHES: Record<string, string> = { [CCM_SCHEME]: '', [CAPC_SCHEME]: '/' };

function readInstance(token: string, scheme: string): FieldsResult {
  if (!isToken(token))
    return invalidField(CLOUD, 'instanceId', 'the VM ID is empty or contains "/" or spaces');
  return right({ scheme, instanceId: token });
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
  schemes: [CCM_SCHEME, CAPC_SCHEME],
  parse(id, named) {
    if (id.scheme === '' && named) return readInstance(id.rest, '');
    const bad = checkScheme(CLOUD, id, [CCM_SCHEME, CAPC_SCHEME]);
    if (bad) return left(bad);
    const lead = SLASHES[id.scheme]!;
    if (!id.rest.startsWith(lead) || id.rest.charAt(lead.length) === '/') {
      return malformed(CLOUD, `expected ${id.scheme}://${lead}<vm-id>`);
    }
    return readInstance(id.rest.slice(lead.length), id.scheme);
  },
  format(fields) {
    const instanceId = readField(fields, 'instanceId');
    if (instanceId === undefined) return missingField(CLOUD, 'instanceId');
    const scheme = chosenScheme(fields, [CCM_SCHEME, CAPC_SCHEME]);
    return formatted(`${scheme}://${SLASHES[scheme]}${instanceId}`);
  },
  identity: (fields) => ({ space: CLOUD, parts: [foldUUID(String(fields.instanceId))] }),
};

/**
 * Exactly what the CloudStack CCM writes for an instance ID, without validation (an empty
 * ID gives `external-cloudstack://`, which no parser accepts). For predicting node IDs.
 */
export function cloudstackCCMProviderID(instanceId: string): string {
  return `${CCM_SCHEME}://${instanceId}`;
}
