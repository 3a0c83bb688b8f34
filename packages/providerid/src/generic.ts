import { left, right } from 'fp-ts/lib/Either.js';
import { charFaultDetail, charKind, kindName, quoteInput, textCharFaultAt } from './characters.js';
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
 *
 * Stricter than Cluster API's regex in one way: no character of the ID may be a C0 or C1
 * control, DEL, white space other than U+0020, a format or other invisible character, or
 * an unpaired surrogate (what every cloud grammar refuses; see characters.ts). "." and
 * ".." segments stay allowed: they are compared as the text they are, never resolved (see
 * docs/providerid.md).
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
    const bad = textCharFaultAt(id.input);
    if (bad >= 0) {
      // The scheme is the text before the first ':', the path what follows "://" (or ':').
      const field = bad < colon ? 'scheme' : 'path';
      const what = kindName(charKind(id.input, bad));
      const message = `the ${field} contains ${what}: ${charFaultDetail(id.input, bad)}`;
      return left(providerIDError('invalid-field', message, { cloud, field }));
    }
    const scheme = id.input.slice(0, colon);
    if (!id.input.startsWith('//', colon + 1)) {
      return left(
        providerIDError('malformed', `expected ${quoteInput(`${scheme}://`)} after the scheme`, { cloud }),
      );
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
