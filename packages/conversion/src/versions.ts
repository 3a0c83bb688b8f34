/** The two API versions this package converts between. */
export const V1ALPHA1 = 'cluster.k8s.io/v1alpha1';
export const V1ALPHA2 = 'cluster.x-k8s.io/v1alpha2';
export type ApiVersion = typeof V1ALPHA1 | typeof V1ALPHA2;

export const V1ALPHA1_GROUP = 'cluster.k8s.io';
export const V1ALPHA2_GROUP = 'cluster.x-k8s.io';

/** The API group of an apiVersion (`''` for the core group's `v1`). */
export function apiGroup(apiVersion: string): string {
  const slash = apiVersion.indexOf('/');
  return slash === -1 ? '' : apiVersion.slice(0, slash);
}

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
