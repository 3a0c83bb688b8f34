import { type Either, left, right } from 'fp-ts/lib/Either.js';
import {
  type CloudProviderIDGrammar,
  chosenScheme,
  type FieldsResult,
  formatFields,
  invalidField,
  isUUID,
  type ProviderIDError,
  type ProviderIDFields,
  providerIDError,
  quoteInput,
  readAfterScheme,
} from '../kit.js';

const CLOUD = 'vsphere';
const SCHEME = 'vsphere';
/** Scheme of the paravirtual cloud provider before it adopted `vsphere://`. */
const PARAVIRTUAL_SCHEME = 'vsphere-paravirtual';
const SCHEMES = [SCHEME, PARAVIRTUAL_SCHEME];

function readUUID(uuid: string, scheme: string): FieldsResult {
  if (uuid === '') return invalidField(CLOUD, 'uuid', 'the VM UUID is empty');
  if (!isUUID(uuid))
    return invalidField(CLOUD, 'uuid', `${quoteInput(uuid)} is not a UUID (8-4-4-4-12 hex digits)`);
  const fields: ProviderIDFields =
    scheme === PARAVIRTUAL_SCHEME ? { scheme, uuid, paravirtual: true } : { scheme, uuid };
  return right(fields);
}

/**
 * vSphere (and vSphere with Tanzu / paravirtual): `vsphere://<bios-uuid>`, UUID in any
 * case (CAPV keeps the case it was given, the cloud provider lower-cases). The legacy
 * `vsphere-paravirtual://` scheme names the same VMs. A bare UUID is rejected, as CAPV
 * does. Identity: the BIOS UUID, case-insensitively.
 */
export const vsphereProviderID: CloudProviderIDGrammar = {
  cloud: CLOUD,
  title: 'VMware vSphere (incl. paravirtual)',
  schemes: SCHEMES,
  // CAPV requires the scheme; a bare UUID is not a providerID (see vsphereUUIDFromProviderID).
  parse: (id) => readAfterScheme(CLOUD, id, SCHEMES, readUUID),
  format: (fields) =>
    formatFields(
      CLOUD,
      fields,
      ['uuid'],
      ({ uuid }) => `${chosenScheme(fields, SCHEMES)}://${uuid.toLowerCase()}`,
    ),
  identity: (fields) => ({ space: CLOUD, parts: [String(fields.uuid).toLowerCase()] }),
  undecidable(a, b) {
    const ua = String(a.uuid).toLowerCase();
    if (swapVsphereUUIDByteOrder(String(b.uuid)) === ua) {
      return `the UUIDs are byte-swapped forms of each other (BIOS vs SMBIOS byte order): the same VM read two ways, or two VMs; the strings cannot tell`;
    }
    return undefined;
  },
};

/**
 * The UUID from a vSphere providerID as cloud-provider-vsphere reads it: without the
 * `vsphere://` prefix, trimmed and lower-cased. Fails on an empty result.
 */
export function vsphereUUIDFromProviderID(providerID: string): Either<ProviderIDError, string> {
  const uuid = (providerID.startsWith('vsphere://') ? providerID.slice('vsphere://'.length) : providerID)
    .trim()
    .toLowerCase();
  return uuid === ''
    ? left(providerIDError('malformed', 'the providerID holds no UUID', { cloud: CLOUD }))
    : right(uuid);
}

/**
 * Converts between the BIOS UUID byte order vSphere shows and the SMBIOS order the
 * kubelet reports as SystemUUID: the bytes of the first three groups are reversed, the
 * result lower-cased. Applying it twice gives the original. Strings shorter than a UUID
 * are returned unchanged (as the cloud provider does).
 */
export function swapVsphereUUIDByteOrder(uuid: string): string {
  if (uuid.length < 36) return uuid;
  const u = uuid.toLowerCase();
  const swap = (hex: string) => (hex.match(/../g) ?? []).reverse().join('');
  return `${swap(u.slice(0, 8))}-${swap(u.slice(9, 13))}-${swap(u.slice(14, 18))}${u.slice(18)}`;
}
