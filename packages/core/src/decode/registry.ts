import type * as t from 'io-ts';
import { APIVersion as v1alpha1APIVersion } from '../api/v1alpha1/constants.js';
import type { KnownObject as V1alpha1Object } from '../api/v1alpha1/guards.js';
import { codecs as v1alpha1Codecs } from '../api/v1alpha1/guards.js';
import { APIVersion as v1alpha2APIVersion } from '../api/v1alpha2/constants.js';
import type { KnownObject as V1alpha2Object } from '../api/v1alpha2/guards.js';
import { codecs as v1alpha2Codecs } from '../api/v1alpha2/guards.js';
import { APIVersion as v1alpha3APIVersion } from '../api/v1alpha3/constants.js';
import type { KnownObject as V1alpha3Object } from '../api/v1alpha3/guards.js';
import { codecs as v1alpha3Codecs } from '../api/v1alpha3/guards.js';
import { APIVersion as v1alpha4APIVersion } from '../api/v1alpha4/constants.js';
import type { KnownObject as V1alpha4Object } from '../api/v1alpha4/guards.js';
import { codecs as v1alpha4Codecs } from '../api/v1alpha4/guards.js';
import { APIVersion as v1beta1APIVersion } from '../api/v1beta1/constants.js';
import type { KnownObject as V1beta1Object } from '../api/v1beta1/guards.js';
import { codecs as v1beta1Codecs } from '../api/v1beta1/guards.js';
import { APIVersion as v1beta2APIVersion } from '../api/v1beta2/constants.js';
import type { KnownObject as V1beta2Object } from '../api/v1beta2/guards.js';
import { codecs as v1beta2Codecs } from '../api/v1beta2/guards.js';

/** Every Cluster API object this package knows, discriminated by `apiVersion` and `kind`. */
export type CapiObject =
  | V1alpha1Object
  | V1alpha2Object
  | V1alpha3Object
  | V1alpha4Object
  | V1beta1Object
  | V1beta2Object;

/** The codec for each `apiVersion` + `kind`. Other packages may add their kinds. */
export class KindRegistry {
  // apiVersion → kind → codec: a lookup builds no key string (it runs on every decode).
  private readonly byVersion = new Map<string, Map<string, t.Mixed>>();

  register(apiVersion: string, kind: string, codec: t.Mixed): this {
    let kinds = this.byVersion.get(apiVersion);
    if (kinds === undefined) {
      kinds = new Map();
      this.byVersion.set(apiVersion, kinds);
    }
    kinds.set(kind, codec);
    return this;
  }

  registerAll(apiVersion: string, codecs: Readonly<Record<string, t.Mixed>>): this {
    for (const [kind, codec] of Object.entries(codecs)) this.register(apiVersion, kind, codec);
    return this;
  }

  lookup(apiVersion: string, kind: string): t.Mixed | undefined {
    return this.byVersion.get(apiVersion)?.get(kind);
  }

  /** `[apiVersion, kind]` of every registered kind, in registration order. */
  kinds(): Array<[apiVersion: string, kind: string]> {
    return [...this.byVersion].flatMap(([apiVersion, kinds]) =>
      [...kinds.keys()].map((kind): [string, string] => [apiVersion, kind]),
    );
  }
}

/**
 * A new registry holding the Cluster API kinds of every version. ClusterClass, MachinePool
 * and provider kinds are not in it: `decode` reports them as unknown kinds.
 */
export function capiRegistry(): KindRegistry {
  return new KindRegistry()
    .registerAll(v1alpha1APIVersion, v1alpha1Codecs)
    .registerAll(v1alpha2APIVersion, v1alpha2Codecs)
    .registerAll(v1alpha3APIVersion, v1alpha3Codecs)
    .registerAll(v1alpha4APIVersion, v1alpha4Codecs)
    .registerAll(v1beta1APIVersion, v1beta1Codecs)
    .registerAll(v1beta2APIVersion, v1beta2Codecs);
}

export const defaultRegistry: KindRegistry = capiRegistry();
