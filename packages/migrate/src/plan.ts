import {
  type ChainVersion,
  CONTROL_PLANE_LABEL,
  CONVERSION_DATA_ANNOTATION,
  type ConversionError,
  type ConversionPlugin,
  type ConversionReport,
  convertDocuments,
  formatConversionError,
  type InputDocument,
  isChainVersion,
  isObject,
  type JsonObject,
  V1ALPHA1,
  V1ALPHA2,
} from '@capi-kit/conversion';
import { capiConstants } from '@capi-kit/core/objects';
import * as E from 'fp-ts/lib/Either.js';
import type { MigrateError } from './errors.js';
import { CLUSTER_SECRET_PURPOSES, type Inventory } from './inventory.js';
import {
  annotationsOf,
  creatable,
  identity,
  keyOf,
  labelOf,
  metadataOf,
  type ObjectKey,
  uidOf,
} from './object.js';

/**
 * Every object a migration creates carries the UID of the v1alpha1 object it came from.
 * It is how a second run (or a run after a crash) tells its own objects from someone
 * else's, and how `verify` pairs the versions.
 */
export const SOURCE_UID_ANNOTATION = 'migrate.capi-kit.dev/source-uid';

/**
 * The version a migration creates: v1alpha2 (what v0.2 controllers read, the default), or
 * any later one, straight from v1alpha1 along the conversion chain.
 */
export type MigrationTarget = Exclude<ChainVersion, typeof V1ALPHA1>;

export function isMigrationTarget(value: unknown): value is MigrationTarget {
  return isChainVersion(value) && value !== V1ALPHA1;
}

/** Cluster API kinds that v1alpha2 keeps, in creation order: owners first. */
export const CREATION_ORDER = ['Cluster', 'MachineDeployment', 'MachineSet', 'Machine'] as const;
/** The API group of v1alpha1, whose objects prune deletes. */
const V1ALPHA1_GROUP = 'cluster.k8s.io';
/** The API groups of Cluster API v0.1 and of every later version. */
const CAPI_GROUPS = new Set([V1ALPHA1_GROUP, 'cluster.x-k8s.io']);
const creationRank = (kind: string) => (CREATION_ORDER as readonly string[]).indexOf(kind);
/** Kinds whose objects own what a provider plug-in generated for them (InfraMachine, BootstrapConfig, InfraCluster, key-pair Secrets). */
const OWNS_GENERATED = new Set(['Cluster', 'Machine']);

/** An ownerReference to rebuild once the owner exists and its new UID is known. */
export interface OwnerLink {
  readonly owner: ObjectKey;
  readonly controller?: boolean;
  readonly blockOwnerDeletion?: boolean;
}

export interface PlannedObject {
  readonly key: ObjectKey;
  /** The create request: no server-owned metadata, no status, only the ownerReferences that need no rebuilding. */
  readonly object: JsonObject;
  /** The v1alpha1 object this one comes from. */
  readonly source: ObjectKey & { readonly uid: string };
  /** Made by a provider plug-in (infrastructure, bootstrap, templates, key pairs) rather than converted. */
  readonly generated: boolean;
  readonly owners: readonly OwnerLink[];
  /** What the create drops and the status subresource must restore. */
  readonly status?: JsonObject;
}

export interface SecretToReown {
  readonly key: ObjectKey;
  /** The v1alpha2 Cluster that will own it. */
  readonly cluster: ObjectKey;
}

export interface MigrationPlan {
  /** The version the objects are created in. */
  readonly to: MigrationTarget;
  /** In creation order. */
  readonly objects: readonly PlannedObject[];
  readonly secrets: readonly SecretToReown[];
  /** The v1alpha1 objects migrated (what `prune` deletes once `verify` passes). */
  readonly sources: readonly JsonObject[];
  readonly warnings: readonly string[];
}

const isConverted = (o: JsonObject, to: ChainVersion) =>
  o.apiVersion === to && (CREATION_ORDER as readonly unknown[]).includes(o.kind);

