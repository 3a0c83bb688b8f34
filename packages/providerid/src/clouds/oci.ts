import { right } from 'fp-ts/lib/Either.js';
import {
  type CloudProviderIDGrammar,
  type FieldsResult,
  formatFields,
  invalidField,
  isToken,
  readAfterScheme,
  tokenFault,
} from '../kit.js';

const CLOUD = 'oci';
const OCID_PREFIX = 'ocid1.';

function readOCID(rest: string, scheme: string): FieldsResult {
  const fault = tokenFault(rest);
  if (fault !== undefined) return invalidField(CLOUD, 'ocid', `the OCID ${fault}`);
  return right({ scheme, ocid: rest });
}

/**
 * Oracle Cloud Infrastructure: `oci://<ocid>` (oci-ccm, CAPOCI self-managed) or the bare
 * OCID (OKE, CAPOCI managed), claimed by its `ocid1.` prefix. Identity: the OCID, so both
 * spellings match.
 */
export const ociProviderID: CloudProviderIDGrammar = {
  cloud: CLOUD,
  title: 'Oracle Cloud Infrastructure (incl. bare OCID)',
  schemes: ['oci'],
  claimsBare: (input) => input.startsWith(OCID_PREFIX) && isToken(input),
  parse(id, named) {
    if (id.scheme === '' && (named || id.rest.startsWith(OCID_PREFIX))) {
      if (!id.rest.startsWith('ocid1') || !isToken(id.rest)) {
        return invalidField(CLOUD, 'ocid', `a bare OCI ID must be an OCID (ocid1.…), got '${id.rest}'`);
      }
      return right({ scheme: '', ocid: id.rest });
    }
    return readAfterScheme(CLOUD, id, ['oci'], readOCID);
  },
  format: (fields) =>
    formatFields(CLOUD, fields, ['ocid'], ({ ocid }) => (fields.scheme === '' ? ocid : `oci://${ocid}`)),
  identity: (fields) => ({ space: CLOUD, parts: [String(fields.ocid)] }),
};
