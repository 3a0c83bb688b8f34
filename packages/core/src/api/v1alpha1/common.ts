import type * as t from 'io-ts';
import { objectReferenceFields } from '../meta/object-reference.js';
import { type RawExtension, RawExtension as RawExtensionCodec, string, struct } from '../schema/index.js';

/**
 * `MachineClassRef`: an inlined ObjectReference plus `provider`. (The CRD lists only
 * `provider`, because controller-tools v1 dropped the inlined fields; real objects carry
 * `name`/`namespace`, and the CRD does not prune, so they are typed here.)
 */
export interface MachineClassRef {
  kind?: string;
  namespace?: string;
  name?: string;
  uid?: string;
  apiVersion?: string;
  resourceVersion?: string;
  fieldPath?: string;
  provider?: string;
}

export const MachineClassRefCodec: t.Type<MachineClassRef> = struct(
  'MachineClassRef',
  {},
  { ...objectReferenceFields, provider: string },
);

export interface ProviderSpecSource {
  machineClass?: MachineClassRef;
}

export const ProviderSpecSourceCodec: t.Type<ProviderSpecSource> = struct(
  'ProviderSpecSource',
  {},
  { machineClass: MachineClassRefCodec },
);

/** Provider-specific configuration: inline (`value`) or from a MachineClass (`valueFrom`), not both. */
export interface ProviderSpec {
  value?: RawExtension;
  valueFrom?: ProviderSpecSource;
}

export const ProviderSpecCodec: t.Type<ProviderSpec> = struct(
  'ProviderSpec',
  {},
  { value: RawExtensionCodec, valueFrom: ProviderSpecSourceCodec },
);
