import { isPlainObject } from '@capi-kit/core/objects';
import type { Either } from 'fp-ts/lib/Either.js';
import { map } from 'fp-ts/lib/Either.js';
import { instanceCapacityOf } from './capacity.js';
import { field, type KubeObject } from './objects.js';
import { parseScalingBounds, type ScalingBounds, type ScalingBoundsError } from './scaling-bounds.js';

/**
 * Whether a MachineSet or MachineDeployment is a node group, and its bounds: invalid
 * bounds are an error; `null` when it is not one. As in cluster-autoscaler, a group needs
 * room to scale (max > min); at an explicit 0 replicas it must be able to scale from zero
 * (≥ 1.25): its capacity annotations give a template node (non-zero cpu and memory, every
 * annotation valid), else it could never be scaled up again.
 */
export function nodeGroupBoundsOf(resource: KubeObject): Either<ScalingBoundsError, ScalingBounds | null> {
  const replicas = field(resource, 'spec', 'replicas');
  // The annotations as they are, not `annotationsOf` (which keeps only strings): a bound
  // that is not a string is an error to report, not a bound to forget.
  const annotations = field(resource, 'metadata', 'annotations');
  return map((bounds: ScalingBounds) =>
    bounds.max - bounds.min < 1 || (replicas === 0 && !canScaleFromZero(resource)) ? null : bounds,
  )(parseScalingBounds(isPlainObject(annotations) ? annotations : {}));
}

function canScaleFromZero(resource: KubeObject): boolean {
  const capacity = instanceCapacityOf(resource);
  return capacity._tag === 'Right' && capacity.right !== null;
}
