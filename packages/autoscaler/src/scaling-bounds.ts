import { formatJsonPath } from '@capi-kit/core/objects';
import { type Either, left, right } from 'fp-ts/lib/Either.js';
import { maxSizeAnnotations, minSizeAnnotations } from './keys.js';

/** A node group's size limits, from its MachineSet's or MachineDeployment's annotations. */
export interface ScalingBounds {
  readonly min: number;
  readonly max: number;
}

/**
 * An annotation that does not give a usable bound. The message begins with upstream's
 * `invalid min annotation` / `invalid max annotation`; `path` names the annotation.
 */
export interface ScalingBoundsError {
  readonly code: 'invalid-min-annotation' | 'invalid-max-annotation';
  readonly message: string;
  readonly path: string;
}

type Annotations = Readonly<Record<string, unknown>> | undefined | null;

/** `metadata.annotations["key"]`, the JSON path of one annotation. */
export function annotationPath(key: string): string {
  return formatJsonPath(['metadata', 'annotations', key]);
}

// Go's strconv.Atoi on a 64-bit platform: an optional sign and decimal digits, nothing
// else (no spaces, no "1e3", no "0x10"). Values past 2^53 are refused rather than rounded.
const ATOI = /^[+-]?[0-9]+$/;

type Bound = { found: false } | { found: true; value: number } | { found: true; error: ScalingBoundsError };

function readBound(annotations: Annotations, keys: readonly string[], which: 'min' | 'max'): Bound {
  const code = which === 'min' ? 'invalid-min-annotation' : 'invalid-max-annotation';
  for (const key of keys) {
    if (annotations == null || !Object.hasOwn(annotations, key)) continue;
    const text = annotations[key];
    const path = annotationPath(key);
    const fail = (why: string): Bound => ({
      found: true,
      error: { code, path, message: `invalid ${which} annotation: ${path}: ${why}` },
    });
    if (typeof text !== 'string') return fail(`expected a string, got ${JSON.stringify(text)}`);
    if (!ATOI.test(text)) return fail(`${JSON.stringify(text)} is not an integer`);
    const value = Number(text);
    if (!Number.isSafeInteger(value)) return fail(`${JSON.stringify(text)} is out of range`);
    if (value < 0) return fail(`${value} is negative`);
    return { found: true, value };
  }
  return { found: false };
}

/**
 * The min and max size of a node group, with cluster-autoscaler 1.20's rules: the
 * `cluster.x-k8s.io/cluster-api-autoscaler-node-group-{min,max}-size` annotations, else the
 * `cluster.k8s.io/` ones; a missing bound is 0; a value that is not a non-negative integer,
 * or a max below the min, is an error.
 */
export function parseScalingBounds(annotations: Annotations): Either<ScalingBoundsError, ScalingBounds> {
  const min = readBound(annotations, minSizeAnnotations, 'min');
  if (min.found && 'error' in min) return left(min.error);
  const max = readBound(annotations, maxSizeAnnotations, 'max');
  if (max.found && 'error' in max) return left(max.error);
  const minValue = min.found ? min.value : 0;
  const maxValue = max.found ? max.value : 0;
  if (maxValue < minValue) {
    const path = annotationPath(max.found ? maxSizeKeyUsed(annotations) : maxSizeAnnotations[0]!);
    return left({
      code: 'invalid-max-annotation',
      path,
      message: `invalid max annotation: ${path}: max ${maxValue} is below min ${minValue}`,
    });
  }
  return right({ min: minValue, max: maxValue });
}

function maxSizeKeyUsed(annotations: Annotations): string {
  return maxSizeAnnotations.find((k) => annotations != null && Object.hasOwn(annotations, k))!;
}
