import { capiConstants } from '@capi-kit/core/objects';

export { apiGroup } from '@capi-kit/core/objects';

const { v1alpha1, v1alpha2 } = capiConstants;

/** The two API versions this package converts between (core's constants). */
export const V1ALPHA1 = v1alpha1.APIVersion;
export const V1ALPHA2 = v1alpha2.APIVersion;
export type ApiVersion = typeof V1ALPHA1 | typeof V1ALPHA2;

export const V1ALPHA1_GROUP = v1alpha1.GroupName;
export const V1ALPHA2_GROUP = v1alpha2.GroupName;

/** The kinds both versions share (MachineClass exists only in v1alpha1, see manifest.ts). */
export const CONVERTIBLE_KINDS = ['Cluster', 'Machine', 'MachineSet', 'MachineDeployment'] as const;
export type ConvertibleKind = (typeof CONVERTIBLE_KINDS)[number];

export function isConvertibleKind(kind: unknown): kind is ConvertibleKind {
  return (CONVERTIBLE_KINDS as readonly unknown[]).includes(kind);
}

export type Direction = 'up' | 'down';

/** `up`: v1alpha1 → v1alpha2; `down`: v1alpha2 → v1alpha1. */
export function sourceVersion(direction: Direction): ApiVersion {
  return direction === 'up' ? V1ALPHA1 : V1ALPHA2;
}
export function targetVersion(direction: Direction): ApiVersion {
  return direction === 'up' ? V1ALPHA2 : V1ALPHA1;
}
