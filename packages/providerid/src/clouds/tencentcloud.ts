import { left, right } from 'fp-ts/lib/Either.js';
import {
  type CloudProviderIDGrammar,
  checkScheme,
  formatted,
  invalidField,
  malformed,
  missingField,
  readField,
} from '../kit.js';

// cluster-autoscaler's Tencent Cloud rule: lower-case letters, digits and '-'.
const QCLOUD_TOKEN = /^[-0-9a-z]*$/;

/**
 * Tencent Cloud: `qcloud:///<zone>/<instance-id>`. Identity: the instance ID, qualified
 * by the zone.
 */
export const tencentCloudProviderID: CloudProviderIDGrammar = {
  cloud: 'tencentcloud',
  title: 'Tencent Cloud',
  schemes: ['qcloud'],
  parse(id) {
    const bad = checkScheme('tencentcloud', id, ['qcloud']);
    if (bad) return left(bad);
    const s = id.rest.split('/');
    if (s.length !== 3 || s[0] !== '')
      return malformed('tencentcloud', 'expected qcloud:///<zone>/<instance-id>');
    const zone = s[1]!;
    const instanceId = s[2]!;
    if (!QCLOUD_TOKEN.test(zone))
      return invalidField('tencentcloud', 'zone', 'the zone has characters outside [-0-9a-z]');
    if (instanceId === '' || !QCLOUD_TOKEN.test(instanceId)) {
      return invalidField(
        'tencentcloud',
        'instanceId',
        'the instance ID is empty or has characters outside [-0-9a-z]',
      );
    }
    return right({ scheme: id.scheme, zone, instanceId });
  },
  format(fields) {
    const instanceId = readField(fields, 'instanceId');
    if (instanceId === undefined) return missingField('tencentcloud', 'instanceId');
    return formatted(`qcloud:///${readField(fields, 'zone') ?? ''}/${instanceId}`);
  },
  identity: (fields) => ({
    space: 'tencentcloud',
    parts: [String(fields.instanceId)],
    qualifier: String(fields.zone ?? ''),
    qualifierName: 'zone',
  }),
};
