import type { Hop } from '../hop.js';
import { v1alpha2ToV1alpha3 } from './v1alpha2-v1alpha3.js';
import { v1alpha3ToV1alpha4 } from './v1alpha3-v1alpha4.js';
import { v1alpha4ToV1beta1 } from './v1alpha4-v1beta1.js';
import { v1beta1ToV1beta2 } from './v1beta1-v1beta2.js';

/**
 * The table-driven hops of the chain, oldest first. (v1alpha1 ⇄ v1alpha2, the first hop, is
 * the original engine in convert.ts: it needs provider plug-ins and MachineClass resolution.)
 */
export const TABLE_HOPS: readonly Hop[] = [
  v1alpha2ToV1alpha3,
  v1alpha3ToV1alpha4,
  v1alpha4ToV1beta1,
  v1beta1ToV1beta2,
];

export { v1alpha2ToV1alpha3, v1alpha3ToV1alpha4, v1alpha4ToV1beta1, v1beta1ToV1beta2 };
