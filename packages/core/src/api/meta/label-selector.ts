import type * as t from 'io-ts';
import { arrayOf, mapOf, type OpenString, openString, string, struct } from '../schema/index.js';

export type LabelSelectorOperator = OpenString<'In' | 'NotIn' | 'Exists' | 'DoesNotExist'>;

/** `metav1.LabelSelectorRequirement`. */
export interface LabelSelectorRequirement {
  key: string;
  operator: LabelSelectorOperator;
  values?: string[];
}

export const LabelSelectorRequirementCodec: t.Type<LabelSelectorRequirement> = struct(
  'LabelSelectorRequirement',
  { key: string, operator: openString<'In' | 'NotIn' | 'Exists' | 'DoesNotExist'>() },
  { values: arrayOf(string) },
);

/** `metav1.LabelSelector`. An empty selector (`{}`) selects everything. */
export interface LabelSelector {
  matchLabels?: Record<string, string>;
  matchExpressions?: LabelSelectorRequirement[];
}

export const LabelSelectorCodec: t.Type<LabelSelector> = struct(
  'LabelSelector',
  {},
  { matchLabels: mapOf(string), matchExpressions: arrayOf(LabelSelectorRequirementCodec) },
);
