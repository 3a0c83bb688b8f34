import type { ConvertOptions } from '@capi-kit/conversion';
import { CustomObjectsApi, type KubeConfig, Watch } from '@kubernetes/client-node';
import * as E from 'fp-ts/lib/Either.js';
import { type Discovery, discover } from './discovery.js';
import type { ClientError } from './errors.js';
import { Informer, type InformerOptions } from './informer.js';
import { informerOptionsProblem } from './informer-options.js';
import type { ObjectWithMeta } from './object-facts.js';
import { ResourceClient } from './resource-client.js';
import {
  API_VERSIONS,
  type CapiKind,
  type KindOf,
  type KnownApiVersion,
  type ObjectOf,
  type ResourceInfo,
  resourceInfo,
} from './resources.js';
import { VersionView } from './version-view.js';

export interface ConnectOptions {
  /**
   * For version views that read v1alpha1 objects as v1alpha2: the provider conversion
   * plug-ins (e.g. `awsConversionPlugin` from `@capi-kit/providers-aws`) that turn a
   * v1alpha1 providerSpec into v1alpha2 references. Without one, such objects come back
   * as `conversion-failed`, raw.
   */
  readonly conversion?: ConvertOptions;
}

/** What `connect` found: the management cluster's Cluster API versions, and typed access to them. */
export interface CapiClient {
  readonly kubeConfig: KubeConfig;
  /** The Cluster API versions the server serves (and later ones it serves that this client does not type). */
  readonly discovery: Discovery;
  /** Whether the server serves `kind` at `apiVersion`. */
  serves(apiVersion: string, kind: CapiKind): boolean;
  /** Typed access to one kind at one version; `not-served` if the server does not serve it. */
  resource<V extends KnownApiVersion, K extends KindOf<V>>(
    apiVersion: V,
    kind: K,
  ): E.Either<ClientError, ResourceClient<ObjectOf<V, K>>>;
  /** Typed access to `kind` at every served version, oldest version first. */
  resources(kind: CapiKind): ResourceClient<unknown>[];
  /**
   * A typed, indexed, self-recovering cache of one kind at one version (not started:
   * call `start()` and await `synced`). See Informer.
   */
  informer<V extends KnownApiVersion, K extends KindOf<V>>(
    apiVersion: V,
    kind: K,
    options?: InformerOptions,
  ): E.Either<ClientError, Informer<ObjectOf<V, K> & ObjectWithMeta>>;
  /**
   * `kind` read as `options.as` from every served version, converting on read (see
   * VersionView). `not-served` if `as` has no such kind or no version of it is served.
   */
  view<V extends KnownApiVersion, K extends KindOf<V>>(
    kind: K,
    options: { readonly as: V },
  ): E.Either<ClientError, VersionView<ObjectOf<V, K>>>;
}

function notServed(apiVersion: string, kind: string, discovery: Discovery): ClientError {
  const served = discovery.served.map((v) => v.apiVersion).join(', ') || 'none';
  const known = resourceInfo(apiVersion, kind) !== undefined;
  return {
    code: 'not-served',
    target: { apiVersion, kind },
    message: known
      ? `the server does not serve ${kind} at ${apiVersion} (Cluster API versions served: ${served})`
      : `${apiVersion} has no kind ${kind} that this client types`,
  };
}

/**
 * Connects to a management cluster: discovers which Cluster API groups and versions it
 * serves and returns typed access to them. Fails only when discovery itself fails; a
 * later version the client does not type is listed in `discovery.unknown`.
 */
export async function connect(
  kubeConfig: KubeConfig,
  options: ConnectOptions = {},
): Promise<E.Either<ClientError, CapiClient>> {
  const discovered = await discover(kubeConfig);
  if (E.isLeft(discovered)) return discovered;
  const discovery = discovered.right;
  const api = kubeConfig.makeApiClient(CustomObjectsApi);
  const watch = new Watch(kubeConfig);
  const clients = new Map<string, ResourceClient<unknown>>();

  const serves = (apiVersion: string, kind: CapiKind) =>
    discovery.served.some((v) => v.apiVersion === apiVersion && v.kinds.includes(kind));
  const clientFor = (info: ResourceInfo) => {
    const key = `${info.apiVersion} ${info.kind}`;
    let client = clients.get(key);
    if (client === undefined) {
      client = new ResourceClient<unknown>(api, watch, info);
      clients.set(key, client);
    }
    return client;
  };
  const resources = (kind: CapiKind) =>
    API_VERSIONS.flatMap((row) => {
      const info = resourceInfo(row.apiVersion, kind);
      return info !== undefined && serves(row.apiVersion, kind) ? [clientFor(info)] : [];
    });

  return E.right({
    kubeConfig,
    discovery,
    serves,
    resources,
    resource<V extends KnownApiVersion, K extends KindOf<V>>(apiVersion: V, kind: K) {
      const info = resourceInfo(apiVersion, kind);
      if (info === undefined || !serves(apiVersion, kind))
        return E.left(notServed(apiVersion, kind, discovery));
      return E.right(clientFor(info) as ResourceClient<ObjectOf<V, K>>);
    },
    informer<V extends KnownApiVersion, K extends KindOf<V>>(
      apiVersion: V,
      kind: K,
      informerOptions?: InformerOptions,
    ) {
      const info = resourceInfo(apiVersion, kind);
      if (info === undefined || !serves(apiVersion, kind))
        return E.left(notServed(apiVersion, kind, discovery));
      const invalid = informerOptionsProblem(informerOptions);
      if (invalid !== undefined) return E.left(invalid);
      const source = clientFor(info) as ResourceClient<ObjectOf<V, K> & ObjectWithMeta>;
      return E.right(new Informer(source, kubeConfig, informerOptions));
    },
    view<V extends KnownApiVersion, K extends KindOf<V>>(kind: K, viewOptions: { readonly as: V }) {
      const info = resourceInfo(viewOptions.as, kind);
      const sources = resources(kind);
      if (info === undefined || sources.length === 0)
        return E.left(notServed(viewOptions.as, kind, discovery));
      // The target version first: an object stored there needs no conversion.
      const ordered = [
        ...sources.filter((s) => s.info.apiVersion === info.apiVersion),
        ...sources.filter((s) => s.info.apiVersion !== info.apiVersion),
      ];
      return E.right(new VersionView<ObjectOf<V, K>>(info, ordered, options.conversion ?? {}));
    },
  });
}
