import { isPlainObject } from '@capi-kit/core/objects';
import type { Either } from 'fp-ts/lib/Either.js';
import { map } from 'fp-ts/lib/Either.js';
import { annotationCapacityOfResource, type TemplateStatus, withTemplateStatus } from './capacity.js';
import { field, type KubeObject } from './objects.js';
import { parseScalingBounds, type ScalingBounds, type ScalingBoundsError } from './scaling-bounds.js';

/**
 * Whether a MachineSet or MachineDeployment is a node group, and its bounds: invalid
 * bounds are an error; `null` when it is not one. As in cluster-autoscaler, a group needs
 * room to scale (max > min); at an explicit 0 replicas it must be able to scale from zero
 * (≥ 1.25): its capacity annotations, joined with its infrastructure template's status when
 * `template` is given (read by the caller), give a template node (cpu and memory, every
 * annotation valid), else it could never be scaled up again.
 */
export function nodeGroupBoundsOf(
  resource: KubeObject,
  template: TemplateStatus | null = null,
): Either<ScalingBoundsError, ScalingBounds | null> {
  const replicas = field(resource, 'spec', 'replicas');
  // The annotations as they are, not `annotationsOf` (which keeps only strings): a bound
  // that is not a string is an error to report, not a bound to forget.
  const annotations = field(resource, 'metadata', 'annotations');
  return map((bounds: ScalingBounds) =>
    bounds.max - bounds.min < 1 || (replicas === 0 && !canScaleFromZero(resource, template)) ? null : bounds,
  )(parseScalingBounds(isPlainObject(annotations) ? annotations : {}));
}

function canScaleFromZero(resource: KubeObject, template: TemplateStatus | null): boolean {
  const capacity = annotationCapacityOfResource(resource);
  return capacity._tag === 'Right' && withTemplateStatus(capacity.right, template) !== null;
}
