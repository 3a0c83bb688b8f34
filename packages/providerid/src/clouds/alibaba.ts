import { left, right } from 'fp-ts/lib/Either.js';
import {
  type CloudProviderIDGrammar,
  checkScheme,
  type FieldsResult,
  formatted,
  invalidField,
  isToken,
  malformed,
  missingField,
  readField,
} from '../kit.js';

const CLOUD = 'alibaba';
const SCHEME = 'alicloud';
// Scheme-less `<region>.<instance>` with a region of an Alibaba area (cn-, ap-, us-, eu-,
// me-, na-, sa-, af-), so host names like `ip-10-0-0-1.ec2.internal` are not claimed.
const BARE_SHAPE = /^(?:cn|ap|us|eu|me|na|sa|af)-[a-z0-9-]+\.[A-Za-z0-9_-]+$/;

// The cloud controller splits on '.' and reads parts 0 and 1, ignoring any further parts;
// those are kept as `suffix` so the ID can be written back as it was.
function readRegionDotInstance(text: string, scheme: string): FieldsResult {
  const dot = text.indexOf('.');
  if (dot < 0) return malformed(CLOUD, 'expected <region>.<instance-id>');
  const next = text.indexOf('.', dot + 1);
  const region = text.slice(0, dot);
  const instanceId = next < 0 ? text.slice(dot + 1) : text.slice(dot + 1, next);
  if (!isToken(region)) return invalidField(CLOUD, 'region', 'the region is empty or contains spaces');
  if (!isToken(instanceId))
    return invalidField(CLOUD, 'instanceId', 'the instance ID is empty or contains spaces');
  if (next < 0) return right({ scheme, region, instanceId });
  const suffix = text.slice(next + 1);
  if (!isToken(suffix))
    return invalidField(CLOUD, 'suffix', 'the text after the instance ID is empty or contains spaces');
  return right({ scheme, region, instanceId, suffix });
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
  parse(id, named) {
    if (id.scheme === '' && (named || BARE_SHAPE.test(id.rest))) return readRegionDotInstance(id.rest, '');
    const bad = checkScheme(CLOUD, id, [SCHEME]);
    if (bad) return left(bad);
    return readRegionDotInstance(id.rest, id.scheme);
  },
  format(fields) {
    const region = readField(fields, 'region');
    const instanceId = readField(fields, 'instanceId');
    if (region === undefined) return missingField(CLOUD, 'region');
    if (instanceId === undefined) return missingField(CLOUD, 'instanceId');
    const suffix = readField(fields, 'suffix');
    const tail = suffix === undefined ? '' : `.${suffix}`;
    return formatted(`${fields.scheme === SCHEME ? `${SCHEME}://` : ''}${region}.${instanceId}${tail}`);
  },
  identity: (fields) => ({ space: CLOUD, parts: [String(fields.region), String(fields.instanceId)] }),
};
