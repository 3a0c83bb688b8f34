import { right } from 'fp-ts/lib/Either.js';
import {
  type CloudProviderIDGrammar,
  type FieldsResult,
  formatFields,
  invalidField,
  malformed,
  quoteInput,
  readAfterScheme,
  readField,
} from '../kit.js';

const CLOUD = 'tencentcloud';

// cluster-autoscaler's Tencent Cloud rule: lower-case letters, digits and '-'.
const QCLOUD_TOKEN = /^[-0-9a-z]*$/;

function readZoneAndInstance(rest: string, scheme: string): FieldsResult {
  const s = rest.split('/');
  if (s.length !== 3 || s[0] !== '') return malformed(CLOUD, 'expected qcloud:///<zone>/<instance-id>');
  const zone = s[1]!;
  const instanceId = s[2]!;
  if (!QCLOUD_TOKEN.test(zone))
    return invalidField(CLOUD, 'zone', `the zone has characters outside [-0-9a-z] (got ${quoteInput(zone)})`);
  if (instanceId === '' || !QCLOUD_TOKEN.test(instanceId)) {
    const message = `the instance ID is empty or has characters outside [-0-9a-z] (got ${quoteInput(instanceId)})`;
    return invalidField(CLOUD, 'instanceId', message);
  }
  return right({ scheme, zone, instanceId });
}

/**
 * Tencent Cloud: `qcloud:///<zone>/<instance-id>`. Identity: the instance ID, qualified
 * by the zone.
 */
export const tencentCloudProviderID: CloudProviderIDGrammar = {
  cloud: CLOUD,
  title: 'Tencent Cloud',
  schemes: ['qcloud'],
  parse: (id) => readAfterScheme(CLOUD, id, ['qcloud'], readZoneAndInstance),
  format: (fields) =>
    formatFields(
      CLOUD,
      fields,
      ['instanceId'],
      ({ instanceId }) => `qcloud:///${readField(fields, 'zone') ?? ''}/${instanceId}`,
    ),
  identity: (fields) => ({
    space: CLOUD,
    parts: [String(fields.instanceId)],
    qualifier: String(fields.zone ?? ''),
    qualifierName: 'zone',
  }),
};
