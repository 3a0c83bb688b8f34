import {
  type ChainVersion,
  type ConversionPlugin,
  convertDocuments,
  formatConversionError,
  type InputDocument,
  isChainVersion,
  isObject,
  type JsonObject,
  V1ALPHA1,
  V1ALPHA2,
} from '@capi-kit/conversion';
import * as E from 'fp-ts/lib/Either.js';
import type { MigrateError } from './errors.js';
import { CLUSTER_SECRET_PURPOSES, type Inventory } from './inventory.js';
import { creatable, identity, keyOf, labelOf, metadataOf, type ObjectKey, uidOf } from './object.js';

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
/** The API groups of Cluster API v0.1 and of every later version. */
const CAPI_GROUPS = new Set(['cluster.k8s.io', 'cluster.x-k8s.io']);
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
  const converted = convertDocuments(documents, { to, plugins });
  if (E.isLeft(converted)) {
    return E.left({
      code: 'conversion',
      message: converted.left.map((e) => formatConversionError(e)).join('\n'),
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
    ...converted.right.report.warnings,
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

  const planned = new Set(groups.map((g) => identity(keyOf(g.head))));
  const objects: PlannedObject[] = [];
  for (const { head, source, generated } of groups) {
    const sourceKey = { ...keyOf(source), uid: uidOf(source) ?? '' };
    const headKey = keyOf(head);
    const { owners, kept } = ownerLinks(head, to, planned, warnings);
    objects.push(plannedObject(head, sourceKey, false, owners, kept));
    for (const object of generated) {
      const links = OWNS_GENERATED.has(headKey.kind) ? [{ owner: headKey }] : [];
      objects.push(plannedObject(object, sourceKey, true, links, []));
    }
  }

  const secrets: SecretToReown[] = inventory.secrets.map(({ secret, cluster }) => {
    const key = keyOf(secret);
    return {
      key,
      cluster: {
        apiVersion: to,
        kind: 'Cluster',
        ...(key.namespace === undefined ? {} : { namespace: key.namespace }),
        name: cluster,
      },
    };
  });
  return E.right({ to, objects, secrets, sources: inventory.objects, warnings });
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
 * the plan says so.
 */
function ownerLinks(
  object: JsonObject,
  to: MigrationTarget,
  planned: ReadonlySet<string>,
  warnings: string[],
): { owners: OwnerLink[]; kept: JsonObject[] } {
  const key = keyOf(object);
  const refs = metadataOf(object).ownerReferences;
  const owners: OwnerLink[] = [];
  const kept: JsonObject[] = [];
  for (const ref of Array.isArray(refs) ? refs.filter(isObject) : []) {
    // The chain converts objects, not the versions inside their ownerReferences (any
    // version of the group is a valid reference): an owner of either group is rebuilt.
    const group = typeof ref.apiVersion === 'string' ? ref.apiVersion.split('/')[0] : undefined;
    const isCapi = CAPI_GROUPS.has(group ?? '') && (CREATION_ORDER as readonly unknown[]).includes(ref.kind);
    if (!isCapi) {
      kept.push(ref);
      continue;
    }
    const owner: ObjectKey = {
      apiVersion: to,
      kind: String(ref.kind),
      ...(key.namespace === undefined ? {} : { namespace: key.namespace }),
      name: String(ref.name),
    };
    if (!planned.has(identity(owner))) {
      warnings.push(
        `${labelOf(key)}: owner ${labelOf(owner)} is not migrated; its ownerReference is dropped`,
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
