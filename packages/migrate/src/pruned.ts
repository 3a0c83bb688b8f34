import { isObject, type JsonObject } from '@capi-kit/conversion';
import type { ClusterApi } from './cluster-api.js';
import { CONCURRENCY, forEachConcurrently } from './concurrency.js';
import { isConflict, MigrateFailure } from './errors.js';
import { annotationsOf, keyOf, labelOf, metadataOf, type ObjectKey, uidOf } from './object.js';
import { type PlannedObject, SOURCE_UID_ANNOTATION } from './plan.js';

/**
 * Prune's record of the v1alpha1 objects it deleted: a ConfigMap in their namespace whose
 * `data.uids` holds their UIDs, one a line. With it, and with `SOURCE_PRUNED_ANNOTATION` on
 * the object itself, verify tells the targets of a source that prune deleted (the migration
 * done) from those of a source gone otherwise (orphans).
 */
export const PRUNED_RECORD = 'capi-kit-migrate-pruned';

/**
 * Written by prune on every object the migration created from a v1alpha1 object it is about
 * to delete, with that object's UID (the value of `SOURCE_UID_ANNOTATION`). Verify takes an
 * object whose source is gone for done only when the record lists the source's UID AND the
 * object carries this annotation with the same UID.
 *
 * Why on the object: the record is a ConfigMap, and nothing prune can put in one (a label,
 * an ownerReference, the v1alpha2 objects' own UIDs, which anyone who may read them knows)
 * is beyond whoever may create ConfigMaps in the namespace: alone, it cannot tell a forged
 * entry from prune's. The annotation needs a write to the object itself, and whoever may
 * write that object can already hide it from verify (remove its source-UID annotation, or
 * delete it): trusting it trusts no one verify did not trust already. A forged record with
 * no annotation (or an annotation with no record) changes nothing. A key signed by capi-kit
 * would need a secret kept somewhere: a larger design, for no more than this gives.
 */
export const SOURCE_PRUNED_ANNOTATION = 'migrate.capi-kit.dev/source-pruned';
const LABEL = ['app.kubernetes.io/managed-by', 'capi-kit'] as const;
/** The API server's UIDs are RFC 4122 UUIDs. */
const UID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
/**
 * A ConfigMap holds at most 1 MiB. A UID and its newline are 37 bytes: 20,000 UIDs are
 * 740,000 bytes, room to spare for the metadata (a 500-Machine migration deletes ~520).
 */
const MAX_UIDS = 20_000;
/** Tries of a record update that another writer keeps overtaking (409 Conflict). */
const ATTEMPTS = 5;

function recordKey(namespace: string): ObjectKey {
  return { apiVersion: 'v1', kind: 'ConfigMap', namespace, name: PRUNED_RECORD };
}

function unusable(key: ObjectKey, why: string): MigrateFailure {
  const label = labelOf(key);
  return new MigrateFailure({
    code: 'verification',
    message: `${label}, prune's record of the v1alpha1 objects it deleted, cannot be used: ${why}`,
    differences: [{ object: label, message: why }],
  });
}

/** The UIDs a record holds; a record that is not capi-kit's or not one UID a line is refused. */
function uidsIn(record: JsonObject, key: ObjectKey): Set<string> {
  const labels = metadataOf(record).labels;
  if (!isObject(labels) || labels[LABEL[0]] !== LABEL[1])
    throw unusable(key, `it is not labelled ${LABEL.join('=')}, so not capi-kit's`);
  const text = isObject(record.data) ? record.data.uids : undefined;
  if (typeof text !== 'string') throw unusable(key, 'it has no data.uids');
  const lines = text === '' ? [] : text.replace(/\n$/, '').split('\n');
  const bad = lines.findIndex((line) => !UID.test(line));
  if (bad >= 0)
    throw unusable(
      key,
      `line ${bad + 1} of data.uids is not a UID: ${JSON.stringify(lines[bad]?.slice(0, 40))}`,
    );
  return new Set(lines);
}

