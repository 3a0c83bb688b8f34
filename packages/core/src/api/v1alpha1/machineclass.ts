import type * as t from 'io-ts';
import { type ListMeta, type ObjectMeta, ObjectMetaCodec } from '../meta/object-meta.js';
import { type ListItem, listCodec, resourceCodecs } from '../meta/resource.js';
import { nullable, type RawExtension, RawExtension as RawExtensionCodec } from '../schema/index.js';
import { APIVersion } from './constants.js';

/**
 * `cluster.k8s.io/v1alpha1` MachineClass (v1alpha1 only): a reusable provider
 * configuration that Machines reference from `spec.providerSpec.valueFrom.machineClass`.
 * It has no spec and no status.
 */
export interface MachineClass {
  apiVersion: typeof APIVersion;
  kind: 'MachineClass';
  metadata?: ObjectMeta;
  /**
   * Required by the CRD. A RawExtension value without `omitempty`: Go writes `null` when it
   * holds nothing, so `null` is accepted (the CRD itself would reject it).
   */
  providerSpec: RawExtension | null;
}

const machineClass = resourceCodecs<MachineClass>(
  APIVersion,
  'MachineClass',
  { providerSpec: nullable(RawExtensionCodec) },
  { metadata: ObjectMetaCodec },
);
export const MachineClassCodec: t.Type<MachineClass> = machineClass.codec;

export interface MachineClassList {
  apiVersion: typeof APIVersion;
  kind: 'MachineClassList';
  metadata?: ListMeta;
  items: ListItem<MachineClass>[] | null;
}

export const MachineClassListCodec: t.Type<MachineClassList> = listCodec<
  MachineClassList,
  ListItem<MachineClass>
>(APIVersion, 'MachineClassList', machineClass.itemCodec);
