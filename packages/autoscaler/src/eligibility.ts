import { isPlainObject } from '@capi-kit/core/objects';
import type { Either } from 'fp-ts/lib/Either.js';
import { map } from 'fp-ts/lib/Either.js';
import { field, type KubeObject } from './objects.js';
import { parseScalingBounds, type ScalingBounds, type ScalingBoundsError } from './scaling-bounds.js';

/**
 * Whether a MachineSet or MachineDeployment is a node group, and its bounds: invalid
 * bounds are an error; `null` when it is not one. As in cluster-autoscaler 1.20, a group
 * needs room to scale (max > min) and must not be at an explicit 0 replicas: nothing here
 * can build a template node, so a group at zero could never be scaled up again.
 */
export function nodeGroupBoundsOf(resource: KubeObject): Either<ScalingBoundsError, ScalingBounds | null> {
  const replicas = field(resource, 'spec', 'replicas');
  // The annotations as they are, not `annotationsOf` (which keeps only strings): a bound
  // that is not a string is an error to report, not a bound to forget.
  const annotations = field(resource, 'metadata', 'annotations');
  return map((bounds: ScalingBounds) => (replicas === 0 || bounds.max - bounds.min < 1 ? null : bounds))(
    parseScalingBounds(isPlainObject(annotations) ? annotations : {}),
  );
}
