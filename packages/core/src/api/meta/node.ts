import type * as t from 'io-ts';
import { nullable, type OpenString, openString, string, struct, Time } from '../schema/index.js';

// The core/v1 Node types that v1alpha1 Machines embed (taints, addresses, conditions,
// dynamic kubelet config). Enum-like fields are open strings: Go's decoder accepts any value.

export type TaintEffect = OpenString<'NoSchedule' | 'PreferNoSchedule' | 'NoExecute'>;

/** `corev1.Taint`. */
export interface Taint {
  key: string;
  value?: string;
  effect: TaintEffect;
  timeAdded?: Time;
}

export const TaintCodec: t.Type<Taint> = struct(
  'Taint',
  { key: string, effect: openString<'NoSchedule' | 'PreferNoSchedule' | 'NoExecute'>() },
  { value: string, timeAdded: Time },
);

export type NodeAddressType = OpenString<
  'Hostname' | 'ExternalIP' | 'InternalIP' | 'ExternalDNS' | 'InternalDNS'
>;

/** `corev1.NodeAddress` (v1alpha2 calls the same shape MachineAddress). */
export interface NodeAddress {
  type: NodeAddressType;
  address: string;
}

export const NodeAddressCodec: t.Type<NodeAddress> = struct(
  'NodeAddress',
  {
    type: openString<'Hostname' | 'ExternalIP' | 'InternalIP' | 'ExternalDNS' | 'InternalDNS'>(),
    address: string,
  },
  {},
);

export type ConditionStatus = OpenString<'True' | 'False' | 'Unknown'>;

/**
 * `corev1.NodeCondition`. The two times are `metav1.Time` values (not pointers), so Go
 * writes `null` when they are zero.
 */
export interface NodeCondition {
  type: string;
  status: ConditionStatus;
  lastHeartbeatTime?: Time | null;
  lastTransitionTime?: Time | null;
  reason?: string;
  message?: string;
}

export const NodeConditionCodec: t.Type<NodeCondition> = struct(
  'NodeCondition',
  { type: string, status: openString<'True' | 'False' | 'Unknown'>() },
  { lastHeartbeatTime: nullable(Time), lastTransitionTime: nullable(Time), reason: string, message: string },
);

/** `corev1.ConfigMapNodeConfigSource`. */
export interface ConfigMapNodeConfigSource {
  namespace: string;
  name: string;
  uid?: string;
  resourceVersion?: string;
  kubeletConfigKey: string;
}

export const ConfigMapNodeConfigSourceCodec: t.Type<ConfigMapNodeConfigSource> = struct(
  'ConfigMapNodeConfigSource',
  { namespace: string, name: string, kubeletConfigKey: string },
  { uid: string, resourceVersion: string },
);

/** `corev1.NodeConfigSource` (dynamic kubelet config). */
export interface NodeConfigSource {
  configMap?: ConfigMapNodeConfigSource;
}

export const NodeConfigSourceCodec: t.Type<NodeConfigSource> = struct(
  'NodeConfigSource',
  {},
  { configMap: ConfigMapNodeConfigSourceCodec },
);
