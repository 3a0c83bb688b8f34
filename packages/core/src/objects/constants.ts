import * as v1alpha1 from '../api/v1alpha1/constants.js';
import * as v1alpha2 from '../api/v1alpha2/constants.js';

/**
 * The names and well-known keys of each Cluster API version: group, version, apiVersion,
 * kinds, labels, annotations, finalizers. The same constants as `@capi-kit/core/<version>`,
 * without loading that version's codecs.
 */
export const capiConstants = { v1alpha1, v1alpha2 } as const;

/** The API group of an apiVersion (`''` for the core group's `v1`). */
export function apiGroup(apiVersion: string): string {
  const slash = apiVersion.indexOf('/');
  return slash === -1 ? '' : apiVersion.slice(0, slash);
}
