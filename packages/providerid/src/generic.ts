import { left, right } from 'fp-ts/lib/Either.js';
import { structuralIdentity } from './identity.js';
import { type CloudProviderIDGrammar, providerIDError } from './types.js';

/** The cloud name of Cluster API's generic grammar (applied when a caller names it). */
export const GENERIC_CLOUD = 'generic';

/**
 * Cluster API's own providerID grammar (noderefutil, v0.3 to v1.5): `<scheme>://<...>`
 * not ending in '/', with the ID being the text after the last '/'. Callers apply it by
 * naming the cloud "generic"; it also tells, in the error for an unknown scheme, whether
 * Cluster API would accept the ID. Identity is structural: scheme plus non-empty segments,
 * as nothing more can be known about a cloud without a grammar.
 */
export const genericProviderIDGrammar: CloudProviderIDGrammar = {
  cloud: GENERIC_CLOUD,
  title: 'Any other cloud (Cluster API generic grammar)',
  schemes: [],
  parse(id) {
    // Read from the raw input, as the regex ^[^:]+://.*[^/]$ does: any text before the
    // first ':' is the scheme, even text that is not a URI scheme.
    const cloud = GENERIC_CLOUD;
    const colon = id.input.indexOf(':');
    if (colon <= 0) return left(providerIDError('no-scheme', 'expected <scheme>://<id>', { cloud }));
    const scheme = id.input.slice(0, colon);
    if (!id.input.startsWith('//', colon + 1)) {
      return left(providerIDError('malformed', `expected '${scheme}://' after the scheme`, { cloud }));
    }
    const rest = id.input.slice(colon + 3);
    if (rest === '' || rest.endsWith('/')) {
      return left(providerIDError('malformed', 'the ID after the last "/" is empty', { cloud }));
    }
    // `path` keeps everything after "://" so identity and format see the whole ID.
    return right({ scheme, id: rest.slice(rest.lastIndexOf('/') + 1), path: rest });
  },
  format(fields) {
    const scheme = fields.scheme;
    const path = typeof fields.path === 'string' ? fields.path : fields.id;
    if (typeof scheme !== 'string' || scheme === '' || typeof path !== 'string') {
      return left(
        providerIDError('invalid-field', 'scheme and id (or path) are required', { cloud: GENERIC_CLOUD }),
      );
    }
    return right(`${scheme}://${path}`);
  },
  identity: (fields) => structuralIdentity(`${fields.scheme}://${fields.path ?? fields.id}`),
};
