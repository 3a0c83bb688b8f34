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
// else (no spaces, no "1e3", no "0x10"), leading zeros allowed, within int64.
const ATOI = /^[+-]?[0-9]+$/;
const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;
const SAFE_MAX = BigInt(Number.MAX_SAFE_INTEGER);

type Bound = { found: false } | { found: true; value: bigint } | { found: true; error: ScalingBoundsError };

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
    const value = BigInt(text);
    if (value < INT64_MIN || value > INT64_MAX) return fail(`${JSON.stringify(text)} is out of range`);
    if (value < 0n) return fail(`${value} is negative`);
    return { found: true, value };
  }
  return { found: false };
}

/**
 * The min and max size of a node group, with cluster-autoscaler 1.20's rules: the
 * `cluster.x-k8s.io/cluster-api-autoscaler-node-group-{min,max}-size` annotations, else the
 * `cluster.k8s.io/` ones; a missing bound is 0; a value that is not a non-negative integer
 * as Go's strconv.Atoi reads it (sign, leading zeros, int64 range), or a max below the min,
 * is an error. A bound past 2^53 - 1, which upstream takes as it is, is read as 2^53 - 1
 * (a max above such a min as one more than the min).
 */
export function parseScalingBounds(annotations: Annotations): Either<ScalingBoundsError, ScalingBounds> {
  const min = readBound(annotations, minSizeAnnotations, 'min');
  if (min.found && 'error' in min) return left(min.error);
  const max = readBound(annotations, maxSizeAnnotations, 'max');
  if (max.found && 'error' in max) return left(max.error);
  const minValue = min.found ? min.value : 0n;
  const maxValue = max.found ? max.value : 0n;
  if (maxValue < minValue) {
    const path = annotationPath(max.found ? maxSizeKeyUsed(annotations) : maxSizeAnnotations[0]!);
    return left({
      code: 'invalid-max-annotation',
      path,
      message: `invalid max annotation: ${path}: max ${maxValue} is below min ${minValue}`,
    });
  }
  // Compared exactly above; a bound past 2^53 - 1 (no replica count comes near it: they
  // are int32) is that, and a max above such a min stays above it.
  const maxNumber = Number(maxValue > SAFE_MAX ? SAFE_MAX : maxValue);
  let minNumber = Number(minValue > SAFE_MAX ? SAFE_MAX : minValue);
  if (maxValue > minValue && minNumber === maxNumber) minNumber = maxNumber - 1;
  return right({ min: minNumber, max: maxNumber });
}

function maxSizeKeyUsed(annotations: Annotations): string {
  return maxSizeAnnotations.find((k) => annotations != null && Object.hasOwn(annotations, k))!;
}