/** Converts what the inventory holds into the objects to create, in order, with what to rebuild. */
export function planMigration(
  inventory: Inventory,
  plugins: readonly ConversionPlugin[],
  to: MigrationTarget = V1ALPHA2,
): E.Either<MigrateError, MigrationPlan> {
  // An object being deleted is not migrated: a copy would be a live object its controllers
  // act on (a Machine half-way through a scale-down would come back). It stays a source, so
  // prune still clears its finalizers and deletes it. MachineClasses are read, never created.
  const deleting = inventory.objects.filter((o) => o.kind !== 'MachineClass' && isBeingDeleted(o));
  const skipped = new Set(deleting);
  const documents: InputDocument[] = inventory.objects
    .filter((o) => !skipped.has(o))
    .map((value, index) => ({ index, value }));
  const clashes = documents.flatMap((d) =>
    isObject(d.value)
      ? [...clusterLabelClashes(d.value), ...controlPlaneLabelClashes(d.value), ...stashProblems(d.value)]
      : [],
  );
  if (clashes.length > 0) return E.left({ code: 'conversion', message: clashes.join('\n') });
  const converted = convertDocuments(documents, { to, plugins, source: 'cluster' });
  if (E.isLeft(converted)) {
    return E.left({
      code: 'conversion',
      message: converted.left.map((e) => conversionProblem(e, documents)).join('\n'),
    });
  }
  const sources = new Map(inventory.objects.map((o) => [identity(keyOf(o)), o]));
  const warnings = [
    ...deleting.map(
      (o) =>
        `${labelOf(keyOf(o))} is being deleted: not migrated (let its v0.1 controller finish first; prune clears its finalizers)`,
    ),
    ...(inventory.lookalikes ?? []).map(
      ({ secret, cluster }) =>
        `${labelOf(keyOf(secret))} is named like Cluster ${cluster}'s, but the Cluster does not own it and it is none of Cluster API's Secrets (${CLUSTER_SECRET_PURPOSES.join(', ')}): not re-owned`,
    ),
    ...conversionWarnings(converted.right.report),
  ];

  // The conversion writes each converted object followed by what plug-ins made for it.
  const groups: { head: JsonObject; source: JsonObject; generated: JsonObject[] }[] = [];
  for (const document of converted.right.documents) {
    if (!isObject(document)) continue;
    if (isConverted(document, to)) {
      const source = sources.get(identity({ ...keyOf(document), apiVersion: V1ALPHA1 }));
      if (source === undefined) continue;
      groups.push({ head: document, source, generated: [] });
    } else {
      groups.at(-1)?.generated.push(document);
    }
  }
  groups.sort(
    (a, b) => CREATION_ORDER.indexOf(a.head.kind as never) - CREATION_ORDER.indexOf(b.head.kind as never),
  );

  // Each converted object's identity, with the UID of the v1alpha1 object it comes from.
  const planned = new Map(groups.map((g) => [identity(keyOf(g.head)), uidOf(g.source)]));
  const objects: PlannedObject[] = [];
  const forged: string[] = [];
  for (const { head, source, generated } of groups) {
    const sourceKey = { ...keyOf(source), uid: uidOf(source) ?? '' };
    const headKey = keyOf(head);
    const { owners, kept } = ownerLinks(head, to, planned, warnings, forged);
    objects.push(plannedObject(head, sourceKey, false, owners, kept));
    for (const object of generated) {
      const links = OWNS_GENERATED.has(headKey.kind) ? [{ owner: headKey }] : [];
      objects.push(plannedObject(object, sourceKey, true, links, []));
    }
  }
  if (forged.length > 0) return E.left({ code: 'conversion', message: forged.join('\n') });

  // A Secret whose Cluster is not migrated (being deleted) stays with it: there is no new
  // Cluster to own it, and verify would wait for one forever.
  const secrets: SecretToReown[] = [];
  for (const { secret, cluster: name } of inventory.secrets) {
    const key = keyOf(secret);
    const cluster: ObjectKey = { apiVersion: to, kind: 'Cluster', ...namespaced(key), name };
    if (planned.has(identity(cluster))) secrets.push({ key, cluster });
    else warnings.push(`${labelOf(key)}: its ${labelOf(cluster)} is not migrated; not re-owned`);
  }
  return E.right({ to, objects, secrets, sources: inventory.objects, warnings });
}

/**
 * A conversion error about a live object, named by the object (`Machine ns/name: path: …`):
 * the conversion numbers the documents of a manifest, and a cluster's objects are none. The
 * object is the document the error is placed at; the other writer of an object written twice
 * (`also by document N`) is named too.
 */
function conversionProblem(error: ConversionError, documents: readonly InputDocument[]): string {
  const { index, line: _line, ...rest } = error;
  const value = index === undefined ? undefined : documents[index]?.value;
  const object = isObject(value) ? keyOf(value) : undefined;
  const named =
    object === undefined
      ? rest
      : { ...rest, objectKind: object.kind, name: object.name, ...namespaced(object) };
  const message = named.message.replace(/\(also by document (\d+)\)/, (text, n: string) => {
    const other = documents[Number(n) - 1]?.value;
    return isObject(other) ? `(also by ${labelOf(keyOf(other))})` : text;
  });
  return formatConversionError({ ...named, message });
}

