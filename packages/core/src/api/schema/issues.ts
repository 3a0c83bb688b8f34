/**
 * The `message` an io-ts ValidationError carries when it is not a plain type mismatch.
 * The error reporter turns these into readable text.
 */
export const Issue = {
  /** A required field is absent. */
  missing: 'missing',
  /** Strict mode: a field the schema does not define. */
  unknown: 'unknown',
  /** A list-map list (`x-kubernetes-list-type: map`) repeats an item's key. */
  duplicate: 'duplicate',
  /** An object has fewer of its own fields set than the CRD's `minProperties`. */
  tooFewFields: 'too-few-fields',
} as const;
export type Issue = (typeof Issue)[keyof typeof Issue];
