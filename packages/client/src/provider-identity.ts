import { type ProviderIDRegistry, providerIDRegistry } from '@capi-kit/providerid';
import { fileUnder, unfileFrom } from './multimap.js';

/**
 * A set of items keyed by providerID identity that can also forget items (informer caches
 * change). The default registry knows every cloud's grammar (`@capi-kit/providerid`).
 */
export class ProviderIDIdentityIndex<T> {
  readonly #registry: ProviderIDRegistry;
  // key -> items; an item is filed under its full key (byKey) and its unqualified key (byUnqualified).
  readonly #byKey = new Map<string, Set<T>>();
  readonly #byUnqualified = new Map<string, Set<T>>();
  readonly #keysOf = new Map<T, { key: string; unqualifiedKey: string }>();

  constructor(registry: ProviderIDRegistry = providerIDRegistry) {
    this.#registry = registry;
  }

  /** The identity key of a providerID (`space|parts[@qualifier]`). */
  keyOf(providerID: string): string {
    return this.#registry.identify(providerID).key;
  }

  /** Files `item` under `providerID` (blank IDs are not filed), replacing where it was filed before. */
  set(item: T, providerID: string | undefined): void {
    this.delete(item);
    if (providerID === undefined || providerID.trim() === '') return;
    const { key, unqualifiedKey } = this.#registry.identify(providerID);
    this.#keysOf.set(item, { key, unqualifiedKey });
    fileUnder(this.#byKey, key, item);
    fileUnder(this.#byUnqualified, unqualifiedKey, item);
  }

  delete(item: T): void {
    const keys = this.#keysOf.get(item);
    if (keys === undefined) return;
    this.#keysOf.delete(item);
    unfileFrom(this.#byKey, keys.key, item);
    unfileFrom(this.#byUnqualified, keys.unqualifiedKey, item);
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
      return [...(this.#byKey.get(key) ?? []), ...(this.#byKey.get(unqualifiedKey) ?? [])];
    }
    return [...(this.#byUnqualified.get(key) ?? [])];
  }
}