const V1ALPHA1_CLUSTER_LABEL = capiConstants.v1alpha1.Labels.clusterName;
const CLUSTER_LABEL = capiConstants.v1alpha2.Labels.clusterName;
/** The label maps of a v1alpha1 object whose cluster-name label the conversion renames. */
const LABEL_MAPS = [
  ['metadata', 'labels'],
  ['spec', 'template', 'metadata', 'labels'],
  ['spec', 'selector', 'matchLabels'],
] as const;

/**
 * A v1alpha1 object that also carries the later cluster-name label, naming another Cluster:
 * the conversion keeps that label (a renamed key never overwrites one already there), so
 * v0.2 would take the object for that other Cluster's, while the plug-in and the objects it
 * generates follow the v1alpha1 label. Refused, naming the object, the map and both values.
 */
function clusterLabelClashes(object: JsonObject): string[] {
  const problems: string[] = [];
  for (const path of LABEL_MAPS) {
    let map: unknown = object;
    for (const key of path) map = isObject(map) ? map[key] : undefined;
    if (!isObject(map) || !Object.hasOwn(map, V1ALPHA1_CLUSTER_LABEL) || !Object.hasOwn(map, CLUSTER_LABEL))
      continue;
    const [old, now] = [map[V1ALPHA1_CLUSTER_LABEL], map[CLUSTER_LABEL]];
    if (old === now) continue;
    problems.push(
      `${labelOf(keyOf(object))}: ${path.join('.')}: ${CLUSTER_LABEL} ${JSON.stringify(now)} names another Cluster than ${V1ALPHA1_CLUSTER_LABEL} ${JSON.stringify(old)}; v0.2 reads only the first, so the migrated object would belong to that Cluster: give both one value, or remove ${CLUSTER_LABEL}`,
    );
  }
  return problems;
}

/**
 * Where a Machine, or the Machines a MachineSet or MachineDeployment stamps out, is described.
 * (CONTROL_PLANE_LABEL is the conversion's: the label it adds, and keeps when already there.)
 */
const MACHINE_ROOTS: Readonly<Record<string, readonly string[]>> = {
  Machine: [],
  MachineSet: ['spec', 'template'],
  MachineDeployment: ['spec', 'template'],
};

function pathValue(object: unknown, path: readonly string[]): unknown {
  let value = object;
  for (const key of path) value = isObject(value as JsonObject) ? (value as JsonObject)[key] : undefined;
  return value;
}

/**
 * A v1alpha1 Machine (or machine template) whose v0.2 control-plane label says another role
 * than its `spec.versions.controlPlane`. The plug-in generates the bootstrap config for the
 * role v1alpha1 gives (a worker's join, or a control plane's), the conversion keeps a label
 * already there, and v0.2 reads the role from the label alone (set and not empty): a worker
 * would be migrated as a control-plane Machine, or the other way round. Refused, naming both.
 */
function controlPlaneLabelClashes(object: JsonObject): string[] {
  const root = MACHINE_ROOTS[String(object.kind)];
  if (root === undefined) return [];
  const labels = pathValue(object, [...root, 'metadata', 'labels']);
  if (!isObject(labels as JsonObject) || !Object.hasOwn(labels as JsonObject, CONTROL_PLANE_LABEL)) return [];
  const label = (labels as JsonObject)[CONTROL_PLANE_LABEL];
  const version = pathValue(object, [...root, 'spec', 'versions', 'controlPlane']);
  const controlPlane = typeof version === 'string' && version !== '';
  const labelled = typeof label === 'string' && label !== '';
  if (controlPlane === labelled) return [];
  const where = [...root, 'metadata', 'labels'].join('.');
  const versions = [...root, 'spec', 'versions', 'controlPlane'].join('.');
  return [
    controlPlane
      ? `${labelOf(keyOf(object))}: ${where}: ${CONTROL_PLANE_LABEL} ${JSON.stringify(label)} marks no control plane, but ${versions} is ${JSON.stringify(version)}: its bootstrap config is made for a control plane while v0.2 would read it as a worker: remove the label, or give it a value`
      : `${labelOf(keyOf(object))}: ${where}: ${CONTROL_PLANE_LABEL} ${JSON.stringify(label)} marks a control plane, but ${versions} is not set: its bootstrap config is made for a worker while v0.2 would read it as a control-plane Machine: remove the label, or set ${versions}`,
  ];
}

