import type * as t from 'io-ts';
import { type ListMeta, type ObjectMeta, ObjectMetaCodec } from '../meta/object-meta.js';
import { type ObjectReference, ObjectReferenceCodec } from '../meta/object-reference.js';
import { type ListItem, listCodec, resourceCodecs } from '../meta/resource.js';
import {
  arrayOf,
  boolean,
  int32,
  integer,
  nullable,
  type OpenString,
  openString,
  string,
  struct,
} from '../schema/index.js';
import { APIVersion, type KnownClusterPhase, type KnownClusterStatusError } from './constants.js';

/** A set of CIDR ranges. `cidrBlocks` has no `omitempty`: Go writes `null` when it is nil. */
export interface NetworkRanges {
  cidrBlocks: string[] | null;
}

export const NetworkRangesCodec: t.Type<NetworkRanges> = struct(
  'NetworkRanges',
  { cidrBlocks: nullable(arrayOf(string)) },
  {},
);

/** Every field optional in v1alpha2 (v1alpha1 required services, pods and serviceDomain). */
export interface ClusterNetwork {
  /** The comment says "defaults to 6443"; no v0.2 code applies that default. */
  apiServerPort?: number;
  services?: NetworkRanges;
  pods?: NetworkRanges;
  serviceDomain?: string;
}

export const ClusterNetworkCodec: t.Type<ClusterNetwork> = struct(
  'ClusterNetwork',
  {},
  { apiServerPort: int32, services: NetworkRangesCodec, pods: NetworkRangesCodec, serviceDomain: string },
);

export interface ClusterSpec {
  clusterNetwork?: ClusterNetwork;
  /** The provider's cluster object, e.g. an AWSCluster. */
  infrastructureRef?: ObjectReference;
}

export const ClusterSpecCodec: t.Type<ClusterSpec> = struct(
  'ClusterSpec',
  {},
  { clusterNetwork: ClusterNetworkCodec, infrastructureRef: ObjectReferenceCodec },
);

export interface APIEndpoint {
  host: string;
  /** Go `int`; the CRD says `type: integer` without a format. */
  port: number;
}

export const APIEndpointCodec: t.Type<APIEndpoint> = struct(
  'APIEndpoint',
  { host: string, port: integer },
  {},
);

export type ClusterStatusError = OpenString<KnownClusterStatusError>;
export type ClusterPhase = OpenString<KnownClusterPhase>;

export interface ClusterStatus {
  apiEndpoints?: APIEndpoint[];
  /** Still `error*` in v1alpha2 (renamed `failure*` in v1alpha3). */
  errorReason?: ClusterStatusError;
  errorMessage?: string;
  phase?: ClusterPhase;
  /** No `omitempty` in Go, so present (possibly `false`) on objects a controller wrote. */
  infrastructureReady?: boolean;
  controlPlaneInitialized?: boolean;
}

export const ClusterStatusCodec: t.Type<ClusterStatus> = struct(
  'ClusterStatus',
  {},
  {
    apiEndpoints: arrayOf(APIEndpointCodec),
    errorReason: openString<KnownClusterStatusError>(),
    errorMessage: string,
    phase: openString<KnownClusterPhase>(),
    infrastructureReady: boolean,
    controlPlaneInitialized: boolean,
  },
);

/** `cluster.x-k8s.io/v1alpha2` Cluster. */
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
