import { right } from 'fp-ts/lib/Either.js';
import {
  type CloudProviderIDGrammar,
  type FieldsResult,
  formatFields,
  invalidField,
  isToken,
  quoteInput,
  readAfterScheme,
  tokenFaultMessage,
} from '../kit.js';

const CLOUD = 'oci';
const OCID_PREFIX = 'ocid1.';

function readOCID(rest: string, scheme: string): FieldsResult {
  const fault = tokenFaultMessage('the OCID', rest);
  if (fault !== undefined) return invalidField(CLOUD, 'ocid', fault);
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
      if (!id.rest.startsWith('ocid1')) {
        return invalidField(
          CLOUD,
          'ocid',
          `a bare OCI ID must be an OCID (ocid1.…), got ${quoteInput(id.rest)}`,
        );
      }
      const fault = tokenFaultMessage('the OCID', id.rest);
      if (fault !== undefined) return invalidField(CLOUD, 'ocid', fault);
      return right({ scheme: '', ocid: id.rest });
    }
    return readAfterScheme(CLOUD, id, ['oci'], readOCID);
  },
  format: (fields) =>
    formatFields(CLOUD, fields, ['ocid'], ({ ocid }) => (fields.scheme === '' ? ocid : `oci://${ocid}`)),
  identity: (fields) => ({ space: CLOUD, parts: [String(fields.ocid)] }),
};
