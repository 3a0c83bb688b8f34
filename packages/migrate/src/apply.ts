import { isObject, type JsonObject, V1ALPHA1, V1ALPHA2 } from '@capi-kit/conversion';
import type { ClusterApi } from './cluster-api.js';
import { MigrateFailure, type Problem } from './errors.js';
import {
  annotationsOf,
  firstDifference,
  identity,
  labelOf,
  metadataOf,
  type ObjectKey,
  uidOf,
} from './object.js';
import { type MigrationPlan, ownerReference, type PlannedObject, SOURCE_UID_ANNOTATION } from './plan.js';

/** What an apply did (or, with `dryRun`, would do). */
export interface ApplySummary {
  readonly dryRun: boolean;
  /** Objects created, in creation order. */
  readonly created: readonly string[];
  /** Objects this migration had created before (a resumed or repeated run). */
  readonly alreadyPresent: readonly string[];
  /** Objects whose ownerReferences were rebuilt after an earlier, interrupted run. */
  readonly reowned: readonly string[];
  readonly restoredStatus: readonly string[];
  readonly reownedSecrets: readonly string[];
  readonly warnings: readonly string[];
}

/** The Cluster API group versions a migration needs served, both at once. */
export const REQUIRED_GROUP_VERSIONS = [V1ALPHA1, V1ALPHA2] as const;

/** Problems with the API groups themselves, found before anything is read. */
export async function servedProblems(api: ClusterApi): Promise<Problem[]> {
  const served = await api.servedGroupVersions();
  return REQUIRED_GROUP_VERSIONS.filter((gv) => !served.has(gv)).map((gv) => ({
    object: gv,
    message: `${gv} is not served: ${gv === V1ALPHA1 ? 'there is nothing to migrate from' : 'install the Cluster API v0.2 CRDs first'}`,
  }));
}

function isOurs(live: JsonObject, planned: PlannedObject): boolean {
  return annotationsOf(live)[SOURCE_UID_ANNOTATION] === planned.source.uid;
}

function problemOf(object: string, error: unknown): Problem {
  if (error instanceof MigrateFailure && error.error.code === 'api') {
    return {
      object,
      message: error.error.message,
      ...(error.error.status === undefined ? {} : { status: error.error.status }),
    };
  }
  throw error;
}

/**
 * Checks everything that can be checked without writing: every kind is served, no object
 * of the same name belongs to someone else, and the server accepts every create (a
 * server-side dry run, which also proves the rights to create). Returns every problem.
 */
export async function preflight(api: ClusterApi, plan: MigrationPlan): Promise<Problem[]> {
  const problems: Problem[] = [];
  const unserved = new Set<string>();
  const live = new Map<string, JsonObject | undefined>();
  for (const planned of plan.objects) {
    const label = labelOf(planned.key);
    const gvk = `${planned.key.apiVersion}|${planned.key.kind}`;
    if (unserved.has(gvk)) continue;
    if ((await api.resource(planned.key.apiVersion, planned.key.kind)) === undefined) {
      unserved.add(gvk);
      problems.push({
        object: label,
        message: `kind ${planned.key.kind} of ${planned.key.apiVersion} is not served: install its CRD`,
      });
      continue;
    }
    try {
      const existing = await api.get(planned.key);
      live.set(identity(planned.key), existing);
      if (existing !== undefined && !isOurs(existing, planned)) {
        problems.push({
          object: label,
          message: `already exists and was not created from ${labelOf(planned.source)} by this migration (no ${SOURCE_UID_ANNOTATION}: ${planned.source.uid} annotation); refusing to overwrite it`,
        });
      }
    } catch (error) {
      problems.push(problemOf(label, error));
    }
  }
  if (problems.length > 0) return problems;

  // Dry runs stand in for the owners' future UIDs with their sources' UIDs.
  const standIn = new Map(plan.objects.map((p) => [identity(p.key), p.source.uid]));
  for (const planned of plan.objects) {
    if (live.get(identity(planned.key)) !== undefined) continue;
    try {
      await api.create(
        withOwners(planned, (key) => standIn.get(identity(key)) ?? ''),
        planned.key,
        true,
      );
    } catch (error) {
      problems.push(problemOf(labelOf(planned.key), error));
    }
  }
  // A create does not prove the right to write status or to re-own Secrets: ask.
  const asked = new Set<string>();
  const ask = async (verb: string, key: ObjectKey, subresource?: string) => {
    const resource = await api.resource(key.apiVersion, key.kind);
    if (resource === undefined) return;
    const question = `${verb} ${resource.name}${subresource === undefined ? '' : `/${subresource}`} ${key.namespace ?? ''}`;
    if (asked.has(question)) return;
    asked.add(question);
    if (!(await api.allowed(verb, key.apiVersion, resource.name, key.namespace, subresource))) {
      problems.push({ object: labelOf(key), message: `forbidden: cannot ${question.trim()}`, status: 403 });
    }
  };
  try {
    for (const planned of plan.objects)
      if (planned.status !== undefined) await ask('patch', planned.key, 'status');
    for (const secret of plan.secrets) await ask('patch', secret.key);
  } catch (error) {
    problems.push(problemOf('SelfSubjectAccessReview', error));
  }
  return problems;
}

