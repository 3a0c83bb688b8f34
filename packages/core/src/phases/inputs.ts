/**
 * How the Go controllers see the JSON fields the phase rules read. Go decodes an absent
 * field and `null` alike as a nil pointer; any other value, even `""` or `{}`, is a
 * non-nil pointer and counts as set.
 */

/**
 * A JSON field as the phase rules read it: absent, `null`, or a value (for a Go pointer
 * field, absent and `null` are both nil).
 */
export type GoField<T> = T | null | undefined;

/** `field != nil` for a Go pointer field. */
export function isSetPointer(value: unknown): boolean {
  return value !== undefined && value !== null;
}

/** `metav1.Time{}` serialised: the zero time, which `IsZero()` treats like nil. */
// (Date.UTC maps years 0-99 to 1900-1999, so parse the ISO form instead.)
const goZeroTime = Date.parse('0001-01-01T00:00:00Z');

/**
 * `!metadata.deletionTimestamp.IsZero()`: the timestamp is present and is not Go's zero
 * time. A string the API server would not have accepted still counts as set.
 */
export function isDeletionRequested(deletionTimestamp: unknown): boolean {
  if (deletionTimestamp instanceof Date) return deletionTimestamp.getTime() !== goZeroTime;
  if (typeof deletionTimestamp !== 'string' || deletionTimestamp === '') return false;
  return Date.parse(deletionTimestamp) !== goZeroTime;
}

/** A Go `bool` field: only JSON `true` is true. */
export function isTrue(value: unknown): boolean {
  return value === true;
}

/** The stored phase as the Go string field sees it: absent or `null` is `""`. */
export function storedPhase(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

/** The `metadata` fields the phase rules read. */
export interface PhaseSourceMetadata {
  readonly deletionTimestamp?: GoField<string | Date>;
  /** Read by the v1alpha3+ phase functions for the pause annotation. */
  readonly annotations?: GoField<Readonly<Record<string, string>>>;
}
