import { type GeneratedKind, isObject, type JsonObject, V1ALPHA1 } from '@capi-kit/conversion';
import type { ClusterApi } from './cluster-api.js';
import { contentDifferences, nodeRefDifference } from './content.js';
import type { Problem } from './errors.js';
import { namespaceOf, type Scope } from './inventory.js';
import { type ListRequest, listKinds } from './live.js';
import { annotationsOf, identity, keyOf, labelOf, metadataOf, type ObjectKey, uidOf } from './object.js';
import {
  CREATION_ORDER,
  isBeingDeleted,
  type MigrationPlan,
  type MigrationTarget,
  SOURCE_UID_ANNOTATION,
} from './plan.js';
import { readPruned, SOURCE_PRUNED_ANNOTATION } from './pruned.js';

export interface VerifyResult {
  /** Objects checked: the planned v1alpha2 objects and the Secrets to re-own. */
  readonly checked: number;
  /** Empty when the migration is complete. */
  readonly differences: readonly Problem[];
}

const isCapiKind = (kind: unknown) => (CREATION_ORDER as readonly unknown[]).includes(kind);

/**
 * The v1alpha1 object an object `apply` created came from, as far as it says: a Cluster
 * API object has its source's kind and name; a generated one is owned by the Cluster or
 * Machine it was generated for. Templates say nothing (undefined).
 */
function sourceNamed(object: JsonObject, to: MigrationTarget): ObjectKey | undefined {
  const key = keyOf(object);
  if (key.apiVersion === to && isCapiKind(key.kind)) return key;
  const references = metadataOf(object).ownerReferences;
  const owner = (Array.isArray(references) ? references.filter(isObject) : []).find(
    (r) => r.apiVersion === to && isCapiKind(r.kind),
  );
  return owner === undefined ? undefined : { ...key, kind: String(owner.kind), name: String(owner.name) };
}

/**
 * Why an object `apply` created (it has the source-UID annotation) is not in the plan: its
 * v1alpha1 source was deleted since, is being deleted, or no longer converts to it.
 */
function orphanedBecause(
  object: JsonObject,
  uid: string,
  sources: ReadonlyMap<string | undefined, JsonObject>,
  to: MigrationTarget,
  /** Prune's record lists `uid`, the object does not agree. */
  recorded: boolean,
): string {
  const source = sources.get(uid);
  if (source !== undefined) {
    const label = labelOf(keyOf(source));
    return isBeingDeleted(source)
      ? `its v1alpha1 source ${label} is being deleted`
      : `its v1alpha1 source ${label} no longer converts to it`;
  }
  const named = sourceNamed(object, to);
  const gone = `its v1alpha1 source ${named === undefined ? `(UID ${uid})` : labelOf(named)} no longer exists`;
  return recorded
    ? `${gone} (prune's record lists it, but the object does not carry ${SOURCE_PRUNED_ANNOTATION}: ${uid}, which prune writes with it)`
    : gone;
}

/**
 * Whether every v1alpha1 object has its v1alpha2 counterpart (ours, with the content and
 * labels the conversion gives — fields the server or a controller added are not differences), every
 * ownerReference points at a live UID (none still at the v1alpha1 objects), every
 * Cluster's Secrets are owned by the new Cluster, and no object an earlier `apply` created
 * (the source-UID annotation) is left in scope without its source in the plan, unless
 * prune deleted that source (its record, `readPruned`, and the object's
 * `SOURCE_PRUNED_ANNOTATION` agree). That is looked for among the Cluster
 * API kinds, the plan's and `generates` (what the plug-ins can make), whether or not the
 * plan still has any of them. Objects without the annotation are the user's and are not
 * judged.
 */
