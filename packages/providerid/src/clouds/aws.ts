import { right } from 'fp-ts/lib/Either.js';
import {
  type CloudProviderIDGrammar,
  type FieldsResult,
  formatFields,
  invalidField,
  type ProviderIDFields,
  quoteInput,
  readAfterScheme,
  readField,
  tokenFaultMessage,
} from '../kit.js';

const CLOUD = 'aws';

// EC2 instance IDs: "i-" then 8 or 17 lower-case hex digits (the only shapes AWS issues).
const EC2_INSTANCE_ID = /^i-(?:[0-9a-f]{8}|[0-9a-f]{17})$/;
const FARGATE_PREFIX = 'fargate-';

/**
 * Splits the part after `aws://` the way cloud-provider-aws does (MapToAWSInstanceID): the
 * last path token is the instance; the zone is the URL host (`aws://zone/i-…`) or the
 * first of two or more path tokens (`aws:///zone/i-…`); tokens between zone and instance
 * are `middle` (Fargate IDs carry an opaque token there).
 */
function splitAwsPath(host: string, path: string): { zone: string; middle: string[]; instanceId: string } {
  let start = 0;
  let end = path.length;
  while (start < end && path.charCodeAt(start) === 0x2f) start++;
  while (end > start && path.charCodeAt(end - 1) === 0x2f) end--;
  const tokens = path.slice(start, end).split('/');
  const instanceId = tokens[tokens.length - 1] ?? '';
  if (host === '' && tokens.length >= 2) return { zone: tokens[0]!, middle: tokens.slice(1, -1), instanceId };
  return { zone: host, middle: tokens.slice(0, -1), instanceId };
}

function splitHost(rest: string): [host: string, path: string] {
  const slash = rest.indexOf('/');
  return slash < 0 ? [rest, ''] : [rest.slice(0, slash), rest.slice(slash)];
}

/**
 * The error for a zone, middle token or instance ID that cannot be a field (white space, a
 * control character, "." or ".."; see tokenFault), if it cannot. The zone and middle
 * tokens may be empty.
 */
function badToken(field: string, token: string): FieldsResult | undefined {
  const fault = token === '' ? undefined : tokenFaultMessage(`the ${field}`, token);
  return fault === undefined ? undefined : invalidField(CLOUD, field, fault);
}

/**
 * Reads the fields: the instance must start with "i-" (EC2) or "fargate-" (EKS Fargate,
 * where the token is the node name); `middle` is left out when there is none.
 */
function readPath(host: string, path: string, scheme: string): FieldsResult {
  const { zone, middle, instanceId } = splitAwsPath(host, path);
  if (instanceId === '')
    return invalidField(CLOUD, 'instanceId', 'the instance ID (last path token) is empty');
  const fargate = instanceId.startsWith(FARGATE_PREFIX) && instanceId.length > FARGATE_PREFIX.length;
  if (!fargate && !instanceId.startsWith('i-')) {
    return invalidField(
      CLOUD,
      'instanceId',
      `${quoteInput(instanceId)} is not an EC2 instance ID (i-…) or a Fargate node name (fargate-…)`,
    );
  }
  const badZone = badToken('zone', zone);
  if (badZone) return badZone;
  for (const token of middle) {
    const badMiddle = badToken('middle', token);
    if (badMiddle) return badMiddle;
  }
  const badInstance = badToken('instanceId', instanceId);
  if (badInstance) return badInstance;
  const fields: ProviderIDFields = { scheme, zone, instanceId, kind: fargate ? 'fargate' : 'ec2' };
  return right(middle.length > 0 ? { ...fields, middle: middle.join('/') } : fields);
}

// A bare ID (scheme '') is all path: the AWS cloud provider reads it as `aws:////<id>`.
const readHostAndPath = (rest: string, scheme: string) =>
  scheme === '' ? readPath('', rest, '') : readPath(...splitHost(rest), scheme);

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
  parse: (id, named) =>
    readAfterScheme(CLOUD, id, ['aws'], readHostAndPath, named || EC2_INSTANCE_ID.test(id.rest)),
  format: (fields) =>
    formatFields(CLOUD, fields, ['instanceId'], ({ instanceId }) => {
      const zone = readField(fields, 'zone') ?? '';
      const middle = readField(fields, 'middle') ?? '';
      return `aws:///${zone}/${middle === '' ? '' : `${middle}/`}${instanceId}`;
    }),
  // AWS-shaped IDs whose instance is not `i-…` (Outscale placeholders, test fixtures) still
  // name their instance by the last token, with the zone as qualifier: `aws:///t-1` then
  // matches `aws://us-west-2/t-1` as Cluster API <= v1.2 did.
  looseIdentity(id) {
    if (id.scheme !== 'aws' || id.separator !== '://') return undefined;
    const { zone, instanceId } = splitAwsPath(...splitHost(id.rest));
    if (instanceId === '') return undefined;
    return { space: '~aws', parts: [instanceId], qualifier: zone, qualifierName: 'zone' };
  },
  identity: (fields) => ({
    space: CLOUD,
    parts: [String(fields.instanceId)],
    qualifier: String(fields.zone ?? ''),
    qualifierName: 'zone',
  }),
};
