import type { ProviderIDRegistry } from '@capi-kit/providerid';
import type { ClientError } from './errors.js';
import { isNamespaceName, NAMESPACE_RULE, shownValue } from './names.js';
import {
  invalidOption,
  type NumberRule,
  PAGE_SIZE,
  stringOptionProblem,
  TIMER_MS,
  wholeNumberProblem,
} from './option-rules.js';

export interface InformerOptions {
  /** One namespace; all namespaces when absent. */
  readonly namespace?: string;
  readonly labelSelector?: string;
  /**
   * Long-lived watches are known to stop delivering without closing. With no event, no
   * bookmark and no reconnect for this long the watch is dropped and the kind relisted
   * (default 5 minutes).
   */
  readonly silenceTimeoutMs?: number;
  /** Back-off between attempts after an error: doubles from `initialMs` up to `maxMs` (default 500 ms → 30 s). */
  readonly backoff?: { readonly initialMs?: number; readonly maxMs?: number };
  /** The providerID rules of the `providerID` index (default: every cloud's, from `@capi-kit/providerid`). */
  readonly providerIDRegistry?: ProviderIDRegistry;
  /** Objects per page of the (re)lists (default 500). */
  readonly pageSize?: number;
}

/**
 * The numbers an informer runs on, and what each must be. A silence timeout or back-off of
 * 0, a negative one, NaN or one past the timer's range made the informer restart its watch
 * or retry its list in a tight loop against the API server; a page size of 0 or 1.5 reached
 * the server as a `limit` it reads otherwise (0: no limit) or refuses, on every relist.
 */
const NUMBERS: readonly {
  readonly path: string;
  readonly of: (options: InformerOptions) => unknown;
  readonly rule: NumberRule;
}[] = [
  { path: 'silenceTimeoutMs', of: (o) => o.silenceTimeoutMs, rule: TIMER_MS },
  { path: 'backoff.initialMs', of: (o) => o.backoff?.initialMs, rule: TIMER_MS },
  { path: 'backoff.maxMs', of: (o) => o.backoff?.maxMs, rule: TIMER_MS },
  { path: 'pageSize', of: (o) => o.pageSize, rule: PAGE_SIZE },
];

/**
 * Why an informer cannot run on `options`, if it cannot: checked when the informer is made,
 * before any request, as `invalid-option` naming the field. (A namespace of `..` used to be
 * refused only by each list, which the informer retried with back-off for ever.)
 */
export function informerOptionsProblem(options: unknown): ClientError | undefined {
  if (options === undefined) return undefined;
  // (a JS caller's null, or a string, where the options go)
  if (typeof options !== 'object' || options === null)
    return invalidOption('options', `informer options ${shownValue(options)} are not an object`);
  const o = options as InformerOptions;
  if (o.namespace !== undefined && !isNamespaceName(o.namespace))
    return invalidOption(
      'namespace',
      `namespace ${shownValue(o.namespace)} is not a valid namespace (${NAMESPACE_RULE})`,
    );
  const selectorProblem = stringOptionProblem('labelSelector', o.labelSelector);
  if (selectorProblem !== undefined) return selectorProblem;
  if (o.backoff !== undefined && (typeof o.backoff !== 'object' || o.backoff === null))
    return invalidOption(
      'backoff',
      `backoff ${shownValue(o.backoff)} is not an object of initialMs and maxMs`,
    );
  for (const { path, of, rule } of NUMBERS) {
    const problem = wholeNumberProblem(path, of(o), rule);
    if (problem !== undefined) return problem;
  }
  return undefined;
}