/** The create request with its Cluster API ownerReferences pointing at the owners' current UIDs. */
function withOwners(planned: PlannedObject, uidOfOwner: (key: ObjectKey) => string): JsonObject {
  const references = desiredReferences(planned, uidOfOwner);
  const metadata = { ...metadataOf(planned.object) };
  if (references.length > 0) metadata.ownerReferences = references;
  return { ...planned.object, metadata };
}

function desiredReferences(planned: PlannedObject, uidOfOwner: (key: ObjectKey) => string): JsonObject[] {
  const kept = metadataOf(planned.object).ownerReferences;
  return [
    ...(Array.isArray(kept) ? kept.filter(isObject) : []),
    ...planned.owners.map((link) => ownerReference(link, uidOfOwner(link.owner))),
  ];
}

/**
 * Creates what is missing, in order, and repairs what an interrupted run left half done:
 * ownerReferences rebuilt with the owners' new UIDs, status restored through the status
 * subresource, the Clusters' Secrets given an owner that survives the old Cluster. An
 * object already right is not written again.
 */
export async function execute(api: ClusterApi, plan: MigrationPlan, dryRun: boolean): Promise<ApplySummary> {
  const summary = {
    dryRun,
    created: [] as string[],
    alreadyPresent: [] as string[],
    reowned: [] as string[],
    restoredStatus: [] as string[],
    reownedSecrets: [] as string[],
    warnings: [...plan.warnings],
  };
  const uids = new Map<string, string>();
  const uidOfOwner = (key: ObjectKey): string => {
    const uid = uids.get(identity(key));
    if (uid === undefined) throw new Error(`internal: owner ${labelOf(key)} is created after what it owns`);
    return uid;
  };

  for (const planned of plan.objects) {
    const label = labelOf(planned.key);
    const live = await api.get(planned.key);
    if (live !== undefined && !isOurs(live, planned)) {
      throw new MigrateFailure({
        code: 'preflight',
        message: `${label} appeared during the migration and is not ours`,
        problems: [{ object: label, message: 'exists and was not created by this migration' }],
      });
    }
    let uid: string;
    if (live === undefined) {
      const created = await api.create(withOwners(planned, uidOfOwner), planned.key, dryRun);
      uid = uidOf(created) ?? '';
      summary.created.push(label);
    } else {
      uid = uidOf(live) ?? '';
      summary.alreadyPresent.push(label);
      const desired = desiredReferences(planned, uidOfOwner);
      if (
        JSON.stringify(normalized(metadataOf(live).ownerReferences)) !== JSON.stringify(normalized(desired))
      ) {
        await api.patch(
          planned.key,
          {
            metadata: { ownerReferences: desired, resourceVersion: metadataOf(live).resourceVersion ?? null },
          },
          dryRun,
        );
        summary.reowned.push(label);
      }
    }
    uids.set(identity(planned.key), uid);
    if (planned.status !== undefined) {
      const current = live === undefined ? undefined : live.status;
      if (firstDifference(planned.status, current) !== undefined) {
        // A dry-run create persists nothing, so there is no status subresource to write to.
        if (!(dryRun && live === undefined)) await api.patchStatus(planned.key, planned.status, dryRun);
        summary.restoredStatus.push(label);
      }
    }
  }

  for (const { key, cluster } of plan.secrets) {
    const label = labelOf(key);
    const secret = await api.get(key);
    const clusterUid = uids.get(identity(cluster));
    if (secret === undefined || clusterUid === undefined) {
      summary.warnings.push(
        `${label}: ${secret === undefined ? 'gone' : `its ${labelOf(cluster)} was not migrated`}; not re-owned`,
      );
      continue;
    }
    const references = metadataOf(secret).ownerReferences;
    const current = Array.isArray(references) ? references.filter(isObject) : [];
    if (current.some((r) => r.uid === clusterUid)) continue;
    const reference = ownerReference({ owner: cluster }, clusterUid);
    await api.patch(
      key,
      {
        metadata: {
          ownerReferences: [...current, reference],
          resourceVersion: metadataOf(secret).resourceVersion ?? null,
        },
      },
      dryRun,
    );
    summary.reownedSecrets.push(label);
  }
  return summary;
}

/** ownerReferences as compared: the fields a migration sets, in a fixed order. */
function normalized(references: unknown): unknown[] {
  if (!Array.isArray(references)) return [];
  return references
    .filter(isObject)
    .map((r) => [r.apiVersion, r.kind, r.name, r.uid, r.controller, r.blockOwnerDeletion]);
}
