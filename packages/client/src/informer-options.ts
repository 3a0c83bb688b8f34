import type { ProviderIDRegistry } from '@capi-kit/providerid';
import type { ClientError } from './errors.js';
import { isNamespaceName, NAMESPACE_RULE, shownValue } from './names.js';

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

/** setTimeout's longest delay: a longer one fires at once (Node warns and waits 1 ms). */
const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * The numbers an informer runs on, and what each must be. A silence timeout or back-off of
 * 0, a negative one, NaN or one past the timer's range made the informer restart its watch
 * or retry its list in a tight loop against the API server; a page size of 0 or 1.5 reached
 * the server as a `limit` it reads otherwise (0: no limit) or refuses, on every relist.
 */
const NUMBERS: readonly {
  readonly path: string;
  readonly of: (options: InformerOptions) => unknown;
  readonly max: number;
  readonly rule: string;
}[] = [
  {
    path: 'silenceTimeoutMs',
    of: (o) => o.silenceTimeoutMs,
    max: MAX_TIMER_MS,
    rule: `whole milliseconds from 1 to ${MAX_TIMER_MS}`,
  },
  {
    path: 'backoff.initialMs',
    of: (o) => o.backoff?.initialMs,
    max: MAX_TIMER_MS,
    rule: `whole milliseconds from 1 to ${MAX_TIMER_MS}`,
  },
  {
    path: 'backoff.maxMs',
    of: (o) => o.backoff?.maxMs,
    max: MAX_TIMER_MS,
    rule: `whole milliseconds from 1 to ${MAX_TIMER_MS}`,
  },
  {
    path: 'pageSize',
    of: (o) => o.pageSize,
    max: Number.MAX_SAFE_INTEGER,
    rule: 'a whole number of objects from 1 up',
  },
];

const invalid = (path: string, message: string): ClientError => ({ code: 'invalid-option', path, message });

/**
 * Why an informer cannot run on `options`, if it cannot: checked when the informer is made,
 * before any request, as `invalid-option` naming the field. (A namespace of `..` used to be
 * refused only by each list, which the informer retried with back-off for ever.)
 */
export function informerOptionsProblem(options: unknown): ClientError | undefined {
  if (options === undefined) return undefined;
  // (a JS caller's null, or a string, where the options go)
  if (typeof options !== 'object' || options === null)
    return invalid('options', `informer options ${shownValue(options)} are not an object`);
  const o = options as InformerOptions;
  if (o.namespace !== undefined && !isNamespaceName(o.namespace))
    return invalid(
      'namespace',
      `namespace ${shownValue(o.namespace)} is not a valid namespace (${NAMESPACE_RULE})`,
    );
  if (o.labelSelector !== undefined && typeof o.labelSelector !== 'string')
    return invalid('labelSelector', `labelSelector ${shownValue(o.labelSelector)} is not a string`);
  if (o.backoff !== undefined && (typeof o.backoff !== 'object' || o.backoff === null))
    return invalid('backoff', `backoff ${shownValue(o.backoff)} is not an object of initialMs and maxMs`);
  for (const { path, of, max, rule } of NUMBERS) {
    const value = of(o);
    if (value === undefined) continue;
    if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > max)
      return invalid(
        path,
        `${path} ${typeof value === 'number' ? String(value) : shownValue(value)} is not ${rule}`,
      );
  }
  return undefined;
}