/** What a stash says it restores, for the message; undefined when it does not say. */
function restoresOf(text: unknown): string | undefined {
  if (typeof text !== 'string') return undefined;
  try {
    const parsed: unknown = JSON.parse(text);
    const restores = isObject(parsed as JsonObject) ? (parsed as JsonObject).restores : undefined;
    return typeof restores === 'string' ? restores : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A conversion stash on a v1alpha1 object read from the cluster. Migrate writes none there
 * (it converts up and never writes a v1alpha1 object but to clear its finalizers), and
 * whoever may edit a v1alpha1 object may write one: converted, it would set fields of the
 * migrated object that no conversion of the v1alpha1 object gives (an infrastructureRef to
 * someone else's AWSMachine, in place of the one generated). Annotations are data, never
 * instructions: refused, naming the object and what the stash says it restores.
 */
function stashProblems(object: JsonObject): string[] {
  if (object.kind === 'MachineClass') return [];
  const annotations = annotationsOf(object);
  if (!Object.hasOwn(annotations, CONVERSION_DATA_ANNOTATION)) return [];
  const restores = restoresOf(annotations[CONVERSION_DATA_ANNOTATION]);
  return [
    `${labelOf(keyOf(object))}: metadata.annotations.${CONVERSION_DATA_ANNOTATION}: a conversion stash${restores === undefined ? '' : ` (restores ${restores})`} on a v1alpha1 object read from the cluster: migrate writes none there, and converting with it would set fields of the migrated object (references included) from the annotation instead of from the object; remove the annotation, then plan again`,
  ];
}

const namespaced = (key: { readonly namespace?: string | undefined }) =>
  key.namespace === undefined ? {} : { namespace: key.namespace };

/**
 * The conversion's warnings, each named by its object (`Machine ns/name: …`) rather than by a
 * manifest's document number, which means nothing for objects read from a cluster.
 */
function conversionWarnings(report: ConversionReport): string[] {
  return report.documents.flatMap((document) =>
    document.objects.flatMap((o) => {
      const key = { apiVersion: '', kind: o.kind, name: o.name ?? '', ...namespaced(o) };
      return o.warnings.map((warning) => `${labelOf(key)}: ${warning}`);
    }),
  );
}

export function isBeingDeleted(object: JsonObject): boolean {
  const at = metadataOf(object).deletionTimestamp;
  return typeof at === 'string' && at !== '';
}

function plannedObject(
  converted: JsonObject,
  source: PlannedObject['source'],
  generated: boolean,
  owners: readonly OwnerLink[],
  keptReferences: readonly JsonObject[],
): PlannedObject {
  const object = creatable(converted);
  const metadata = metadataOf(object);
  const annotations = isObject(metadata.annotations) ? metadata.annotations : {};
  object.metadata = {
    ...metadata,
    annotations: { ...annotations, [SOURCE_UID_ANNOTATION]: source.uid },
  };
  const meta = object.metadata as JsonObject;
  if (keptReferences.length > 0) meta.ownerReferences = [...keptReferences];
  else delete meta.ownerReferences;
  const status =
    isObject(converted.status) && Object.keys(converted.status).length > 0 ? converted.status : undefined;
  return {
    key: keyOf(converted),
    object,
    source,
    generated,
    owners,
    ...(status === undefined || generated ? {} : { status }),
  };
}

/**
 * Splits a converted object's ownerReferences into links to rebuild (Cluster API owners
 * migrated with it: their UIDs change) and references kept as they are (anything else).
 * A reference to a Cluster API owner that is not migrated would dangle: it is dropped, and
 * the plan says so. A controller reference that would be dropped so is refused instead
 * (`forged`, one line each, naming the object and the reference's path), and so are two
 * controller references: see `controllerProblem`.
 */
function ownerLinks(
  object: JsonObject,
  to: MigrationTarget,
  planned: ReadonlyMap<string, string | undefined>,
  warnings: string[],
  forged: string[],
): { owners: OwnerLink[]; kept: JsonObject[] } {
  const key = keyOf(object);
  const refs = metadataOf(object).ownerReferences;
  const owners: OwnerLink[] = [];
  const kept: JsonObject[] = [];
  const all = Array.isArray(refs) ? refs : [];
  const controllers = all.flatMap((ref, i) => (isObject(ref) && ref.controller === true ? [i] : []));
  if (controllers.length > 1) {
    forged.push(
      `${labelOf(key)}: ${controllers.map((i) => `metadata.ownerReferences[${i}]`).join(', ')}: ${controllers.length} ownerReferences say controller: true; an object has at most one controller, and the API server would refuse the migrated object: remove all but one, then plan again`,
    );
    return { owners, kept };
  }
  for (const [index, ref] of all.entries()) {
    if (!isObject(ref)) continue;
    // A controller reference is never dropped: see controllerProblem.
    const drop = (warning: string, why: string) => {
      if (ref.controller === true) forged.push(controllerProblem(key, index, ref, why));
      else warnings.push(warning);
    };
    // The chain converts objects, not the versions inside their ownerReferences (any
    // version of the group is a valid reference): an owner of either group is rebuilt.
    const group = typeof ref.apiVersion === 'string' ? ref.apiVersion.split('/')[0] : undefined;
    const isCapi = CAPI_GROUPS.has(group ?? '') && (CREATION_ORDER as readonly unknown[]).includes(ref.kind);
    const owner: ObjectKey = {
      apiVersion: to,
      kind: String(ref.kind),
      ...(key.namespace === undefined ? {} : { namespace: key.namespace }),
      name: String(ref.name),
    };
    if (!isCapi) {
      // Prune deletes every v1alpha1 object: a reference to one that is not rebuilt (a
      // MachineClass) would dangle, and the garbage collector would take the new object.
      if (group === V1ALPHA1_GROUP) {
        drop(
          `${labelOf(key)}: owner ${labelOf(owner)} of ${String(ref.apiVersion)} is not migrated; its ownerReference is dropped`,
          `${labelOf(owner)} of ${String(ref.apiVersion)} is not migrated`,
        );
      } else kept.push(ref);
      continue;
    }
    if (!planned.has(identity(owner))) {
      drop(
        `${labelOf(key)}: owner ${labelOf(owner)} is not migrated; its ownerReference is dropped`,
        `${labelOf(owner)} is not migrated (there is no such object here, or it is being deleted)`,
      );
      continue;
    }
    // The reference is to the owner of that name only if it names that owner's UID: one
    // left by an owner deleted since (and made again under its name) or written by hand
    // with another object's UID (one of another namespace) dangles. Rebuilt, it would hand
    // the object to an owner that never had it (a MachineSet scaling away a Machine).
    const ownerUid = planned.get(identity(owner));
    if (typeof ref.uid === 'string' && ref.uid !== '' && ref.uid !== ownerUid) {
      drop(
        `${labelOf(key)}: ownerReference to ${labelOf(owner)} names uid ${ref.uid}, not that owner's (${ownerUid ?? 'none'}): it owns nothing here; its ownerReference is dropped`,
        `${labelOf(owner)} is named with uid ${ref.uid}, not that owner's (${ownerUid ?? 'none'})`,
      );
      continue;
    }
    // Owners are created first, kind by kind (CREATION_ORDER): an owner of the same or a
    // later kind (a MachineDeployment owned by its MachineSet, a Machine by itself) has no
    // UID yet when the object is created.
    if (creationRank(owner.kind) >= creationRank(key.kind)) {
      drop(
        `${labelOf(key)}: owner ${labelOf(owner)} is not created before it; its ownerReference is dropped`,
        `${labelOf(owner)} is not created before it`,
      );
      continue;
    }
    owners.push({
      owner,
      ...(typeof ref.controller === 'boolean' ? { controller: ref.controller } : {}),
      ...(typeof ref.blockOwnerDeletion === 'boolean' ? { blockOwnerDeletion: ref.blockOwnerDeletion } : {}),
    });
  }
  return { owners, kept };
}

/**
 * A controller ownerReference of a v1alpha1 object that cannot be rebuilt onto a migrated
 * owner (its UID is another object's, its owner is not migrated or not created first).
 * Rebuilt, it would hand the object to a controller that never had it; dropped, the object
 * would have no controller in v0.2, and the first MachineSet or MachineDeployment whose
 * selector matches would adopt it (and may scale it away), when in v0.1 nothing could. Whoever
 * may edit the v1alpha1 object may write such a reference: refused, naming the path.
 */
function controllerProblem(key: ObjectKey, index: number, ref: JsonObject, why: string): string {
  return `${labelOf(key)}: metadata.ownerReferences[${index}]: controller reference to ${String(ref.kind)} ${JSON.stringify(ref.name)} (uid ${JSON.stringify(ref.uid)}): ${why}; dropped, the object would lose its controller and be adopted by whichever v0.2 owner's selector matches it, rebuilt, it would be handed to an owner that never had it: correct or remove the reference, then plan again`;
}

/** The ownerReference of a link, once the owner's UID is known. */
export function ownerReference(link: OwnerLink, uid: string): JsonObject {
  return {
    apiVersion: link.owner.apiVersion,
    kind: link.owner.kind,
    name: link.owner.name,
    uid,
    ...(link.controller === undefined ? {} : { controller: link.controller }),
    ...(link.blockOwnerDeletion === undefined ? {} : { blockOwnerDeletion: link.blockOwnerDeletion }),
  };
}
