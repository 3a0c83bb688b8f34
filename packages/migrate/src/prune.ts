import { isObject, type JsonObject, V1ALPHA1 } from '@capi-kit/conversion';
import type { ClusterApi } from './cluster-api.js';
import { isConflict, MigrateFailure } from './errors.js';
import { identity, keyOf, labelOf, metadataOf, type ObjectKey, uidOf } from './object.js';
import type { PlannedObject } from './plan.js';
import { addPruned, markPruned } from './pruned.js';

export interface PruneSummary {
  /** v1alpha1 objects whose finalizers were cleared before their deletion. */
  readonly finalizersCleared: readonly string[];
  readonly deleted: readonly string[];
  /** v1alpha1 objects edited after verify read them: not deleted (run verify and prune again). */
  readonly changedSinceVerify: readonly string[];
  /** MachineClasses still referred to by v1alpha1 objects that stay: not deleted. */
  readonly keptInUse: readonly string[];
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
 * Deletes the migrated v1alpha1 objects, kind by kind: first their finalizers are cleared
 * (so a v0.1 controller that is still running cannot turn the deletion into deleting real machines),
 * then each is deleted with UID and resourceVersion preconditions (an object edited since
 * verify read it is reported in `changedSinceVerify`, not deleted). Before a kind's objects
 * are deleted, their UIDs are added to the namespace's record (`addPruned`) and the objects
 * of `targets` created from them are annotated as theirs pruned (`markPruned`): verify reads
 * both. Secrets and v1alpha2 objects are not otherwise touched. The caller runs `verify` first.
 */
export async function prune(
  api: ClusterApi,
  sources: readonly JsonObject[],
  /** The plan's objects: those of the sources deleted are marked (`markPruned`). */
  targets: readonly PlannedObject[],
): Promise<PruneSummary> {
  const warnings = await runningControllers(api);
  const finalizersCleared: string[] = [];
  const deleted: string[] = [];
  const changedSinceVerify: string[] = [];
  const keptInUse: string[] = [];
  const changed = (label: string) => {
    changedSinceVerify.push(label);
    warnings.push(`${label} changed since verify read it: not deleted; run verify, then prune again`);
  };
  let inUse: Set<string> | undefined;
  for (const kind of DELETION_ORDER) {
    const batch: { key: ObjectKey; label: string; live: JsonObject }[] = [];
    for (const source of sources.filter((s) => s.kind === kind)) {
      const key = keyOf(source);
      const label = labelOf(key);
      if (key.kind === 'MachineClass') {
        // Read once, after the migrated Machines, MachineSets and MachineDeployments are gone:
        // what still refers to a MachineClass then stays (another namespace, an object not
        // deleted), and would no longer convert without it.
        inUse ??= await machineClassesInUse(api, warnings);
        if (inUse.has('*') || inUse.has(identity(key))) {
          keptInUse.push(label);
          warnings.push(
            `${label} is still referred to by v1alpha1 objects that stay${inUse.has('*') ? ' (or could not be checked)' : ''}: not deleted`,
          );
          continue;
        }
      }
      const live = await api.get(key);
      if (live === undefined) continue;
      if (uidOf(live) !== uidOf(source)) {
        throw new MigrateFailure({
          code: 'verification',
          message: `${label} was replaced since it was read`,
          differences: [{ object: label, message: 'UID changed' }],
        });
      }
      // Verify judged the object as the plan read it: an edit since (a v1alpha1 spec changed
      // after verify) is not what was verified, and deleting it would lose the edit.
      if (metadataOf(live).resourceVersion !== metadataOf(source).resourceVersion) changed(label);
      else batch.push({ key, label, live });
    }
    // Recorded and marked before deleted: a crash in between leaves sources in place, which
    // verify sees. The record first: one that cannot be used stops prune before any write.
    await addPruned(
      api,
      batch.map((b) => b.live),
    );
    await markPruned(
      api,
      targets,
      batch.map((b) => b.live),
    );
    for (const { key, label, live } of batch) {
      let resourceVersion = String(metadataOf(live).resourceVersion ?? '');
      try {
        const finalizers = metadataOf(live).finalizers;
        if (Array.isArray(finalizers) && finalizers.length > 0) {
          const patched = await api.patch(key, { metadata: { finalizers: null, resourceVersion } }, false);
          finalizersCleared.push(label);
          resourceVersion = String(metadataOf(patched).resourceVersion ?? '');
        }
        // Default propagation (background). Whether orphan would be safer for dependents is not
        // decided here: envtest has no garbage collector to test it against.
        await api.delete(key, uidOf(live) ?? '', resourceVersion);
      } catch (error) {
        // 409: the resourceVersion precondition failed, edited between the read and the write.
        if (!isConflict(error)) throw error;
        changed(label);
        continue;
      }
      deleted.push(label);
    }
  }
  return { finalizersCleared, deleted, changedSinceVerify, keptInUse, warnings };
}

/** The MachineClass a `providerSpec` takes its value from, if any. */
function machineClassOf(providerSpec: unknown, namespace: string | undefined): ObjectKey | undefined {
  if (!isObject(providerSpec) || !isObject(providerSpec.valueFrom)) return undefined;
  const ref = providerSpec.valueFrom.machineClass;
  if (!isObject(ref) || typeof ref.name !== 'string') return undefined;
  const ns = typeof ref.namespace === 'string' && ref.namespace !== '' ? ref.namespace : namespace;
  return {
    apiVersion: V1ALPHA1,
    kind: 'MachineClass',
    name: ref.name,
    ...(ns === undefined ? {} : { namespace: ns }),
  };
}

/**
 * The identities of the MachineClasses that live v1alpha1 Machines, MachineSets and
 * MachineDeployments refer to, in every namespace. When they cannot be read (RBAC), `*`:
 * every MachineClass counts as in use, and the warning says why.
 */
async function machineClassesInUse(api: ClusterApi, warnings: string[]): Promise<Set<string>> {
  const inUse = new Set<string>();
  for (const kind of ['Machine', 'MachineSet', 'MachineDeployment']) {
    let items: JsonObject[];
    try {
      items = await api.list(V1ALPHA1, kind);
    } catch (error) {
      warnings.push(
        `could not check which MachineClasses are still in use (${kind}s in every namespace): ${error instanceof Error ? error.message : String(error)}; no MachineClass is deleted`,
      );
      return new Set(['*']);
    }
    for (const item of items) {
      const spec = isObject(item.spec) ? item.spec : {};
      const template = isObject(spec.template) && isObject(spec.template.spec) ? spec.template.spec : {};
      const namespace = keyOf(item).namespace;
      for (const providerSpec of [spec.providerSpec, template.providerSpec]) {
        const machineClass = machineClassOf(providerSpec, namespace);
        if (machineClass !== undefined) inUse.add(identity(machineClass));
      }
    }
  }
  return inUse;
}
