import type * as t from 'io-ts';
import { type ListMeta, type ObjectMeta, ObjectMetaCodec } from '../meta/object-meta.js';
import type { ListItem } from '../meta/resource.js';
import { listCodec, resourceCodecs } from '../meta/resource.js';
import {
  arrayOf,
  int64,
  nullable,
  type OpenString,
  openString,
  type RawExtension,
  RawExtension as RawExtensionCodec,
  string,
  struct,
} from '../schema/index.js';
import { type ProviderSpec, ProviderSpecCodec } from './common.js';
import { APIVersion, type KnownClusterStatusError } from './constants.js';

/** A set of CIDR ranges. `cidrBlocks` has no `omitempty`: Go writes `null` when it is nil. */
export interface NetworkRanges {
  cidrBlocks: string[] | null;
}

export const NetworkRangesCodec: t.Type<NetworkRanges> = struct(
  'NetworkRanges',
  { cidrBlocks: nullable(arrayOf(string)) },
  {},
);

/** Required in the CRD (the Go comment says optional), and so are its three fields. */
export interface ClusterNetworkingConfig {
  services: NetworkRanges;
  pods: NetworkRanges;
  serviceDomain: string;
}

export const ClusterNetworkingConfigCodec: t.Type<ClusterNetworkingConfig> = struct(
  'ClusterNetworkingConfig',
  { services: NetworkRangesCodec, pods: NetworkRangesCodec, serviceDomain: string },
  {},
);

export interface ClusterSpec {
  clusterNetwork: ClusterNetworkingConfig;
  /** Only `value` is meaningful for a Cluster. */
  providerSpec?: ProviderSpec;
}

export const ClusterSpecCodec: t.Type<ClusterSpec> = struct(
  'ClusterSpec',
  { clusterNetwork: ClusterNetworkingConfigCodec },
  { providerSpec: ProviderSpecCodec },
);

export interface APIEndpoint {
  host: string;
  /** Go `int`; the CRD says `format: int64`. */
  port: number;
}

export const APIEndpointCodec: t.Type<APIEndpoint> = struct('APIEndpoint', { host: string, port: int64 }, {});

export type ClusterStatusError = OpenString<KnownClusterStatusError>;

export interface ClusterStatus {
  apiEndpoints?: APIEndpoint[];
  errorReason?: ClusterStatusError;
  errorMessage?: string;
  providerStatus?: RawExtension;
}

export const ClusterStatusCodec: t.Type<ClusterStatus> = struct(
  'ClusterStatus',
  {},
  {
    apiEndpoints: arrayOf(APIEndpointCodec),
    errorReason: openString<KnownClusterStatusError>(),
    errorMessage: string,
    providerStatus: RawExtensionCodec,
  },
);

/** `cluster.k8s.io/v1alpha1` Cluster. It has no phase. */
export interface Cluster {
  apiVersion: typeof APIVersion;
  kind: 'Cluster';
  metadata?: ObjectMeta;
  spec?: ClusterSpec;
  status?: ClusterStatus;
}

const cluster = resourceCodecs<Cluster>(
  APIVersion,
  'Cluster',
  {},
  { metadata: ObjectMetaCodec, spec: ClusterSpecCodec, status: ClusterStatusCodec },
);
export const ClusterCodec: t.Type<Cluster> = cluster.codec;

export interface ClusterList {
  apiVersion: typeof APIVersion;
  kind: 'ClusterList';
  metadata?: ListMeta;
  items: ListItem<Cluster>[] | null;
}

export const ClusterListCodec: t.Type<ClusterList> = listCodec<ClusterList, ListItem<Cluster>>(
  APIVersion,
  'ClusterList',
  cluster.itemCodec,
);
