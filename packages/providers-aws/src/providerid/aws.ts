import {
  type CloudProviderIDGrammar,
  checkScheme,
  type FieldsResult,
  formatted,
  invalidField,
  missingField,
  type ProviderIDFields,
  readField,
} from '@capi-kit/core/providerid';
import { left, right } from 'fp-ts/lib/Either.js';

const CLOUD = 'aws';

// EC2 instance IDs: "i-" then 8 or 17 lower-case hex digits (the only shapes AWS issues).
const EC2_INSTANCE_ID = /^i-(?:[0-9a-f]{8}|[0-9a-f]{17})$/;
const FARGATE_PREFIX = 'fargate-';

/**
 * Reads the instance token the way cloud-provider-aws does (MapToAWSInstanceID): the last
 * path token is the instance; it must start with "i-" (EC2) or "fargate-" (EKS Fargate,
 * where the token is the node name). The zone is the URL host (`aws://zone/i-…`) or the
 * first of two or more path tokens (`aws:///zone/i-…`); anything between zone and
 * instance is kept as `middle` (Fargate IDs carry an opaque token there; absent when none).
 */
function readPath(host: string, path: string, scheme: string): FieldsResult {
  let start = 0;
  let end = path.length;
  while (start < end && path.charCodeAt(start) === 0x2f) start++;
  while (end > start && path.charCodeAt(end - 1) === 0x2f) end--;
  const tokens = path.slice(start, end).split('/');
  const instanceId = tokens[tokens.length - 1] ?? '';
  let zone = host;
  let middle = tokens.slice(0, -1);
  if (host === '' && tokens.length >= 2) {
    zone = tokens[0]!;
    middle = tokens.slice(1, -1);
  }
  if (instanceId === '')
    return invalidField(CLOUD, 'instanceId', 'the instance ID (last path token) is empty');
  const fargate = instanceId.startsWith(FARGATE_PREFIX) && instanceId.length > FARGATE_PREFIX.length;
  if (!fargate && !instanceId.startsWith('i-')) {
    return invalidField(
      CLOUD,
      'instanceId',
      `'${instanceId}' is not an EC2 instance ID (i-…) or a Fargate node name (fargate-…)`,
    );
  }
  for (const token of [zone, ...middle, instanceId]) {
    for (let i = 0; i < token.length; i++) {
      if (token.charCodeAt(i) <= 0x20) return invalidField(CLOUD, 'instanceId', 'white space inside the ID');
    }
  }
  const fields: ProviderIDFields = { scheme, zone, instanceId, kind: fargate ? 'fargate' : 'ec2' };
  return right(middle.length > 0 ? { ...fields, middle: middle.join('/') } : fields);
}

/**
 * AWS EC2 and EKS Fargate: `aws:///<zone>/<instance-id>`, `aws:////<instance-id>`,
 * `aws://<zone>/<instance-id>`, Fargate `aws:///<zone>/<token>/fargate-<node>`. A bare
 * `i-…` is claimed when it has EC2's exact shape, and accepted in any `i-…` form when the
 * cloud is named (as the AWS cloud provider prefixes bare IDs with `aws:////`).
 * Identity: the instance ID, qualified by the zone (an ID without zone matches any zone).
 */
export const awsProviderID: CloudProviderIDGrammar = {
  cloud: CLOUD,
  title: 'AWS EC2 / EKS Fargate',
  schemes: ['aws'],
  claimsBare: (input) => EC2_INSTANCE_ID.test(input),
  parse(id, named) {
    if (id.scheme === '' && (named || EC2_INSTANCE_ID.test(id.rest))) return readPath('', id.rest, '');
    const bad = checkScheme(CLOUD, id, ['aws']);
    if (bad) return left(bad);
    const slash = id.rest.indexOf('/');
    const host = slash < 0 ? id.rest : id.rest.slice(0, slash);
    return readPath(host, slash < 0 ? '' : id.rest.slice(slash), id.scheme);
  },
  format(fields) {
    const instanceId = readField(fields, 'instanceId');
    if (instanceId === undefined) return missingField(CLOUD, 'instanceId');
    const zone = readField(fields, 'zone') ?? '';
    const middle = readField(fields, 'middle') ?? '';
    return formatted(`aws:///${zone}/${middle === '' ? '' : `${middle}/`}${instanceId}`);
  },
  identity: (fields) => ({
    space: CLOUD,
    parts: [String(fields.instanceId)],
    qualifier: String(fields.zone ?? ''),
    qualifierName: 'zone',
  }),
};
