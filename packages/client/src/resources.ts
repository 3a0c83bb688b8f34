import type { CapiObject } from '@capi-kit/core';
import * as v1alpha1 from '@capi-kit/core/v1alpha1';
import * as v1alpha2 from '@capi-kit/core/v1alpha2';
import * as v1alpha3 from '@capi-kit/core/v1alpha3';
import * as v1alpha4 from '@capi-kit/core/v1alpha4';
import * as v1beta1 from '@capi-kit/core/v1beta1';
import * as v1beta2 from '@capi-kit/core/v1beta2';
import type * as t from 'io-ts';

// The Cluster API versions and kinds this client can type. Adding a version is one row in
// API_VERSIONS (its apiVersion and core's codec table); adding a kind is one row in KINDS.
// Everything else (discovery, typed access, informers, the version view) reads these tables.

/** The kinds the client reads and writes, with their REST names. */
export const KINDS = {
  Cluster: { plural: 'clusters', scale: false },
  Machine: { plural: 'machines', scale: false },
  MachineSet: { plural: 'machinesets', scale: true },
  MachineDeployment: { plural: 'machinedeployments', scale: true },
  MachineClass: { plural: 'machineclasses', scale: false },
  MachineHealthCheck: { plural: 'machinehealthchecks', scale: false },
} as const satisfies Record<string, { plural: string; scale: boolean }>;

/** A kind the client knows (whichever versions carry it). */
export type CapiKind = keyof typeof KINDS;

/** One Cluster API version: its apiVersion and the codec of each kind it has (Lists included). */
export interface ApiVersionRow {
  readonly apiVersion: string;
  readonly codecs: Readonly<Record<string, t.Mixed>>;
}

/** Every Cluster API version the client types, oldest first. */
export const API_VERSIONS: readonly ApiVersionRow[] = [
  { apiVersion: v1alpha1.APIVersion, codecs: v1alpha1.codecs },
  { apiVersion: v1alpha2.APIVersion, codecs: v1alpha2.codecs },
  { apiVersion: v1alpha3.APIVersion, codecs: v1alpha3.codecs },
  { apiVersion: v1alpha4.APIVersion, codecs: v1alpha4.codecs },
  { apiVersion: v1beta1.APIVersion, codecs: v1beta1.codecs },
  { apiVersion: v1beta2.APIVersion, codecs: v1beta2.codecs },
];

/** The API groups Cluster API has used; discovery reports every version served under them. */
export const CAPI_GROUPS: readonly string[] = [
  ...new Set(API_VERSIONS.map((row) => groupOf(row.apiVersion))),
];

/** An apiVersion the client types. */
export type KnownApiVersion = CapiObject['apiVersion'];

/** The kinds (not Lists) of one apiVersion, as typed by core. */
export type KindOf<V extends KnownApiVersion> = Extract<
  Extract<CapiObject, { apiVersion: V }>['kind'],
  CapiKind
>;

/** The TypeScript type of one kind at one version, e.g. `ObjectOf<'cluster.x-k8s.io/v1alpha2', 'Machine'>`. */
export type ObjectOf<V extends KnownApiVersion, K extends string> = Extract<
  CapiObject,
  { apiVersion: V; kind: K }
>;

/** The group of an apiVersion (`cluster.x-k8s.io/v1alpha2` → `cluster.x-k8s.io`; `v1` → ``). */
export function groupOf(apiVersion: string): string {
  const slash = apiVersion.indexOf('/');
  return slash < 0 ? '' : apiVersion.slice(0, slash);
}

/** The version of an apiVersion (`cluster.x-k8s.io/v1alpha2` → `v1alpha2`). */
export function versionOf(apiVersion: string): string {
  return apiVersion.slice(apiVersion.indexOf('/') + 1);
}

/** Where one kind at one version lives on the API server, and how to check what it returns. */
export interface ResourceInfo {
  readonly apiVersion: string;
  readonly group: string;
  readonly version: string;
  readonly kind: CapiKind;
  readonly plural: string;
  /** Whether the kind has the `scale` subresource (MachineSet, MachineDeployment). */
  readonly scale: boolean;
  readonly codec: t.Mixed;
}

/** The table row of one kind at one version, or undefined when that version has no such kind. */
export function resourceInfo(apiVersion: string, kind: string): ResourceInfo | undefined {
  const row = API_VERSIONS.find((r) => r.apiVersion === apiVersion);
  const codec = row?.codecs[kind];
  if (row === undefined || codec === undefined || !Object.hasOwn(KINDS, kind)) return undefined;
  const { plural, scale } = KINDS[kind as CapiKind];
  return {
    apiVersion,
    group: groupOf(apiVersion),
    version: versionOf(apiVersion),
    kind: kind as CapiKind,
    plural,
    scale,
    codec,
  };
}

/** Every kind the client knows at `apiVersion`. */
export function kindsOf(apiVersion: string): CapiKind[] {
  const row = API_VERSIONS.find((r) => r.apiVersion === apiVersion);
  if (row === undefined) return [];
  return (Object.keys(KINDS) as CapiKind[]).filter((kind) => Object.hasOwn(row.codecs, kind));
}
