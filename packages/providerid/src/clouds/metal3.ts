import {
  type CloudProviderIDGrammar,
  formatFields,
  formatSegments,
  readAfterScheme,
  readField,
  readLayouts,
} from '../kit.js';

const CLOUD = 'metal3';
const CURRENT = [{ name: 'namespace' }, { name: 'bmhName' }, { name: 'metal3MachineName' }];
const LAYOUTS = [
  { fields: CURRENT },
  { fields: [{ name: 'bmhUid', label: 'the BareMetalHost UID' }], implied: { legacy: true } },
];
const EXPECTED = 'metal3://<namespace>/<bmh>/<metal3machine> or legacy metal3://<bmh-uid>';
const readHost = (rest: string, scheme: string) => readLayouts(CLOUD, scheme, rest, LAYOUTS, EXPECTED);

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
  parse: (id) => readAfterScheme(CLOUD, id, ['metal3'], readHost),
  format(fields) {
    const legacy =
      fields.legacy === true ||
      (readField(fields, 'bmhUid') !== undefined && readField(fields, 'namespace') === undefined);
    if (legacy) return formatFields(CLOUD, fields, ['bmhUid'], ({ bmhUid }) => `metal3://${bmhUid}`);
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
