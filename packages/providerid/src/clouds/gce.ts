import { type Either, left, right } from 'fp-ts/lib/Either.js';
import {
  type CloudProviderIDGrammar,
  type ProviderIDError,
  positionalGrammar,
  providerIDError,
  quoteInput,
} from '../kit.js';

const CLOUD = 'gce';

/**
 * Google Compute Engine: `gce://<project>/<zone>/<instance-name>`, exactly three non-empty
 * segments (projects may contain '.' and ':'). Identity: all three, compared exactly:
 * instance names are unique only within a project and zone, so same-name instances in
 * different zones or projects are different machines.
 */
export const gceProviderID: CloudProviderIDGrammar = positionalGrammar({
  cloud: CLOUD,
  title: 'Google Compute Engine',
  scheme: 'gce',
  fields: [{ name: 'project' }, { name: 'zone' }, { name: 'instanceName' }],
  expected: 'gce://<project>/<zone>/<instance-name>',
});

// https://www.googleapis.com/compute/v1/projects/<p>/zones/<z>/instances/<n>
const RESOURCE_URL_KEYWORDS = ['projects', 'zones', 'instances'] as const;

/**
 * The providerID of a Compute Engine instance from its self-link URL
 * (`…/projects/<p>/zones/<z>/instances/<n>`), as CAPG builds it.
 */
export function gceProviderIDFromResourceURL(resourceURL: string): Either<ProviderIDError, string> {
  let path: string;
  try {
    path = new URL(resourceURL).pathname;
  } catch {
    return left(providerIDError('malformed', `${quoteInput(resourceURL)} is not a URL`, { cloud: CLOUD }));
  }
  const segments = path.split('/').filter((s) => s !== '');
  const at = segments.indexOf('projects');
  const tail = at < 0 ? [] : segments.slice(at);
  if (tail.length !== 6 || RESOURCE_URL_KEYWORDS.some((k, i) => tail[i * 2] !== k)) {
    const expected = '…/projects/<project>/zones/<zone>/instances/<name>';
    return left(
      providerIDError('malformed', `${quoteInput(resourceURL)} is not ${expected}`, { cloud: CLOUD }),
    );
  }
  return right(`gce://${tail[1]}/${tail[3]}/${tail[5]}`);
}
