import { isObject, type JsonObject } from '@capi-kit/conversion';
import type { ClusterApi } from './cluster-api.js';
import { MigrateFailure } from './errors.js';
import { keyOf, labelOf, metadataOf, uidOf } from './object.js';

export interface PruneSummary {
  /** v1alpha1 objects whose finalizers were cleared before their deletion. */
  readonly finalizersCleared: readonly string[];
  readonly deleted: readonly string[];
  readonly warnings: readonly string[];
}

/** Deleted in this order: what is owned before its owner, MachineClasses before the Cluster. */
const DELETION_ORDER = ['Machine', 'MachineSet', 'MachineDeployment', 'MachineClass', 'Cluster'];

/**
 * Controllers of v0.1 (CAPI's own, CAPA's, CAPV's): a StatefulSet or Deployment whose name
 * or image says Cluster API or a provider manager. They must be stopped before the prune.
 */
const CONTROLLER_PATTERN =
  /cluster-api|provider-controller|clusterapi|cluster-api-provider|capa-|capv-|capi-/i;

/**
 * Warnings for every v0.1-looking controller still running (replicas > 0). Reading
 * workloads cluster-wide may be forbidden; that is a warning too, never a refusal.
 */
export async function runningControllers(api: ClusterApi): Promise<string[]> {
  const warnings: string[] = [];
  for (const kind of ['StatefulSet', 'Deployment']) {
    let items: JsonObject[];
    try {
      // Controllers run in their own namespaces (`cluster-api-system`, …): look everywhere.
      items = await api.list('apps/v1', kind);
    } catch (error) {
      warnings.push(
        `could not check for running v0.1 controllers (${kind}s): ${error instanceof Error ? error.message : String(error)}`,
      );
      continue;
    }
    for (const item of items) {
      const replicas = isObject(item.spec) && typeof item.spec.replicas === 'number' ? item.spec.replicas : 1;
      if (replicas <= 0) continue;
      const images =
        JSON.stringify(isObject(item.spec) ? (item.spec.template ?? {}) : {}).match(/"image":"[^"]*"/g) ?? [];
      if (!CONTROLLER_PATTERN.test(keyOf(item).name) && !images.some((i) => CONTROLLER_PATTERN.test(i)))
        continue;
      warnings.push(
        `${labelOf(keyOf(item))} has ${replicas} replica(s): stop the v0.1 controllers (scale to 0) before pruning, or they may act on the objects being deleted`,
      );
    }
  }
  return warnings;
}

/**
 * Deletes the migrated v1alpha1 objects: first their finalizers are cleared (so a v0.1
 * controller that is still running cannot turn the deletion into deleting real machines),
 * then each is deleted with a UID precondition. Secrets and v1alpha2 objects are not touched.
 * The caller runs `verify` first.
 */
export async function prune(api: ClusterApi, sources: readonly JsonObject[]): Promise<PruneSummary> {
  const warnings = await runningControllers(api);
  const ordered = [...sources].sort(
    (a, b) => DELETION_ORDER.indexOf(String(a.kind)) - DELETION_ORDER.indexOf(String(b.kind)),
  );
  const finalizersCleared: string[] = [];
  const deleted: string[] = [];
  for (const source of ordered) {
    const key = keyOf(source);
    const label = labelOf(key);
    const live = await api.get(key);
    if (live === undefined) continue;
    const uid = uidOf(live);
    if (uid !== uidOf(source)) {
      throw new MigrateFailure({
        code: 'verification',
        message: `${label} was replaced since it was read`,
        differences: [{ object: label, message: 'UID changed' }],
      });
    }
    const finalizers = metadataOf(live).finalizers;
    if (Array.isArray(finalizers) && finalizers.length > 0) {
      await api.patch(
        key,
        { metadata: { finalizers: null, resourceVersion: metadataOf(live).resourceVersion ?? null } },
        false,
      );
      finalizersCleared.push(label);
    }
    await api.delete(key, uid ?? '');
    deleted.push(label);
  }
  return { finalizersCleared, deleted, warnings };
}