export async function verify(
  api: ClusterApi,
  plan: MigrationPlan,
  scope: Scope,
  /** The kinds the plug-ins can generate (their `generates`), listed even when the plan has none. */
  generates: readonly GeneratedKind[] = [],
): Promise<VerifyResult> {
  const differences: Problem[] = [];
  const live = new Map<string, JsonObject>();
  const keys = [...plan.objects.map((p) => p.key), ...plan.secrets.map((s) => s.key)];
  const namespace = namespaceOf(scope);
  const inScope = namespace === undefined ? {} : { namespace };
  const isCore = (request: ListRequest) => !request.apiVersion.includes('/');
  // Every object of the kinds the migration creates, in scope: the planned ones and any an
  // earlier apply created that the plan no longer has. Those are the Cluster API kinds, the
  // plan's kinds, and every kind the plug-ins can generate: a plan whose only AWS Machine
  // was deleted has no AWSMachine any more, but the one apply made for it is still there. A
  // generated kind the server does not serve (its CRD not installed) holds nothing apply
  // made: it is skipped.
  const planKinds = new Set(keys.map((key) => `${key.apiVersion}|${key.kind}`));
  const generatedKinds = new Map<string, GeneratedKind>();
  for (const kind of generates) generatedKinds.set(`${kind.apiVersion}|${kind.kind}`, kind);
  const unplannedKinds: ListRequest[] = [];
  for (const [gvk, { apiVersion, kind }] of generatedKinds) {
    if (planKinds.has(gvk) || isCore({ apiVersion, kind })) continue;
    if ((await api.resource(apiVersion, kind)) !== undefined)
      unplannedKinds.push({ apiVersion, kind, ...inScope });
  }
  const custom = await listKinds(api, [
    ...CREATION_ORDER.map((kind) => ({ apiVersion: plan.to, kind, ...inScope })),
    ...keys
      .filter((key) => !isCore(key))
      .map((key) => ({ apiVersion: key.apiVersion, kind: key.kind, ...inScope })),
    ...unplannedKinds,
  ]);
  // Secrets (core) only in the namespaces the migration is about, as the inventory reads
  // them: the scope's one, else those of the plan and of every object an apply created.
  const namespaces = new Set<string>();
  if (namespace !== undefined) namespaces.add(namespace);
  else {
    for (const key of keys) namespaces.add(key.namespace ?? 'default');
    for (const source of plan.sources) namespaces.add(keyOf(source).namespace ?? 'default');
    for (const object of custom)
      if (typeof annotationsOf(object)[SOURCE_UID_ANNOTATION] === 'string')
        namespaces.add(keyOf(object).namespace ?? 'default');
  }
  const core = await listKinds(api, [
    ...keys.filter(isCore),
    ...[...generatedKinds.values()]
      .filter(isCore)
      .flatMap(({ apiVersion, kind }) => [...namespaces].map((ns) => ({ apiVersion, kind, namespace: ns }))),
  ]);
  const listed = [...custom, ...core];
  const fetched = new Map(listed.map((object) => [identity(keyOf(object)), object]));
  for (const planned of plan.objects) {
    const object = fetched.get(identity(planned.key));
    const label = labelOf(planned.key);
    if (object === undefined) {
      differences.push({ object: label, message: `missing (the counterpart of ${labelOf(planned.source)})` });
      continue;
    }
    live.set(identity(planned.key), object);
    if (annotationsOf(object)[SOURCE_UID_ANNOTATION] !== planned.source.uid) {
      differences.push({
        object: label,
        message: `not created from ${labelOf(planned.source)} (${SOURCE_UID_ANNOTATION} differs)`,
      });
      continue;
    }
    const node = nodeRefDifference(planned.status, object);
    if (node !== undefined) {
      differences.push({
        object: label,
        message: `status.nodeRef names Node ${node.live}, not ${node.source} as ${labelOf(planned.source)} does (v0.2 keeps a nodeRef once set, and deletes that Node with the Machine)`,
      });
    }
    for (const path of contentDifferences(planned.object, object)) {
      differences.push({
        object: label,
        message: `${path} differs from the converted ${labelOf(planned.source)}`,
      });
    }
  }

  // An owner is looked up in what was listed, else read once: every Machine of a MachineSet
  // that is gone named it, and each read it again.
  const reads = new Map<string, Promise<string | undefined>>();
  const uidOfLive = (key: ObjectKey): Promise<string | undefined> => {
    const id = identity(key);
    const known = fetched.get(id);
    if (known !== undefined) return Promise.resolve(uidOf(known));
    let read = reads.get(id);
    if (read === undefined) {
      read = api.get(key).then((object) => (object === undefined ? undefined : uidOf(object)));
      reads.set(id, read);
    }
    return read;
  };
  for (const planned of plan.objects) {
    const object = live.get(identity(planned.key));
    if (object === undefined) continue;
    const label = labelOf(planned.key);
    const references = metadataOf(object).ownerReferences;
    const refs = Array.isArray(references) ? references.filter(isObject) : [];
    for (const ref of refs) {
      if (ref.apiVersion === V1ALPHA1) {
        differences.push({
          object: label,
          message: `ownerReference to ${V1ALPHA1} ${String(ref.kind)} ${String(ref.name)} is stale`,
        });
      } else if (ref.apiVersion === plan.to && isCapiKind(ref.kind)) {
        // (a reference of another kind was kept as the v1alpha1 object had it: not ours to judge)
        const owner = {
          apiVersion: plan.to,
          kind: String(ref.kind),
          name: String(ref.name),
          ...(planned.key.namespace === undefined ? {} : { namespace: planned.key.namespace }),
        };
        if ((await uidOfLive(owner)) !== ref.uid) {
          differences.push({
            object: label,
            message: `ownerReference to ${labelOf(owner)} points at UID ${String(ref.uid)}, which is not live`,
          });
        }
      }
    }
    for (const link of planned.owners) {
      if (
        !refs.some(
          (r) =>
            r.kind === link.owner.kind &&
            r.name === link.owner.name &&
            r.apiVersion === link.owner.apiVersion,
        )
      ) {
        differences.push({ object: label, message: `has no ownerReference to ${labelOf(link.owner)}` });
      }
    }
  }

  for (const { key, cluster } of plan.secrets) {
    const secret = fetched.get(identity(key));
    if (secret === undefined) continue;
    const uid = await uidOfLive(cluster);
    const references = metadataOf(secret).ownerReferences;
    const owned =
      Array.isArray(references) && references.some((r) => isObject(r) && uid !== undefined && r.uid === uid);
    if (!owned) differences.push({ object: labelOf(key), message: `not owned by ${labelOf(cluster)}` });
  }

  const planned = new Set(keys.map(identity));
  const unplanned = listed.flatMap((object) => {
    const uid = annotationsOf(object)[SOURCE_UID_ANNOTATION];
    const ours = typeof uid === 'string' && uid !== '' && !planned.has(identity(keyOf(object)));
    return ours ? [{ object, uid }] : [];
  });
  // A source gone because prune deleted it leaves no orphan: that migration is done. Prune
  // says so twice, in its record and on the object (SOURCE_PRUNED_ANNOTATION, with the same
  // UID): both must agree. The record alone is a ConfigMap anyone who may create one in the
  // namespace can write; the annotation needs a write to the object, which could already hide
  // it from verify (see SOURCE_PRUNED_ANNOTATION). The record is read only in the namespaces
  // where a source is gone.
  // (by UID, looked up once per orphan: many orphans must not each scan every source)
  const present = new Map(plan.sources.map((source) => [uidOf(source), source]));
  const gone = unplanned.filter(({ uid }) => !present.has(uid));
  const pruned = await readPruned(
    api,
    gone.map(({ object }) => keyOf(object).namespace ?? 'default'),
  );
  const done = (object: JsonObject, uid: string) =>
    pruned.has(uid) && annotationsOf(object)[SOURCE_PRUNED_ANNOTATION] === uid;
  const orphans: Problem[] = unplanned
    .filter(({ object, uid }) => present.has(uid) || !done(object, uid))
    .map(({ object, uid }) => ({
      object: labelOf(keyOf(object)),
      message: orphanedBecause(object, uid, present, plan.to, !present.has(uid) && pruned.has(uid)),
    }));
  // (the lists ran concurrently: sorted, the report reads the same every run)
  orphans.sort((a, b) => a.object.localeCompare(b.object));
  for (const orphan of orphans) differences.push(orphan);
  return { checked: plan.objects.length + plan.secrets.length, differences };
}
