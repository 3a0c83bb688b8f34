import type * as t from 'io-ts';
import {
  arrayOf,
  boolean,
  int64,
  mapOf,
  nullable,
  RawExtension,
  string,
  struct,
  Time,
} from '../schema/index.js';

/** `metav1.OwnerReference`. */
export interface OwnerReference {
  apiVersion: string;
  kind: string;
  name: string;
  uid: string;
  controller?: boolean;
  blockOwnerDeletion?: boolean;
}

export const OwnerReferenceCodec: t.Type<OwnerReference> = struct(
  'OwnerReference',
  { apiVersion: string, kind: string, name: string, uid: string },
  { controller: boolean, blockOwnerDeletion: boolean },
);

/** `metav1.ManagedFieldsEntry` (server-side apply bookkeeping); `fieldsV1` is free-form. */
export interface ManagedFieldsEntry {
  manager?: string;
  operation?: string;
  apiVersion?: string;
  time?: Time;
  fieldsType?: string;
  fieldsV1?: RawExtension;
  subresource?: string;
}

export const ManagedFieldsEntryCodec: t.Type<ManagedFieldsEntry> = struct(
  'ManagedFieldsEntry',
  {},
  {
    manager: string,
    operation: string,
    apiVersion: string,
    time: Time,
    fieldsType: string,
    fieldsV1: RawExtension,
    subresource: string,
  },
);

/**
 * `metav1.ObjectMeta`, the `metadata` of every object. Every field is optional.
 * `creationTimestamp` may be `null`: Go writes a zero `metav1.Time` that way, and
 * generated manifests carry `creationTimestamp: null`. `labels` and `annotations` may be
 * `null`: YAML's `labels:` with nothing after it, which kube-apiserver takes as empty.
 */
export interface ObjectMeta {
  name?: string;
  generateName?: string;
  namespace?: string;
  selfLink?: string;
  uid?: string;
  resourceVersion?: string;
  generation?: number;
  creationTimestamp?: Time | null;
  deletionTimestamp?: Time;
  deletionGracePeriodSeconds?: number;
  labels?: Record<string, string> | null;
  annotations?: Record<string, string> | null;
  ownerReferences?: OwnerReference[];
  /** Removed from Kubernetes in 1.14; kept free-form for old objects. */
  initializers?: RawExtension;
  finalizers?: string[];
  clusterName?: string;
  managedFields?: ManagedFieldsEntry[];
}

export const ObjectMetaCodec: t.Type<ObjectMeta> = struct(
  'ObjectMeta',
  {},
  {
    name: string,
    generateName: string,
    namespace: string,
    selfLink: string,
    uid: string,
    resourceVersion: string,
    generation: int64,
    creationTimestamp: nullable(Time),
    deletionTimestamp: Time,
    deletionGracePeriodSeconds: int64,
    labels: nullable(mapOf(string)),
    annotations: nullable(mapOf(string)),
    ownerReferences: arrayOf(OwnerReferenceCodec),
    initializers: RawExtension,
    finalizers: arrayOf(string),
    clusterName: string,
    managedFields: arrayOf(ManagedFieldsEntryCodec),
  },
);

/**
 * The ObjectMeta subset that v1alpha2 (and the v0.2 copy of v1alpha1) embed in
 * `spec.metadata` and `spec.template.metadata`. controller-tools could not validate
 * `creationTimestamp: null`, so Cluster API kept only these fields.
 */
export interface ObjectMetaSubset {
  name?: string;
  generateName?: string;
  namespace?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  ownerReferences?: OwnerReference[];
}

export const ObjectMetaSubsetCodec: t.Type<ObjectMetaSubset> = struct(
  'ObjectMeta (subset)',
  {},
  {
    name: string,
    generateName: string,
    namespace: string,
    labels: mapOf(string),
    annotations: mapOf(string),
    ownerReferences: arrayOf(OwnerReferenceCodec),
  },
);

/** `metav1.ListMeta`, the `metadata` of a List. */
export interface ListMeta {
  selfLink?: string;
  resourceVersion?: string;
  continue?: string;
  remainingItemCount?: number;
}

export const ListMetaCodec: t.Type<ListMeta> = struct(
  'ListMeta',
  {},
  { selfLink: string, resourceVersion: string, continue: string, remainingItemCount: int64 },
);
