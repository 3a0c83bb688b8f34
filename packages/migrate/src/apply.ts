import { isObject, type JsonObject, V1ALPHA1 } from '@capi-kit/conversion';
import type { ClusterApi } from './cluster-api.js';
import { CONCURRENCY, forEachConcurrently } from './concurrency.js';
import { contentDifferences, nodeRefDifference } from './content.js';
import { MigrateFailure, type Problem } from './errors.js';
import { readLive } from './live.js';
import { annotationsOf, identity, labelOf, metadataOf, type ObjectKey, uidOf } from './object.js';
import {
  type MigrationPlan,
  type MigrationTarget,
  ownerReference,
  type PlannedObject,
  SOURCE_UID_ANNOTATION,
} from './plan.js';

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

/** Problems with the API groups themselves (both must be served at once), found before anything is read. */
export async function servedProblems(api: ClusterApi, to: MigrationTarget): Promise<Problem[]> {
  const served = await api.servedGroupVersions();
  return [V1ALPHA1, to]
    .filter((gv) => !served.has(gv))
    .map((gv) => ({
      object: gv,
      message: `${gv} is not served: ${gv === V1ALPHA1 ? 'there is nothing to migrate from' : `install the Cluster API CRDs that serve ${gv} first`}`,
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
 * A preflight check's refusal: the server's 4xx answer to a dry run or an access review
 * (a validation error, RBAC). No answer, an answer that is not a Kubernetes API answer, or
 * a 5xx is the cluster failing, not a refusal: thrown on as the API error it is.
 */
function refusalOf(object: string, error: unknown): Problem {
  if (
    error instanceof MigrateFailure &&
    error.error.code === 'api' &&
    error.error.status !== undefined &&
    error.error.status < 500
  )
    return problemOf(object, error);
  throw error;
}

/**
 * The live objects of the plan's names, or the server's refusal to list them (a 4xx, such as
 * RBAC). No answer, an answer that is not a Kubernetes List, or a 5xx is thrown on as the API
 * error it is: a plan that cannot see what is there must not report that nothing is in the way.
 */
async function readTargets(api: ClusterApi, plan: MigrationPlan): Promise<Map<string, JsonObject> | Problem> {
  try {
    return await readLive(
      api,
      plan.objects.map((p) => p.key),
    );
  } catch (error) {
    return refusalOf('the v1alpha2 objects', error);
  }
}

/**
 * The live objects of the plan's names that apply must not act on. One without the
 * source-UID annotation of its source is someone else's. One with it must also hold what
 * the migration writes (labels, spec, a Secret's data): the annotation is data anyone who
 * may create the object can write (a source's UID is readable by whoever reads it), so a
 * v1alpha2 Machine made beforehand with it and its own infrastructureRef, or a `<cluster>-ca`
 * Secret with its own key, would otherwise be taken for ours: owned by the new objects,
 * given their status, and kept. `verify` reports the same differences.
 */
function ownershipProblems(plan: MigrationPlan, live: ReadonlyMap<string, JsonObject>): Problem[] {
  const problems: Problem[] = [];
  for (const planned of plan.objects) {
    const existing = live.get(identity(planned.key));
    if (existing === undefined) continue;
    if (!isOurs(existing, planned)) {
      problems.push({
        object: labelOf(planned.key),
        message: `already exists and was not created from ${labelOf(planned.source)} by this migration (no ${SOURCE_UID_ANNOTATION}: ${planned.source.uid} annotation); refusing to overwrite it`,
      });
      continue;
    }
    const node = nodeRefProblem(planned, existing);
    if (node !== undefined) problems.push({ object: labelOf(planned.key), message: node });
    const controllers = controllersProblem(plan, planned, existing, live);
    if (controllers !== undefined) problems.push({ object: labelOf(planned.key), message: controllers });
    const differences = contentDifferences(planned.object, existing);
    if (differences.length > 0) {
      problems.push({
        object: labelOf(planned.key),
        message: `carries ${SOURCE_UID_ANNOTATION}: ${planned.source.uid} of ${labelOf(planned.source)}, but its ${differences.join(', ')} differ${differences.length === 1 ? 's' : ''} from the conversion of that object: not what this migration created (a forged annotation), or one of the two edited since; refusing to act on it (delete it, or make the two agree, and run again)`,
      });
    }
  }
  return problems;
}

/**
 * A Machine already there whose `status.nodeRef` names another Node than its v1alpha1
 * source's. Apply writes status only onto a target without one, and v0.2 never replaces a
 * nodeRef once set: a Machine made beforehand with the source-UID annotation, the converted
 * spec and a nodeRef to another Node would keep it, and deleting that Machine in v0.2
 * deletes the Node it names.
 */
function nodeRefProblem(planned: PlannedObject, live: JsonObject): string | undefined {
  const node = nodeRefDifference(planned.status, live);
  if (node === undefined) return undefined;
  return `carries ${SOURCE_UID_ANNOTATION}: ${planned.source.uid} of ${labelOf(planned.source)}, but its status.nodeRef names Node ${node.live}, not that object's ${node.source}: refusing to act on it (delete it, or correct its status, and run again)`;
}

const referenceText = (r: JsonObject) =>
  `${String(r.kind)} ${JSON.stringify(r.name)} (uid ${JSON.stringify(r.uid)})`;

/**
 * An object already there whose ownerReferences, once apply merges its own in, would name
 * two controllers: one there already (left by an earlier run, or written by someone else)
 * and the one its v1alpha1 source names now (edited since, or forged). The API server
 * refuses such a patch, half way through the apply (owners before what they own): refused
 * up front, naming both paths. The owners' UIDs are the live ones when they exist; an owner
 * still to be created stands in by its name (its new UID is in no reference yet).
 */
function controllersProblem(
  plan: MigrationPlan,
  planned: PlannedObject,
  existing: JsonObject,
  live: ReadonlyMap<string, JsonObject>,
): string | undefined {
  const uidOfOwner = (key: ObjectKey) => {
    const owner = live.get(identity(key));
    return (owner === undefined ? undefined : uidOf(owner)) ?? `(new UID of ${labelOf(key)})`;
  };
  const references = metadataOf(existing).ownerReferences;
  const current = Array.isArray(references) ? references.filter(isObject) : [];
  const merged = mergedReferences(references, desiredReferences(planned, uidOfOwner));
  if (merged === undefined) return undefined;
  const there = current.flatMap((r, i) => (r.controller === true && merged.includes(r) ? [{ r, i }] : []));
  const added = merged.filter((r) => r.controller === true && !current.includes(r));
  if (there.length + added.length <= 1 || added.length === 0) return undefined;
  const source = plan.sources.find((s) => uidOf(s) === planned.source.uid);
  const sourceReferences = source === undefined ? undefined : metadataOf(source).ownerReferences;
  const index = Array.isArray(sourceReferences)
    ? sourceReferences.findIndex((r) => isObject(r) && r.controller === true)
    : -1;
  const from = `${labelOf(planned.source)}${index < 0 ? '' : `'s metadata.ownerReferences[${index}]`}`;
  return `${there.map(({ r, i }) => `metadata.ownerReferences[${i}] names controller ${referenceText(r)}`).join(', ')}, and apply would add controller ${added.map((r) => `${String(r.kind)} ${JSON.stringify(r.name)}`).join(', ')} from ${from}: an object has at most one controller, so the API server would refuse the patch half way through the apply; refusing to act on it (remove the reference that is not its controller, here or on the v1alpha1 object, and run again)`;
}

/**
 * What `plan` reports of the objects already there under the plan's names (read-only):
 * the objects apply would refuse to act on, as preflight names them. An error reading them
 * is one more such line.
 */
export async function targetProblems(api: ClusterApi, plan: MigrationPlan): Promise<Problem[]> {
  // (a kind not served yet, its CRD not installed, holds nothing: preflight names it)
  const served = new Map<string, boolean>();
  for (const { key } of plan.objects) {
    const gvk = `${key.apiVersion}|${key.kind}`;
    if (!served.has(gvk)) served.set(gvk, (await api.resource(key.apiVersion, key.kind)) !== undefined);
  }
  const readable = {
    ...plan,
    objects: plan.objects.filter(({ key }) => served.get(`${key.apiVersion}|${key.kind}`)),
  };
  const live = await readTargets(api, readable);
  return live instanceof Map ? inPlanOrder(ownershipProblems(readable, live), plan) : [live];
}

/**
 * Checks everything that can be checked without writing: every kind is served, no object
 * of the same name belongs to someone else, and the server accepts every create (a
 * server-side dry run, which also proves the rights to create). Returns every problem.
 */
export async function preflight(api: ClusterApi, plan: MigrationPlan): Promise<Problem[]> {
  const problems: Problem[] = [];
  const unserved = new Set<string>();
  for (const planned of plan.objects) {
    const gvk = `${planned.key.apiVersion}|${planned.key.kind}`;
    if (unserved.has(gvk) || (await api.resource(planned.key.apiVersion, planned.key.kind)) !== undefined)
      continue;
    unserved.add(gvk);
    problems.push({
      object: labelOf(planned.key),
      message: `kind ${planned.key.kind} of ${planned.key.apiVersion} is not served: install its CRD`,
    });
  }
  if (problems.length > 0) return problems;

  const live = await readTargets(api, plan);
  if (!(live instanceof Map)) return [live];
  problems.push(...ownershipProblems(plan, live));
  if (problems.length > 0) return inPlanOrder(problems, plan);

  // Dry runs stand in for the owners' future UIDs with their sources' UIDs.
  const standIn = new Map(plan.objects.map((p) => [identity(p.key), p.source.uid]));
  const missing = plan.objects.filter((p) => live.get(identity(p.key)) === undefined);
  await forEachConcurrently(missing, CONCURRENCY, async (planned) => {
    try {
      await api.create(
        withOwners(planned, (key) => standIn.get(identity(key)) ?? ''),
        planned.key,
        true,
      );
    } catch (error) {
      problems.push(refusalOf(labelOf(planned.key), error));
    }
  });
  // A create does not prove the right to write status or to re-own Secrets: ask, once per question.
  const questions = new Map<string, { verb: string; key: ObjectKey; plural: string; subresource?: string }>();
  const question = async (verb: string, key: ObjectKey, subresource?: string) => {
    const resource = await api.resource(key.apiVersion, key.kind);
    if (resource === undefined) return;
    const text =
      `${verb} ${resource.name}${subresource === undefined ? '' : `/${subresource}`} ${key.namespace ?? ''}`.trim();
    if (!questions.has(text))
      questions.set(text, {
        verb,
        key,
        plural: resource.name,
        ...(subresource === undefined ? {} : { subresource }),
      });
  };
  for (const planned of plan.objects)
    if (planned.status !== undefined) await question('patch', planned.key, 'status');
  for (const secret of plan.secrets) await question('patch', secret.key);
  await forEachConcurrently([...questions], CONCURRENCY, async ([text, q]) => {
    try {
      if (!(await api.allowed(q.verb, q.key.apiVersion, q.plural, q.key.namespace, q.subresource))) {
        problems.push({ object: labelOf(q.key), message: `forbidden: cannot ${text}`, status: 403 });
      }
    } catch (error) {
      problems.push(refusalOf('SelfSubjectAccessReview', error));
    }
  });
  return inPlanOrder(problems, plan);
}

/** Problems found concurrently, sorted as the plan lists their objects. */
function inPlanOrder(problems: Problem[], plan: MigrationPlan): Problem[] {
  const rank = new Map(plan.objects.map((p, i) => [labelOf(p.key), i]));
  return problems.sort(
    (a, b) => (rank.get(a.object) ?? plan.objects.length) - (rank.get(b.object) ?? plan.objects.length),
  );
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
  const uids = new Map<string, string>();
  const uidOfOwner = (key: ObjectKey): string => {
    const uid = uids.get(identity(key));
    if (uid === undefined) throw new Error(`internal: owner ${labelOf(key)} is created after what it owns`);
    return uid;
  };
  const outcomes = new Map<string, Outcome>();
  const live = await readLive(api, [...plan.objects.map((p) => p.key), ...plan.secrets.map((s) => s.key)]);
  const migrateOne = async (planned: PlannedObject) => {
    const outcome = await migrateObject(api, planned, live.get(identity(planned.key)), uidOfOwner, dryRun);
    uids.set(identity(planned.key), outcome.uid);
    outcomes.set(identity(planned.key), outcome);
  };
  // Tiers run one after the other (owners first); the objects of a tier at once, each
  // followed by what was generated for it (which it owns).
  for (const tier of tiers(plan.objects)) {
    await forEachConcurrently(tier, CONCURRENCY, async (group) => {
      for (const planned of group) await migrateOne(planned);
    });
  }
  const reownedSecrets = new Set<string>();
  const warnings = [...plan.warnings];
  await forEachConcurrently(plan.secrets, CONCURRENCY, async ({ key, cluster }) => {
    const result = await reownSecret(
      api,
      key,
      live.get(identity(key)),
      cluster,
      uids.get(identity(cluster)),
      dryRun,
    );
    if (result === 'reowned') reownedSecrets.add(labelOf(key));
    else if (result !== 'owned') warnings.push(result);
  });

  const labels = (pick: (o: Outcome) => boolean) =>
    plan.objects.filter((p) => pick(outcomes.get(identity(p.key))!)).map((p) => labelOf(p.key));
  return {
    dryRun,
    created: labels((o) => o.created),
    alreadyPresent: labels((o) => !o.created),
    reowned: labels((o) => o.reowned),
    restoredStatus: labels((o) => o.restoredStatus),
    reownedSecrets: plan.secrets.map((s) => labelOf(s.key)).filter((l) => reownedSecrets.has(l)),
    warnings,
  };
}

interface Outcome {
  readonly uid: string;
  readonly created: boolean;
  readonly reowned: boolean;
  readonly restoredStatus: boolean;
}

/**
 * The plan's objects as tiers of groups: a group is a converted object and what was
 * generated for it; a tier is every group of one kind (Clusters, then MachineDeployments, …).
 */
function tiers(objects: readonly PlannedObject[]): PlannedObject[][][] {
  const out: PlannedObject[][][] = [];
  for (const planned of objects) {
    if (planned.generated) {
      out.at(-1)?.at(-1)?.push(planned);
      continue;
    }
    const tier = out.at(-1);
    if (tier !== undefined && tier[0]![0]!.key.kind === planned.key.kind) tier.push([planned]);
    else out.push([[planned]]);
  }
  return out;
}

/** Creates one object, or brings the one an earlier run created up to date. */
async function migrateObject(
  api: ClusterApi,
  planned: PlannedObject,
  seen: JsonObject | undefined,
  uidOfOwner: (key: ObjectKey) => string,
  dryRun: boolean,
): Promise<Outcome> {
  const label = labelOf(planned.key);
  let live = seen;
  let created: JsonObject | undefined;
  if (live === undefined) {
    try {
      created = await api.create(withOwners(planned, uidOfOwner), planned.key, dryRun);
    } catch (error) {
      // Created since it was read (another run, or someone else): judge what is there now.
      if (!(error instanceof MigrateFailure && error.error.code === 'api' && error.error.status === 409))
        throw error;
      live = await api.get(planned.key);
      if (live === undefined) throw error;
    }
  }
  if (live !== undefined && !isOurs(live, planned)) {
    throw new MigrateFailure({
      code: 'preflight',
      message: `${label} appeared during the migration and is not ours`,
      problems: [{ object: label, message: 'exists and was not created by this migration' }],
    });
  }
  let uid: string;
  let reowned = false;
  if (live === undefined) {
    uid = uidOf(created ?? {}) ?? '';
  } else {
    uid = uidOf(live) ?? '';
    const merged = mergedReferences(metadataOf(live).ownerReferences, desiredReferences(planned, uidOfOwner));
    if (merged !== undefined) {
      await api.patch(
        planned.key,
        { metadata: { ownerReferences: merged, resourceVersion: metadataOf(live).resourceVersion ?? null } },
        dryRun,
      );
      reowned = true;
    }
  }
  // Status is restored only onto a target that has none yet: the one just created, or one
  // left by a crash between its create and its status write. Once a status is there, a
  // controller may have moved it on; the v1alpha1 status is older and must not overwrite it.
  let restoredStatus = false;
  if (planned.status !== undefined && !hasStatus(live)) {
    // A dry-run create persists nothing, so there is no status subresource to write to.
    if (!(dryRun && live === undefined)) await api.patchStatus(planned.key, planned.status, dryRun);
    restoredStatus = true;
  }
  return { uid, created: live === undefined, reowned, restoredStatus };
}

/**
 * Adds the new Cluster to a Secret's owners (keeping the old ones), unless it is there.
 * Returns what happened, or a warning when there is nothing to do it with.
 */
async function reownSecret(
  api: ClusterApi,
  key: ObjectKey,
  secret: JsonObject | undefined,
  cluster: ObjectKey,
  clusterUid: string | undefined,
  dryRun: boolean,
): Promise<'reowned' | 'owned' | string> {
  const label = labelOf(key);
  if (secret === undefined) return `${label}: gone; not re-owned`;
  if (clusterUid === undefined) return `${label}: its ${labelOf(cluster)} was not migrated; not re-owned`;
  const references = metadataOf(secret).ownerReferences;
  const current = Array.isArray(references) ? references.filter(isObject) : [];
  if (current.some((r) => r.uid === clusterUid)) return 'owned';
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
  return 'reowned';
}

function hasStatus(live: JsonObject | undefined): boolean {
  return live !== undefined && isObject(live.status) && Object.keys(live.status).length > 0;
}

/** An ownerReference's owner: what a UID is of. */
const ownerOf = (r: JsonObject) => `${String(r.apiVersion)}|${String(r.kind)}|${String(r.name)}`;

/**
 * The live ownerReferences with ours merged in by UID, or undefined when nothing is missing.
 * Every reference someone else added is kept; one of ours is replaced only when it names
 * the same owner with another UID (a reference an interrupted run left pointing at a
 * source's UID, or at an owner that was created again).
 */
function mergedReferences(live: unknown, desired: readonly JsonObject[]): JsonObject[] | undefined {
  const current = Array.isArray(live) ? live.filter(isObject) : [];
  const uids = new Set(current.map((r) => r.uid));
  const missing = desired.filter((r) => !uids.has(r.uid));
  if (missing.length === 0) return undefined;
  const replaced = new Set(missing.map(ownerOf));
  return [...current.filter((r) => !replaced.has(ownerOf(r))), ...missing];
}
