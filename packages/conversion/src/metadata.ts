import { capiConstants } from '@capi-kit/core/objects';
import { assign, isObject, type Json, type JsonObject } from './path.js';
import type { Direction } from './versions.js';

const { v1alpha1, v1alpha2 } = capiConstants;

/**
 * Keys that changed their name with the API group. Each row is one rename, read left to right
 * going up (v1alpha1 → v1alpha2) and right to left going down. Keys not listed here (the
 * `cluster.k8s.io/delete-machine` annotation, `machine-template-hash`, the
 * `machinedeployment.clusters.k8s.io/*` revision annotations) kept their names in v0.2.
 */
export const V1ALPHA1_CLUSTER_NAME_LABEL = v1alpha1.Labels.clusterName;
export const V1ALPHA2_CLUSTER_NAME_LABEL = v1alpha2.Labels.clusterName;

export const LABEL_RENAMES: readonly (readonly [v1alpha1: string, v1alpha2: string])[] = [
  [V1ALPHA1_CLUSTER_NAME_LABEL, V1ALPHA2_CLUSTER_NAME_LABEL],
];

export const FINALIZER_RENAMES: readonly (readonly [v1alpha1: string, v1alpha2: string])[] = [
  [v1alpha1.Finalizers.cluster, v1alpha2.Finalizers.cluster],
  [v1alpha1.Finalizers.machine, v1alpha2.Finalizers.machine],
];

/** Owner references to these kinds follow the kind to its new group. */
export const OWNER_KINDS = ['Cluster', 'Machine', 'MachineSet', 'MachineDeployment'] as const;

/**
 * v1alpha2 marks control-plane Machines with this label; v1alpha1 had no label and used a
 * non-empty `spec.versions.controlPlane` instead. v0.2 only checks that the value is non-empty.
 */
export const CONTROL_PLANE_LABEL = v1alpha2.Labels.controlPlane;

function renameTable(
  direction: Direction,
  table: readonly (readonly [string, string])[],
): Map<string, string> {
  return new Map(table.map(([a, b]) => (direction === 'up' ? [a, b] : [b, a])));
}
const labelMaps = { up: renameTable('up', LABEL_RENAMES), down: renameTable('down', LABEL_RENAMES) };
const finalizerMaps = {
  up: renameTable('up', FINALIZER_RENAMES),
  down: renameTable('down', FINALIZER_RENAMES),
};

/** Renames map keys, keeping their order. A renamed key never overwrites one already there. */
export function renameKeys(map: JsonObject, direction: Direction): JsonObject {
  const renames = labelMaps[direction];
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(map)) {
    const renamed = renames.get(key);
    const target = renamed !== undefined && !Object.hasOwn(map, renamed) ? renamed : key;
    assign(out, target, value);
  }
  return out;
}

export function renameFinalizers(finalizers: Json[], direction: Direction): Json[] {
  const renames = finalizerMaps[direction];
  return finalizers.map((f) => (typeof f === 'string' ? (renames.get(f) ?? f) : f));
}

export function renameOwnerReferences(refs: Json[], from: string, to: string): Json[] {
  return refs.map((ref) => {
    if (!isObject(ref) || ref.apiVersion !== from || !(OWNER_KINDS as readonly Json[]).includes(ref.kind!)) {
      return ref;
    }
    return { ...ref, apiVersion: to };
  });
}

/** A label selector with its keys renamed: `matchLabels` keys and `matchExpressions[].key`. */
export function renameSelector(selector: JsonObject, direction: Direction): JsonObject {
  const out: JsonObject = { ...selector };
  if (isObject(selector.matchLabels)) out.matchLabels = renameKeys(selector.matchLabels, direction);
  if (Array.isArray(selector.matchExpressions)) {
    const renames = labelMaps[direction];
    out.matchExpressions = selector.matchExpressions.map((expr) => {
      if (!isObject(expr) || typeof expr.key !== 'string') return expr;
      const renamed = renames.get(expr.key);
      return renamed === undefined ? expr : { ...expr, key: renamed };
    });
  }
  return out;
}

/**
 * The v1alpha2 ObjectMeta subset allowed in `Machine.spec.metadata` and template metadata
 * (controller-tools v2 choked on `creationTimestamp: null`, so upstream cut the type down).
 */
export const OBJECT_META_SUBSET = [
  'name',
  'generateName',
  'namespace',
  'labels',
  'annotations',
  'ownerReferences',
] as const;
