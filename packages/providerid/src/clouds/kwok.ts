import { left, right } from 'fp-ts/lib/Either.js';
import {
  type CloudProviderIDGrammar,
  checkScheme,
  formatFields,
  invalidField,
  tokenFaultMessage,
} from '../kit.js';

const CLOUD = 'kwok';

/**
 * KWOK fake nodes: `kwok://<node>` (KWOK docs, Karpenter) and `kwok:<node>` (the
 * cluster-autoscaler KWOK provider; reported with `shortForm: true`). Identity: the node
 * name, so both spellings match.
 */
export const kwokProviderID: CloudProviderIDGrammar = {
  cloud: CLOUD,
  title: 'KWOK',
  schemes: ['kwok'],
  parse(id) {
    const shortForm = id.scheme === 'kwok' && id.separator === ':';
    const bad = shortForm ? undefined : checkScheme(CLOUD, id, ['kwok']);
    if (bad) return left(bad);
    const fault = tokenFaultMessage('the node name', id.rest);
    if (fault !== undefined) return invalidField(CLOUD, 'nodeName', fault);
    if (shortForm) return right({ scheme: id.scheme, nodeName: id.rest, shortForm: true });
    return right({ scheme: id.scheme, nodeName: id.rest });
  },
  format: (fields) =>
    formatFields(CLOUD, fields, ['nodeName'], ({ nodeName }) =>
      fields.shortForm === true ? `kwok:${nodeName}` : `kwok://${nodeName}`,
    ),
  identity: (fields) => ({ space: CLOUD, parts: [String(fields.nodeName)] }),
};
