import { left, right } from 'fp-ts/lib/Either.js';
import {
  type CloudProviderIDGrammar,
  checkScheme,
  formatted,
  invalidField,
  isToken,
  singleTokenGrammar,
  tokenRules,
} from '../src/kit.js';

/** A one-token cloud with a legacy scheme, integer IDs and bare IDs when named. */
export const numbered = singleTokenGrammar({
  cloud: 'numbered',
  title: 'Numbered test cloud',
  schemes: ['num', 'oldnum'],
  field: 'serverId',
  rule: tokenRules.int64,
  bareWhenNamed: true,
});

/** `regional://<region>/<id>` where the region may be empty: a qualified identity. */
export const regional: CloudProviderIDGrammar = {
  cloud: 'regional',
  title: 'Regional test cloud',
  schemes: ['regional'],
  claimsBare: (input) => input.startsWith('reg-'),
  parse(id) {
    if (id.scheme === '') return right({ scheme: '', region: '', instanceId: id.rest });
    const bad = checkScheme('regional', id, ['regional']);
    if (bad) return left(bad);
    const [region = '', instanceId = '', ...extra] = id.rest.split('/');
    if (extra.length > 0 || !isToken(instanceId))
      return invalidField('regional', 'instanceId', 'bad instance');
    return right({ scheme: id.scheme, region, instanceId });
  },
  format: (f) => formatted(`regional://${f.region ?? ''}/${String(f.instanceId)}`),
  identity: (f) => ({
    space: 'regional',
    parts: [String(f.instanceId)],
    qualifier: String(f.region),
    qualifierName: 'region',
  }),
};
