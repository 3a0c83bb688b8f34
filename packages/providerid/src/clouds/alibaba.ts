import {
  type CloudProviderIDGrammar,
  type FieldsResult,
  formatFields,
  malformed,
  readAfterScheme,
  readField,
  readSegments,
} from '../kit.js';

const CLOUD = 'alibaba';
const SCHEME = 'alicloud';
// Scheme-less `<region>.<instance>` with a region of an Alibaba area (cn-, ap-, us-, eu-,
// me-, na-, sa-, af-), so host names like `ip-10-0-0-1.ec2.internal` are not claimed.
const BARE_SHAPE = /^(?:cn|ap|us|eu|me|na|sa|af)-[a-z0-9-]+\.[A-Za-z0-9_-]+$/;

const FIELDS = [
  { name: 'region', label: 'the region' },
  { name: 'instanceId', label: 'the instance ID' },
  { name: 'suffix', label: 'the text after the instance ID' },
];

// The cloud controller splits on '.' and reads parts 0 and 1, ignoring any further parts;
// those are kept as `suffix` so the ID can be written back as it was.
function readRegionDotInstance(text: string, scheme: string): FieldsResult {
  const dot = text.indexOf('.');
  if (dot < 0) return malformed(CLOUD, 'expected <region>.<instance-id>');
  const next = text.indexOf('.', dot + 1);
  const parts = [text.slice(0, dot)];
  if (next < 0) parts.push(text.slice(dot + 1));
  else parts.push(text.slice(dot + 1, next), text.slice(next + 1));
  return readSegments(CLOUD, scheme, parts, FIELDS.slice(0, parts.length));
}

/**
 * Alibaba Cloud: the cloud controller writes `<region>.<instance-id>` with no scheme;
 * `alicloud://<region>.<instance-id>` is also read. A bare string is claimed when its
 * region looks like an Alibaba region. Further '.'-parts are ignored, as the cloud
 * controller ignores them (kept as `suffix`). Identity: (region, instance ID).
 */
export const alibabaProviderID: CloudProviderIDGrammar = {
  cloud: CLOUD,
  title: 'Alibaba Cloud',
  schemes: [SCHEME],
  claimsBare: (input) => BARE_SHAPE.test(input),
  parse: (id, named) =>
    readAfterScheme(CLOUD, id, [SCHEME], readRegionDotInstance, named || BARE_SHAPE.test(id.rest)),
  format: (fields) =>
    formatFields(CLOUD, fields, ['region', 'instanceId'], ({ region, instanceId }) => {
      const suffix = readField(fields, 'suffix');
      const tail = suffix === undefined ? '' : `.${suffix}`;
      return `${fields.scheme === SCHEME ? `${SCHEME}://` : ''}${region}.${instanceId}${tail}`;
    }),
  identity: (fields) => ({ space: CLOUD, parts: [String(fields.region), String(fields.instanceId)] }),
};
