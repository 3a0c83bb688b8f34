import { type ProviderIDRegistry, providerIDRegistry } from '@capi-kit/providerid';
import { type Bucket, fileUnder, itemsUnder, unfileFrom } from './multimap.js';

/**
 * A set of items keyed by providerID identity that can also forget items (informer caches
 * change). The default registry knows every cloud's grammar (`@capi-kit/providerid`).
 * Nothing per item is kept beyond the two buckets it is filed in: removal takes the
 * providerID it was added with and identifies it again.
 */
export class ProviderIDIdentityIndex<T> {
  readonly #registry: ProviderIDRegistry;
  // An item is filed under its full key (byKey) and its unqualified key (byUnqualified).
  readonly #byKey = new Map<string, Bucket<T>>();
  readonly #byUnqualified = new Map<string, Bucket<T>>();

  constructor(registry: ProviderIDRegistry = providerIDRegistry) {
    this.#registry = registry;
  }

  /** Files `item` under `providerID` (blank or absent IDs are not filed). */
  add(item: T, providerID: string | undefined): void {
    if (providerID === undefined || providerID.trim() === '') return;
    const { key, unqualifiedKey } = this.#registry.identify(providerID);
    fileUnder(this.#byKey, key, item);
    fileUnder(this.#byUnqualified, unqualifiedKey, item);
  }

  /** Forgets `item`, filed under `providerID` by `add`. */
  remove(item: T, providerID: string | undefined): void {
    if (providerID === undefined || providerID.trim() === '') return;
    const { key, unqualifiedKey } = this.#registry.identify(providerID);
    unfileFrom(this.#byKey, key, item);
    unfileFrom(this.#byUnqualified, unqualifiedKey, item);
  }

  /**
   * The items a (Node's) providerID denotes, by instance identity, with ProviderIDIndex's
   * rules: a qualified ID matches items with the same qualifier or none; an unqualified
   * one matches items of that instance whatever their qualifier. Several means ambiguous.
   */
  lookup(providerID: string): T[] {
    if (providerID.trim() === '') return [];
    const { key, unqualifiedKey } = this.#registry.identify(providerID);
    if (key !== unqualifiedKey) {
      return [...itemsUnder(this.#byKey, key), ...itemsUnder(this.#byKey, unqualifiedKey)];
    }
    return itemsUnder(this.#byUnqualified, key);
  }
}
