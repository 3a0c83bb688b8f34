import { left, right } from 'fp-ts/lib/Either.js';
import {
  type CloudProviderIDGrammar,
  checkScheme,
  formatSegments,
  formatted,
  invalidField,
  isToken,
  malformed,
  missingField,
  readField,
  readSegments,
} from '../kit.js';

const CLOUD = 'metal3';
const CURRENT = [{ name: 'namespace' }, { name: 'bmhName' }, { name: 'metal3MachineName' }];

/**
 * Metal3: `metal3://<namespace>/<baremetalhost>/<metal3machine>`, and the legacy
 * `metal3://<baremetalhost-uid>` (`legacy: true`). Identity: all three names, or the UID.
 * Compared whole: `metal3://worker-1` never matches `metal3://worker-10`. A legacy and a
 * current ID may or may not be the same host; the strings cannot say, so the verdict is
 * "unknown".
 */
export const metal3ProviderID: CloudProviderIDGrammar = {
  cloud: CLOUD,
  title: 'Metal3 (bare metal)',
  schemes: ['metal3'],
  parse(id) {
    const bad = checkScheme(CLOUD, id, ['metal3']);
    if (bad) return left(bad);
    const segments = id.rest.split('/');
    if (segments.length === 1) {
      if (!isToken(segments[0]!)) return invalidField(CLOUD, 'bmhUid', 'the BareMetalHost UID is empty');
      return right({ scheme: id.scheme, bmhUid: segments[0]!, legacy: true });
    }
    if (segments.length !== 3) {
      return malformed(
        CLOUD,
        'expected metal3://<namespace>/<bmh>/<metal3machine> or legacy metal3://<bmh-uid>',
      );
    }
    return readSegments(CLOUD, id.scheme, segments, CURRENT);
  },
  format(fields) {
    const uid = readField(fields, 'bmhUid');
    if (fields.legacy === true || (uid !== undefined && readField(fields, 'namespace') === undefined)) {
      return uid === undefined ? missingField(CLOUD, 'bmhUid') : formatted(`metal3://${uid}`);
    }
    return formatSegments(CLOUD, 'metal3://', fields, CURRENT);
  },
  identity: (fields) =>
    fields.legacy === true
      ? { space: CLOUD, parts: ['uid', String(fields.bmhUid)] }
      : { space: CLOUD, parts: CURRENT.map(({ name }) => String(fields[name])) },
  undecidable(a, b) {
    if ((a.legacy === true) !== (b.legacy === true)) {
      return 'one ID is the legacy metal3://<bmh-uid> form and the other metal3://<ns>/<bmh>/<machine>: the strings cannot tell whether the host is the same';
    }
    return undefined;
  },
};
