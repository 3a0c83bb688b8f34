import { V1ALPHA1, V1ALPHA2 } from '../versions.js';

/**
 * Every Cluster API version the chain converts between, oldest first. The newest is the hub:
 * each version is a spoke reached from it by the hops in between, so any version converts to
 * any other by walking the chain (which is the way through the hub with the common stretch
 * left out).
 */
export const V1ALPHA3 = 'cluster.x-k8s.io/v1alpha3';
export const V1ALPHA4 = 'cluster.x-k8s.io/v1alpha4';
export const V1BETA1 = 'cluster.x-k8s.io/v1beta1';
export const V1BETA2 = 'cluster.x-k8s.io/v1beta2';

export const CHAIN_VERSIONS = [V1ALPHA1, V1ALPHA2, V1ALPHA3, V1ALPHA4, V1BETA1, V1BETA2] as const;
export type ChainVersion = (typeof CHAIN_VERSIONS)[number];

/** The hub: the newest version, the one every other version converts through. */
export const HUB_VERSION: ChainVersion = V1BETA2;

export function isChainVersion(value: unknown): value is ChainVersion {
  return (CHAIN_VERSIONS as readonly unknown[]).includes(value);
}

/** Position in the chain (0 = v1alpha1). */
export function versionIndex(version: ChainVersion): number {
  return CHAIN_VERSIONS.indexOf(version);
}

/** The kinds the chain converts; MachineHealthCheck exists from v1alpha3 on. */
export const CHAIN_KINDS = [
  'Cluster',
  'Machine',
  'MachineSet',
  'MachineDeployment',
  'MachineHealthCheck',
] as const;
export type ChainKind = (typeof CHAIN_KINDS)[number];

export function isChainKind(kind: unknown): kind is ChainKind {
  return (CHAIN_KINDS as readonly unknown[]).includes(kind);
}

/** The first version that has a kind. */
export const KIND_SINCE: Readonly<Record<ChainKind, ChainVersion>> = {
  Cluster: V1ALPHA1,
  Machine: V1ALPHA1,
  MachineSet: V1ALPHA1,
  MachineDeployment: V1ALPHA1,
  MachineHealthCheck: V1ALPHA3,
};

export function kindExistsIn(kind: ChainKind, version: ChainVersion): boolean {
  return versionIndex(version) >= versionIndex(KIND_SINCE[kind]);
}