/** The UIDs of the sources prune deleted in `namespaces`; none where there is no record. */
export async function readPruned(api: ClusterApi, namespaces: readonly string[]): Promise<Set<string>> {
  const uids = new Set<string>();
  for (const namespace of new Set(namespaces)) {
    const key = recordKey(namespace);
    const record = await api.get(key);
    for (const uid of record === undefined ? [] : uidsIn(record, key)) uids.add(uid);
  }
  return uids;
}

/**
 * Adds the UIDs of `objects`, about to be deleted, to the record of their namespace
 * (created when missing). Each update carries the resourceVersion it read: on a 409
 * Conflict (another prune wrote first) it reads the record again and retries.
 */
export async function addPruned(api: ClusterApi, objects: readonly JsonObject[]): Promise<void> {
  const byNamespace = new Map<string, string[]>();
  for (const object of objects) {
    const namespace = keyOf(object).namespace ?? 'default';
    const uids = byNamespace.get(namespace) ?? [];
    byNamespace.set(namespace, uids);
    uids.push(uidOf(object) ?? '');
  }
  for (const [namespace, uids] of byNamespace) {
    const key = recordKey(namespace);
    for (let attempt = 1; ; attempt++) {
      const record = await api.get(key);
      const all = record === undefined ? new Set<string>() : uidsIn(record, key);
      const size = all.size;
      for (const uid of uids) if (uid !== '') all.add(uid);
      if (all.size === size) break;
      if (all.size > MAX_UIDS) throw unusable(key, `it would hold ${all.size} UIDs, more than ${MAX_UIDS}`);
      const data = { uids: [...all].map((uid) => `${uid}\n`).join('') };
      try {
        if (record === undefined) {
          const metadata = { name: key.name, namespace, labels: { [LABEL[0]]: LABEL[1] } };
          await api.create({ apiVersion: 'v1', kind: 'ConfigMap', metadata, data }, key, false);
        } else {
          const resourceVersion = String(metadataOf(record).resourceVersion ?? '');
          await api.patch(key, { metadata: { resourceVersion }, data }, false);
        }
        break;
      } catch (error) {
        // 409: another writer created or changed the record since it was read: read it again.
        if (!isConflict(error) || attempt >= ATTEMPTS) throw error;
      }
    }
  }
}

/**
 * Marks every planned object whose source is among `sources` (about to be deleted) with
 * `SOURCE_PRUNED_ANNOTATION`, after the record and before the deletes: a crash in between leaves
 * the sources in place, and verify judges an object whose source is present by the plan,
 * whatever it carries. Each object is read first and marked only while it still carries its
 * source's UID (one replaced since verify is not marked), under the resourceVersion read: on
 * a 409 Conflict (a v0.2 controller wrote its status, say) it is read again. One already
 * marked is not written again.
 */
export async function markPruned(
  api: ClusterApi,
  targets: readonly PlannedObject[],
  sources: readonly JsonObject[],
): Promise<void> {
  const uids = new Set(sources.map(uidOf));
  const marked = targets.filter((target) => uids.has(target.source.uid));
  await forEachConcurrently(marked, CONCURRENCY, async ({ key, source }) => {
    for (let attempt = 1; ; attempt++) {
      const live = await api.get(key);
      if (live === undefined) return;
      const annotations = annotationsOf(live);
      if (annotations[SOURCE_UID_ANNOTATION] !== source.uid) return;
      if (annotations[SOURCE_PRUNED_ANNOTATION] === source.uid) return;
      const resourceVersion = String(metadataOf(live).resourceVersion ?? '');
      try {
        await api.patch(
          key,
          { metadata: { resourceVersion, annotations: { [SOURCE_PRUNED_ANNOTATION]: source.uid } } },
          false,
        );
        return;
      } catch (error) {
        if (!isConflict(error) || attempt >= ATTEMPTS) throw error;
      }
    }
  });
}
