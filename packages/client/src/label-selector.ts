import type { LabelSelector } from '@capi-kit/core';

/** The operators of a `LabelSelectorRequirement`, as functions of the label's value (undefined: absent). */
// A Map, not an object literal: operator names come from the cluster (`constructor` must not match).
const OPERATORS = new Map<string, (value: string | undefined, values: readonly string[]) => boolean>([
  ['In', (value, values) => value !== undefined && values.includes(value)],
  ['NotIn', (value, values) => value === undefined || !values.includes(value)],
  ['Exists', (value) => value !== undefined],
  ['DoesNotExist', (value) => value === undefined],
]);

/**
 * Whether `labels` satisfy `selector` (`metav1.LabelSelector` semantics). An empty
 * selector selects everything; a missing one nothing; an unknown operator nothing.
 */
export function selects(
  selector: LabelSelector | null | undefined,
  labels: Readonly<Record<string, string>>,
): boolean {
  if (selector === null || selector === undefined) return false;
  for (const [key, value] of Object.entries(selector.matchLabels ?? {}))
    if (!Object.hasOwn(labels, key) || labels[key] !== value) return false;
  for (const requirement of selector.matchExpressions ?? []) {
    const operator = OPERATORS.get(requirement.operator);
    const value = Object.hasOwn(labels, requirement.key) ? labels[requirement.key] : undefined;
    if (operator === undefined || !operator(value, requirement.values ?? [])) return false;
  }
  return true;
}
