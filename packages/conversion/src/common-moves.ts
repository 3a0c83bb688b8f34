import {
  CONTROL_PLANE_LABEL,
  OBJECT_META_SUBSET,
  renameFinalizers,
  renameKeys,
  renameOwnerReferences,
  renameSelector,
} from './metadata.js';
import type { FieldMove } from './moves.js';
import { getPath, isObject, type Json, type JsonObject } from './path.js';
import { V1ALPHA1, V1ALPHA2 } from './versions.js';

export const labelsMove: FieldMove = {
  v1alpha1: 'metadata.labels',
  v1alpha2: 'metadata.labels',
  up: (labels) => (isObject(labels) ? renameKeys(labels, 'up') : labels),
  down: (labels) => (isObject(labels) ? renameKeys(labels, 'down') : labels),
  note: 'label cluster.k8s.io/cluster-name is cluster.x-k8s.io/cluster-name in v1alpha2',
};

const ownerReferencesMove: FieldMove = {
  v1alpha1: 'metadata.ownerReferences',
  v1alpha2: 'metadata.ownerReferences',
  up: (refs) => (Array.isArray(refs) ? renameOwnerReferences(refs, V1ALPHA1, V1ALPHA2) : refs),
  down: (refs) => (Array.isArray(refs) ? renameOwnerReferences(refs, V1ALPHA2, V1ALPHA1) : refs),
  note: 'owner references to Cluster API kinds point at the new apiVersion',
};

/**
 * Rows for the rest of a top-level `metadata` (a full ObjectMeta in both versions); labels
 * have their own row because Machines add the control-plane label.
 */
export const ownerAndFinalizerMoves: readonly FieldMove[] = [
  {
    v1alpha1: 'metadata.finalizers',
    v1alpha2: 'metadata.finalizers',
    up: (f) => (Array.isArray(f) ? renameFinalizers(f, 'up') : f),
    down: (f) => (Array.isArray(f) ? renameFinalizers(f, 'down') : f),
    note: 'finalizers cluster.cluster.k8s.io and machine.cluster.k8s.io follow the new group',
  },
  ownerReferencesMove,
];

function isControlPlane(root: JsonObject): boolean {
  const cp = getPath(root, ['spec', 'versions', 'controlPlane']);
  return typeof cp === 'string' && cp !== '';
}

function hasControlPlaneLabel(root: JsonObject): boolean {
  const label = getPath(root, ['metadata', 'labels', CONTROL_PLANE_LABEL]);
  return typeof label === 'string' && label !== '';
}

/**
 * The labels of something that is (or stamps out) a Machine: renamed, plus the v1alpha2
 * control-plane label when v1alpha1 said "control plane" through `spec.versions.controlPlane`.
 */
export const machineLabelsMove: FieldMove = {
  v1alpha1: 'metadata.labels',
  v1alpha2: 'metadata.labels',
  evenIfAbsent: 'up',
  up: (labels, root) => {
    const renamed = isObject(labels) ? renameKeys(labels, 'up') : labels;
    if (!isControlPlane(root)) return renamed;
    const base = isObject(renamed) ? renamed : {};
    return Object.hasOwn(base, CONTROL_PLANE_LABEL) ? base : { ...base, [CONTROL_PLANE_LABEL]: 'true' };
  },
  down: (labels) => {
    if (!isObject(labels)) return labels;
    const { [CONTROL_PLANE_LABEL]: _dropped, ...rest } = labels;
    return renameKeys(rest, 'down');
  },
  note: 'labels renamed; spec.versions.controlPlane set means label cluster.x-k8s.io/control-plane: "true" in v1alpha2',
};

function subset(meta: Json | undefined): Json | undefined {
  if (!isObject(meta)) return meta;
  const out: JsonObject = {};
  for (const key of OBJECT_META_SUBSET) if (Object.hasOwn(meta, key)) out[key] = meta[key]!;
  return out;
}

/** v1alpha2 embeds only an ObjectMeta subset in Machine specs and machine templates. */
export const metaSubsetMove = (path: string): FieldMove => ({
  v1alpha1: path,
  v1alpha2: path,
  up: subset,
  note: 'v1alpha2 keeps only name, generateName, namespace, labels, annotations and ownerReferences here',
});

/** `spec.versions` → `spec.version`: v1alpha2 has a single desired Kubernetes version. */
export function versionsUp(versions: Json | undefined): Json | undefined {
  if (!isObject(versions)) return undefined;
  const { controlPlane, kubelet } = versions;
  if (typeof controlPlane === 'string' && controlPlane !== '') return controlPlane;
  if (typeof kubelet === 'string' && kubelet !== '') return kubelet;
  return undefined;
}

export function versionsDown(version: Json | undefined, root: JsonObject): Json | undefined {
  if (typeof version !== 'string') return undefined;
  return hasControlPlaneLabel(root) ? { kubelet: version, controlPlane: version } : { kubelet: version };
}

/**
 * The Machine spec rows, relative to something with `metadata` and `spec` (a Machine, or
 * the `spec.template` of a MachineSet / MachineDeployment).
 */
export const machineSpecMoves: readonly FieldMove[] = [
  machineLabelsMove,
  metaSubsetMove('spec.metadata'),
  {
    v1alpha1: 'spec.versions',
    v1alpha2: 'spec.version',
    up: versionsUp,
    down: versionsDown,
    note: 'versions.controlPlane (else versions.kubelet) becomes version',
  },
  {
    v1alpha1: 'spec.providerSpec',
    note: 'replaced by spec.infrastructureRef and spec.bootstrap, made by a provider plug-in',
  },
  { v1alpha1: 'spec.taints', note: 'no v1alpha2 field (taints belong in the bootstrap config)' },
  { v1alpha1: 'spec.configSource', note: 'no v1alpha2 field (dynamic kubelet config)' },
  {
    v1alpha2: 'spec.infrastructureRef',
    note: 'no v1alpha1 field: v1alpha1 kept infrastructure in spec.providerSpec',
  },
  { v1alpha2: 'spec.bootstrap', note: 'no v1alpha1 field: v1alpha1 kept bootstrap in spec.providerSpec' },
  {
    v1alpha1: 'spec.providerSpec',
    evenIfAbsent: 'down',
    down: (_absent, root) => (isObject(root.spec) ? {} : undefined),
    note: 'v1alpha1 requires spec.providerSpec; written empty (the original is in the stash)',
  },
];

/** Rows for the Machine template of a MachineSet or MachineDeployment (at `spec.template`). */
export const templateMoves: readonly FieldMove[] = [
  ...machineSpecMoves,
  metaSubsetMove('metadata'),
  ownerReferencesMove,
];

export const selectorMove: FieldMove = {
  v1alpha1: 'spec.selector',
  v1alpha2: 'spec.selector',
  up: (s) => (isObject(s) ? renameSelector(s, 'up') : s),
  down: (s) => (isObject(s) ? renameSelector(s, 'down') : s),
  note: 'selector keys follow the label renames, so the selector still matches the template',
};

/** v1alpha1 Cluster errors are plain strings; "" is "no error" there but "failed" in v1alpha2. */
export const nonEmpty = (value: Json | undefined): Json | undefined => (value === '' ? undefined : value);

export const errorMoves = (note: string): readonly FieldMove[] => [
  { v1alpha1: 'status.errorReason', v1alpha2: 'status.errorReason', up: nonEmpty, note },
  { v1alpha1: 'status.errorMessage', v1alpha2: 'status.errorMessage', up: nonEmpty, note },
];
