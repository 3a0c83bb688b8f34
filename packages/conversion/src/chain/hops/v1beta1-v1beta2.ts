import {
  assign,
  deepEqual,
  deletePath,
  getPath,
  isObject,
  type Json,
  type JsonObject,
  type OwnedSet,
  ownPath,
  setPath,
} from '../../path.js';
import type { StashEntry } from '../../stash.js';
import type { Direction } from '../../versions.js';
import { durationToSeconds, secondsToDuration } from '../duration.js';
import { type Hop, type HopMove, type HopOptions, type HopTable, hopGroup, nestedRows } from '../hop.js';
import { type GuardedField, guardFields, namedBy, topologiesNamedBy } from '../reference-guard.js';
import { V1BETA1, V1BETA2 } from '../versions.js';
import { groupOf, mapItems, moved, removed } from './common.js';

/**
 * v1beta1 ⇄ v1beta2 (Cluster API v1.10 → v1.11+). Facts: upstream's v1.14.0
 * api/core/v1beta1/conversion.go and core/webhooks/conversion/*.go; see docs/conversion.md.
 *
 * Themes: metav1 conditions take over `status.conditions` (the CAPI ones move under
 * `status.deprecated.v1beta1`), failure fields are deprecated, durations become whole
 * seconds, references become `{apiGroup, kind, name}`, fields regroup under
 * deletion / rollout / remediation / checks.
 */

const deprecated = (field: string): HopMove =>
  moved(
    `status.${field}`,
    `status.deprecated.v1beta1.${field}`,
    'v1beta1 semantics kept under status.deprecated.v1beta1',
  );

/** Conditions and failure fields, the same on every kind. Rows run in order going up, reversed going down. */
const statusRows = (extra: readonly string[] = []): HopMove[] => [
  deprecated('conditions'),
  deprecated('failureReason'),
  deprecated('failureMessage'),
  ...extra.map(deprecated),
  moved(
    'status.v1beta2.conditions',
    'status.conditions',
    'v1beta2 conditions are metav1 conditions (v1beta1 had them under status.v1beta2)',
  ),
];

/** Counters whose v1beta1 value moves to `deprecated.v1beta1` and whose v1beta2 value comes from `status.v1beta2`. */
const replicaCounters = (names: readonly string[]): HopMove[] => [
  ...names.map(deprecated),
  ...['readyReplicas', 'availableReplicas', 'upToDateReplicas'].map((n) =>
    moved(
      `status.v1beta2.${n}`,
      `status.${n}`,
      'v1beta2 counters follow the Ready/Available/UpToDate conditions',
    ),
  ),
];

/**
 * An ObjectReference becomes `{apiGroup, kind, name}`. Going down the namespace is the
 * object's own; the apiVersion cannot be known offline: a stash restores it, else the
 * `referenceApiVersion` lookup supplies it, else the reference is kept without one and the
 * conversion warns.
 */
function referenceRow(path: string): HopMove {
  return {
    lower: path,
    upper: path,
    up: (ref) => {
      if (!isObject(ref)) return ref;
      const apiGroup = groupOf(ref.apiVersion);
      return {
        ...(apiGroup === undefined ? {} : { apiGroup }),
        ...(ref.kind === undefined ? {} : { kind: ref.kind }),
        ...(ref.name === undefined ? {} : { name: ref.name }),
      };
    },
    down: (ref, root) => {
      if (!isObject(ref)) return ref;
      const namespace = getPath(root, ['metadata', 'namespace']);
      return {
        ...(ref.kind === undefined ? {} : { kind: ref.kind }),
        ...(ref.name === undefined ? {} : { name: ref.name }),
        ...(typeof namespace === 'string' && namespace !== '' ? { namespace } : {}),
      };
    },
    note: 'ObjectReference ⇄ {apiGroup, kind, name}; namespace, uid, resourceVersion and fieldPath have no v1beta2 field',
  };
}

/** A reference's apiGroup as a warning names it (`""` is Kubernetes' core group). */
function groupName(group: unknown): string {
  if (typeof group !== 'string') return '(no apiGroup)';
  return group === '' ? 'core group' : group;
}

/**
 * The fields of a v1beta1 reference that belong to the one object it names: its `uid`, the
 * `resourceVersion` it was read at, a `fieldPath` into it. v1beta2 keeps none of them, and a
 * reference edited there to name another object (or taken out) must not get them back (see
 * referenceBinding). The apiVersion belongs to the group (see referenceFinish); the namespace
 * to the referring object (a stash may only give a reference the object's own, or none).
 */
const OBJECT_FIELDS: ReadonlySet<string> = new Set(['uid', 'resourceVersion', 'fieldPath']);

/** What a v1beta2 reference names: its `apiGroup`, `kind` and `name` (those it has). */
function referenceIdentity(ref: unknown): JsonObject | undefined {
  if (!isObject(ref)) return undefined;
  return {
    ...(ref.apiGroup === undefined ? {} : { apiGroup: ref.apiGroup }),
    ...(ref.kind === undefined ? {} : { kind: ref.kind }),
    ...(ref.name === undefined ? {} : { name: ref.name }),
  };
}

/** An identity as a warning names it (JSON: a stash's may hold anything). */
const identityName = (identity: Json): string => JSON.stringify(identity);

/** `a, b are` / `a is`, for the fields a warning names. */
const fieldsAre = (fields: readonly string[]): string =>
  `${fields.join(', ')} ${fields.length === 1 ? 'is' : 'are'}`;

/**
 * Binds a reference's object fields (OBJECT_FIELDS) to the object it names. Going up, the
 * stash entry of each gets as `base` the v1beta2 reference's identity (`{apiGroup, kind,
 * name}`); going down, such an entry applies only while the reference still names that
 * object. Otherwise the edit wins: the entry is left out with a warning. (Plain `base`
 * semantics cannot say this: the plain way down makes no uid, so an entry for it had no
 * `base`, and a v1beta2 reference edited to name another object came down with the old
 * object's uid and resourceVersion.) An entry without a `base`, from a stash written before
 * these were bound, applies as it did; referenceFinish drops it with a stashed apiVersion of
 * another group. A forged stash can do no more than before: an entry applies where it did,
 * or not at all.
 */
function referenceBinding(paths: readonly string[]): NonNullable<HopTable['stashBinding']> {
  const refs = paths.map((p) => p.split('.'));
  /** The reference an entry is an object field of (its path split), if any. */
  const refOf = (entry: StashEntry): readonly string[] | undefined => {
    const n = entry.path.length - 1;
    if (n < 1 || !OBJECT_FIELDS.has(entry.path[n]!)) return undefined;
    return refs.find((ref) => ref.length === n && ref.every((key, i) => key === entry.path[i]));
  };
  return {
    bind: (entries, out, direction) => {
      if (direction !== 'up') return entries;
      return entries.map((entry) => {
        const ref = entry.value === undefined || entry.base !== undefined ? undefined : refOf(entry);
        const identity = ref === undefined ? undefined : referenceIdentity(getPath(out, ref));
        return identity === undefined ? entry : { path: entry.path, value: entry.value!, base: identity };
      });
    },
    unbind: (entries, source, direction, warnings) => {
      if (direction !== 'down') return entries;
      const kept: StashEntry[] = [];
      const dropped = new Map<string, { fields: string[]; was: Json; now: JsonObject | undefined }>();
      for (const entry of entries) {
        const ref = entry.base === undefined ? undefined : refOf(entry);
        if (ref === undefined) {
          kept.push(entry);
          continue;
        }
        const now = referenceIdentity(getPath(source, ref));
        if (deepEqual(now, entry.base)) {
          // (the plain way down makes no such field: with no `base`, applyStash writes it;
          // one that takes the field away has nothing to do)
          if (entry.value !== undefined) kept.push({ path: entry.path, value: entry.value });
          continue;
        }
        const key = ref.join('.');
        const at = dropped.get(key) ?? { fields: [], was: entry.base!, now };
        at.fields.push(entry.path[ref.length]!);
        dropped.set(key, at);
      }
      for (const [path, { fields, was, now }] of dropped) {
        const edit = now === undefined ? 'was taken out' : `now names ${identityName(now)}`;
        warnings.push(
          `${path}: the reference ${edit}; the conversion data's ${fieldsAre(fields)} not restored (of ${identityName(was)})`,
        );
      }
      return kept;
    },
  };
}

/**
 * What names the object a reference row's reference points at, in the version a stash
 * restores: v1beta1's `{apiVersion, kind, name}` going down, v1beta2's `{apiGroup, kind,
 * name}` going up. A stash never changes them (reference-guard.ts); it may only give the
 * reference the apiVersion (going down; referenceFinish keeps it only within the reference's
 * group) or the apiGroup (going up) where the plain conversion wrote none.
 *
 * The version part of that apiVersion is not bound to anything: it names no other object.
 * Kubernetes identifies an object by group, kind (one resource per kind in a group: the API
 * server refuses a second CRD of the same group and kind), namespace and name; every version
 * a CRD serves is a representation of the same stored object. So a stash that gives back
 * `…/v1beta1` where the lookup would say `…/v1beta2`, or a forged one giving `…/v1alpha9`,
 * points the reference at the same object; at worst at a version no one serves, which a
 * reference edited by hand can do as well (its controller then reports the reference
 * unresolvable). The stashed version is what the reference had in v1beta1: binding it to the
 * lookup's answer would lose it (upstream's round trip rewrites it to the newest compatible
 * version; the stash is there to keep it).
 */
function referenceGuards(paths: readonly string[]): Record<Direction, GuardedField[]> {
  const guard = (path: string, group: string): GuardedField => ({
    path: path.split('.'),
    keys: ['kind', 'name', group],
    fill: group,
    names: namedBy([group, 'kind', 'name']),
  });
  return {
    down: paths.map((p) => guard(p, 'apiVersion')),
    up: paths.map((p) => guard(p, 'apiGroup')),
  };
}

/** A `{apiVersion, kind, name}` template reference (a health check's remediation template) at `path`. */
const templateGuard = (path: string): GuardedField => ({
  path: path.split('.'),
  keys: ['apiVersion', 'kind', 'name'],
  names: namedBy(['apiVersion', 'kind', 'name']),
});

/** What a field that is just a name (v1beta1's `topology.class`) names: itself. */
const nameGuard = (path: string): GuardedField => ({ path: path.split('.'), keys: [], names: (v) => v });

/**
 * The other references of the hop, guarded as the reference rows are (reference-guard.ts):
 * a Cluster's ClusterClass (`topology.class` / `classRef.name`), each machine deployment or
 * pool topology's name and class, the health checks' remediation templates, and a Machine's
 * Node (`status.nodeRef.name`; its kind and apiVersion, which v1beta2 cannot hold, the stash
 * keeps as they were). Each row carries them over unchanged, so no stash the conversion writes
 * changes them.
 */
const topologyLists = (healthCheck: string): GuardedField[] => {
  const template = namedBy(['apiVersion', 'kind', 'name']);
  const at = healthCheck.split('.');
  return [
    {
      path: ['spec', 'topology', 'workers', 'machineDeployments'],
      keys: [],
      names: topologiesNamedBy((item) => template(getPath(item, at))),
    },
    { path: ['spec', 'topology', 'workers', 'machinePools'], keys: [], names: topologiesNamedBy() },
  ];
};
const CLUSTER_GUARDS: Record<Direction, GuardedField[]> = {
  down: [
    ...referenceGuards(['spec.controlPlaneRef', 'spec.infrastructureRef']).down,
    nameGuard('spec.topology.class'),
    templateGuard('spec.topology.controlPlane.machineHealthCheck.remediationTemplate'),
    ...topologyLists('machineHealthCheck.remediationTemplate'),
  ],
  up: [
    ...referenceGuards(['spec.controlPlaneRef', 'spec.infrastructureRef']).up,
    { path: ['spec', 'topology', 'classRef'], keys: ['name'], names: namedBy(['name']) },
    templateGuard('spec.topology.controlPlane.healthCheck.remediation.templateRef'),
    ...topologyLists('healthCheck.remediation.templateRef'),
  ],
};
const nodeGuard: GuardedField = { path: ['status', 'nodeRef'], keys: ['name'], names: namedBy(['name']) };
const MACHINE_GUARDS: Record<Direction, GuardedField[]> = {
  down: [...referenceGuards(['spec.bootstrap.configRef', 'spec.infrastructureRef']).down, nodeGuard],
  up: [...referenceGuards(['spec.bootstrap.configRef', 'spec.infrastructureRef']).up, nodeGuard],
};
const MHC_GUARDS: Record<Direction, GuardedField[]> = {
  down: [templateGuard('spec.remediationTemplate')],
  up: [templateGuard('spec.remediation.templateRef')],
};

/**
 * Fills the apiVersion of down-converted references that still lack one (see referenceRow);
 * both ways, takes out what a stash wrote for a reference the object no longer has.
 */
function referenceFinish(paths: readonly string[]): NonNullable<HopTable['finish']> {
  return (
    out: JsonObject,
    source: JsonObject,
    direction: Direction,
    options: HopOptions,
    warnings: string[],
    owned: OwnedSet,
  ) => {
    for (const path of paths) {
      const at = path.split('.');
      const current = getPath(out, at);
      if (!isObject(current)) continue;
      if (getPath(source, at) === undefined) {
        // The reference was taken out (in v1beta2 going down, in v1beta1 going up): only the
        // stash wrote here (entries without a `base`, such as the apiVersion going down or a
        // stray field of the v1beta2 reference going up, make the reference they are in). The
        // edit wins, as for every other field: no reference comes back as a fragment.
        warnings.push(
          `${path}: the reference was taken out; the conversion data's ${fieldsAre(Object.keys(current))} not restored`,
        );
        ownPath(out, at, owned, at.length - 1);
        deletePath(out, at);
        // (and the parents the stash made for it: a `spec.bootstrap` around a configRef)
        for (let n = at.length - 1; n > 0; n--) {
          const parent = at.slice(0, n);
          const value = getPath(out, parent);
          if (getPath(source, parent) !== undefined || !isObject(value) || Object.keys(value).length > 0)
            break;
          deletePath(out, parent);
        }
        continue;
      }
      if (direction !== 'down') continue;
      let ref = current;
      const group = getPath(source, [...at, 'apiGroup']);
      if (ref.apiVersion !== undefined) {
        // Only the stash writes an apiVersion here. Its entry has no `base` (the plain way
        // down makes no apiVersion), so nothing told whether the reference is still the one
        // it was stashed from: a v1beta2 reference edited to another group came down with the
        // old group's apiVersion (the edit silently lost), and a forged stash could point a
        // reference at any group. It is the reference's only while its group is the apiGroup;
        // otherwise the edit wins, as for every other field, and the lookup decides. The
        // object fields a stash put beside it (an older stash's, whose entries are not bound
        // to the object: referenceBinding) belong to an object of that group: they go too.
        if (!isObject(getPath(source, at)) || groupOf(ref.apiVersion) === group) continue;
        const stashed = typeof ref.apiVersion === 'string' ? JSON.stringify(ref.apiVersion) : '(no string)';
        const objectFields = Object.keys(ref).filter((key) => OBJECT_FIELDS.has(key));
        warnings.push(
          `${path}: the conversion data's apiVersion ${stashed} is not of the reference's ${groupName(group)}; it${objectFields.length === 0 ? ' is' : ` and its ${objectFields.join(', ')} are`} not restored`,
        );
        const rest: JsonObject = {};
        for (const key of Object.keys(ref))
          if (key !== 'apiVersion' && !OBJECT_FIELDS.has(key)) assign(rest, key, ref[key]!);
        ownPath(out, at, owned, at.length - 1);
        setPath(out, at, rest);
        ref = rest;
      }
      const kind = ref.kind;
      const found =
        typeof group === 'string' && typeof kind === 'string'
          ? options.referenceApiVersion?.(group, kind)
          : undefined;
      // A lookup names the version of the reference's group, never another group: one that
      // did would point the reference elsewhere (and the way back up would stash the old
      // group as a change of the reference, which no stash may make).
      if (found !== undefined && groupOf(found) === group) {
        ownPath(out, at, owned, at.length - 1);
        setPath(out, at, { apiVersion: found, ...ref });
      } else {
        const why =
          options.referenceApiVersion === undefined
            ? 'no conversion data and no contract lookup'
            : found !== undefined
              ? `no conversion data, and the contract lookup's ${JSON.stringify(found)} is not of that group`
              : 'no conversion data, and the contract lookup knows no CRD with a compatible contract label for it';
        warnings.push(
          `${path}: no apiVersion for ${groupName(group)} ${typeof kind === 'string' && kind !== '' ? kind : '(no kind)'} (${why}); the reference is kept without one`,
        );
      }
    }
  };
}

const seconds = (lower: string, upper: string): HopMove => ({
  lower,
  upper,
  up: (v) => durationToSeconds(v),
  down: (v) => secondsToDuration(v),
  // (a value that is no duration, or no whole number of seconds, such as a clusterctl
  // `${NODE_DRAIN_TIMEOUT}`, is left out with a warning)
  strict: true,
  note: 'duration becomes whole seconds (upstream truncates; the stash keeps the exact text)',
});

const zeroIsUnset = (v: Json | undefined): Json | undefined => (v === 0 ? undefined : v);

const machineSpecRows = (p: string): HopMove[] => [
  referenceRow(`${p}spec.bootstrap.configRef`),
  referenceRow(`${p}spec.infrastructureRef`),
  seconds(`${p}spec.nodeDrainTimeout`, `${p}spec.deletion.nodeDrainTimeoutSeconds`),
  seconds(`${p}spec.nodeVolumeDetachTimeout`, `${p}spec.deletion.nodeVolumeDetachTimeoutSeconds`),
  seconds(`${p}spec.nodeDeletionTimeout`, `${p}spec.deletion.nodeDeletionTimeoutSeconds`),
];

const machineRefs = (p: string) => [`${p}spec.bootstrap.configRef`, `${p}spec.infrastructureRef`];

/**
 * Go's `sort.Strings` order: by UTF-8 bytes, which is code-point order. JavaScript's default
 * sort compares UTF-16 code units, which puts a name with a character beyond U+FFFF (a
 * surrogate pair, 0xD800…) before one with a character in U+E000…U+FFFF; upstream's
 * conversion puts it after.
 */
function goStringOrder(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.codePointAt(i)!;
    const y = b.codePointAt(i)!;
    if (x !== y) return x - y;
    if (x > 0xffff) i++; // (the same pair in both: skip its low half)
  }
  return a.length - b.length;
}

/** `{name: {controlPlane, attributes}}` ⇄ `[{name, controlPlane, attributes}]`, sorted by name going up. */
const failureDomains: HopMove = {
  lower: 'status.failureDomains',
  upper: 'status.failureDomains',
  up: (map) => {
    if (!isObject(map)) return map;
    // The key is the name: a stray `name` inside the value (no v1beta1 field; the stash keeps
    // it) must not rename the domain, or make two of one name (it overrode the key).
    return Object.keys(map)
      .sort(goStringOrder)
      .map((name) => {
        const spec = map[name];
        if (!isObject(spec)) return { name };
        const { name: _, ...rest } = spec;
        return { name, ...rest };
      });
  },
  down: (list) => {
    if (!Array.isArray(list)) return list;
    const out: JsonObject = {};
    for (const item of list) {
      if (!isObject(item) || typeof item.name !== 'string' || Object.hasOwn(out, item.name)) continue;
      const { name, ...rest } = item;
      assign(out, name, rest); // (a domain may be named __proto__: the CRD allows any name)
    }
    return out;
  },
  note: 'failure domains: a map by name in v1beta1, a list sorted by name in v1beta2',
};

// An item's timeout with no form the other version can hold (a clusterctl `${TIMEOUT}` going
// up, seconds that are no whole number going down) is left out and reported; the stash keeps it.
const timeoutSeconds = mapItems((item, _root, unconverted) => {
  if (!Object.hasOwn(item, 'timeout')) return item;
  const { timeout, ...rest } = item;
  const s = durationToSeconds(timeout);
  if (s !== undefined) return { ...rest, timeoutSeconds: s };
  unconverted?.('timeout', 'timeoutSeconds');
  return rest;
});
const timeoutText = mapItems((item, _root, unconverted) => {
  if (!Object.hasOwn(item, 'timeoutSeconds')) return item;
  const { timeoutSeconds: s, ...rest } = item;
  const text = secondsToDuration(s);
  if (text !== undefined) return { ...rest, timeout: text };
  unconverted?.('timeoutSeconds', 'timeout');
  return rest;
});
const conditionChecks = (lower: string, upper: string): HopMove => ({
  lower,
  upper,
  up: timeoutSeconds,
  down: timeoutText,
  nested: true,
  note: 'unhealthy conditions move under spec.checks with timeoutSeconds',
});

/** An ObjectReference as `{apiVersion, kind, name}` (namespace, uid … have no v1beta2 field). */
const templateRef = (lower: string, upper: string): HopMove => ({
  lower,
  upper,
  up: (ref) => {
    if (!isObject(ref)) return ref;
    const { apiVersion, kind, name } = ref;
    return {
      ...(apiVersion === undefined ? {} : { apiVersion }),
      ...(kind === undefined ? {} : { kind }),
      ...(name === undefined ? {} : { name }),
    };
  },
  note: 'remediationTemplate becomes remediation.templateRef {apiVersion, kind, name}',
});

/**
 * The health-check settings v1beta2 regroups under `checks` and `remediation`, the same for a
 * MachineHealthCheck's spec and a topology's `machineHealthCheck` → `healthCheck`.
 */
const healthCheckRows = (lower: string, upper: string): HopMove[] => [
  conditionChecks(`${lower}unhealthyConditions`, `${upper}checks.unhealthyNodeConditions`),
  conditionChecks(`${lower}unhealthyMachineConditions`, `${upper}checks.unhealthyMachineConditions`),
  seconds(`${lower}nodeStartupTimeout`, `${upper}checks.nodeStartupTimeoutSeconds`),
  moved(
    `${lower}maxUnhealthy`,
    `${upper}remediation.triggerIf.unhealthyLessThanOrEqualTo`,
    'maxUnhealthy moves under remediation.triggerIf',
  ),
  moved(
    `${lower}unhealthyRange`,
    `${upper}remediation.triggerIf.unhealthyInRange`,
    'unhealthyRange moves under remediation.triggerIf',
  ),
  templateRef(`${lower}remediationTemplate`, `${upper}remediation.templateRef`),
];

/** A MachineHealthCheck's template reference going down takes the MHC's namespace (upstream). */
const mhcRemediationTemplate: HopMove = {
  ...templateRef('spec.remediationTemplate', 'spec.remediation.templateRef'),
  down: (ref, root) => {
    if (!isObject(ref)) return ref;
    const namespace = getPath(root, ['metadata', 'namespace']);
    return { ...ref, ...(typeof namespace === 'string' && namespace !== '' ? { namespace } : {}) };
  },
  note: 'remediationTemplate becomes remediation.templateRef {apiVersion, kind, name}; its namespace is the MHC’s',
};

/** A topology's `machineHealthCheck` is `healthCheck` in v1beta2, `enable` its `enabled`. */
const topologyHealthCheck = (at: string): HopMove => ({
  lower: `${at}machineHealthCheck`,
  upper: `${at}healthCheck`,
  ...nestedRows([moved('enable', 'enabled', 'enable is enabled'), ...healthCheckRows('', '')], true),
  note: 'topology machineHealthCheck becomes healthCheck {enabled, checks, remediation}',
});

/** A topology's node timeouts become whole seconds under `deletion` (control plane, each MD and MP). */
const topologyTimeouts = (at: string): HopMove[] => [
  seconds(`${at}nodeDrainTimeout`, `${at}deletion.nodeDrainTimeoutSeconds`),
  seconds(`${at}nodeVolumeDetachTimeout`, `${at}deletion.nodeVolumeDetachTimeoutSeconds`),
  seconds(`${at}nodeDeletionTimeout`, `${at}deletion.nodeDeletionTimeoutSeconds`),
];

/**
 * Each `workers.machineDeployments[]` item: strategy → rollout.strategy, deletePolicy →
 * deletion.order, remediation.maxInFlight → healthCheck.remediation.maxInFlight (after the
 * health check row, which writes the whole healthCheck going up), timeouts → deletion.
 */
const machineDeploymentTopology = nestedRows([
  moved('strategy.type', 'rollout.strategy.type', 'strategy moves under rollout'),
  moved(
    'strategy.rollingUpdate.maxSurge',
    'rollout.strategy.rollingUpdate.maxSurge',
    'strategy moves under rollout',
  ),
  moved(
    'strategy.rollingUpdate.maxUnavailable',
    'rollout.strategy.rollingUpdate.maxUnavailable',
    'strategy moves under rollout',
  ),
  moved('strategy.rollingUpdate.deletePolicy', 'deletion.order', 'deletePolicy is deletion.order'),
  ...topologyTimeouts(''),
  topologyHealthCheck(''),
  moved(
    'strategy.remediation.maxInFlight',
    'healthCheck.remediation.maxInFlight',
    'maxInFlight moves to healthCheck.remediation',
  ),
]);
const machinePoolTopology = nestedRows(topologyTimeouts(''));

const topologyRows: HopMove[] = [
  ...topologyTimeouts('spec.topology.controlPlane.'),
  topologyHealthCheck('spec.topology.controlPlane.'),
  {
    lower: 'spec.topology.workers.machineDeployments',
    upper: 'spec.topology.workers.machineDeployments',
    up: mapItems(machineDeploymentTopology.up),
    down: mapItems(machineDeploymentTopology.down),
    nested: true,
    note: 'each machine deployment topology regroups strategy, timeouts and health check',
  },
  {
    lower: 'spec.topology.workers.machinePools',
    upper: 'spec.topology.workers.machinePools',
    up: mapItems(machinePoolTopology.up),
    down: mapItems(machinePoolTopology.down),
    nested: true,
    note: 'each machine pool topology’s timeouts become seconds under deletion',
  },
];

const machinePhase: HopMove = {
  lower: 'status.phase',
  upper: 'status.phase',
  down: (phase) => (phase === 'Updating' ? 'Running' : phase),
  note: 'v1beta2’s Updating phase reads Running in v1beta1',
};

/** Rows MachineSets and MachineDeployments share. */
const setSpecRows: HopMove[] = [
  moved('spec.machineNamingStrategy', 'spec.machineNaming', 'machineNamingStrategy is machineNaming'),
  {
    ...moved(
      'spec.minReadySeconds',
      'spec.template.spec.minReadySeconds',
      'minReadySeconds moves to the machine template',
    ),
    up: zeroIsUnset,
  },
];

const CLUSTER_REFS = ['spec.controlPlaneRef', 'spec.infrastructureRef'];
const TEMPLATE = 'spec.template.';

export const v1beta1ToV1beta2: Hop = {
  lower: V1BETA1,
  upper: V1BETA2,
  tables: {
    Cluster: {
      kind: 'Cluster',
      groups: [
        hopGroup('', [
          ...CLUSTER_REFS.map(referenceRow),
          {
            lower: 'spec.clusterNetwork.apiServerPort',
            upper: 'spec.clusterNetwork.apiServerPort',
            down: zeroIsUnset,
            note: 'apiServerPort 0 means unset in v1beta1',
          },
          moved('spec.topology.class', 'spec.topology.classRef.name', 'topology class is classRef.name'),
          moved(
            'spec.topology.classNamespace',
            'spec.topology.classRef.namespace',
            'topology classNamespace is classRef.namespace',
          ),
          removed('spec.topology.rolloutAfter', 'v1beta2 has no topology.rolloutAfter'),
          ...topologyRows,
          moved(
            'status.infrastructureReady',
            'status.initialization.infrastructureProvisioned',
            'readiness flags move under status.initialization',
          ),
          moved(
            'status.controlPlaneReady',
            'status.initialization.controlPlaneInitialized',
            'readiness flags move under status.initialization',
          ),
          failureDomains,
          ...statusRows(),
          moved('status.v1beta2.controlPlane', 'status.controlPlane', 'replica counters from status.v1beta2'),
          moved('status.v1beta2.workers', 'status.workers', 'replica counters from status.v1beta2'),
        ]),
      ],
      finish: referenceFinish(CLUSTER_REFS),
      checkStash: guardFields(CLUSTER_GUARDS),
      stashBinding: referenceBinding(CLUSTER_REFS),
    },
    Machine: {
      kind: 'Machine',
      groups: [
        hopGroup('', [
          ...machineSpecRows(''),
          moved(
            'status.bootstrapReady',
            'status.initialization.bootstrapDataSecretCreated',
            'readiness flags move under status.initialization',
          ),
          moved(
            'status.infrastructureReady',
            'status.initialization.infrastructureProvisioned',
            'readiness flags move under status.initialization',
          ),
          {
            lower: 'status.nodeRef',
            upper: 'status.nodeRef',
            up: (ref): Json | undefined =>
              isObject(ref) ? (ref.name === undefined ? {} : { name: ref.name }) : ref,
            down: (ref) => (isObject(ref) ? { apiVersion: 'v1', kind: 'Node', ...ref } : ref),
            note: 'nodeRef is {name} in v1beta2',
          },
          machinePhase,
          ...statusRows(),
        ]),
      ],
      finish: referenceFinish(machineRefs('')),
      checkStash: guardFields(MACHINE_GUARDS),
      stashBinding: referenceBinding(machineRefs('')),
    },
    MachineSet: {
      kind: 'MachineSet',
      groups: [
        hopGroup('', [
          moved('spec.deletePolicy', 'spec.deletion.order', 'deletePolicy is deletion.order'),
          ...setSpecRows,
          ...machineSpecRows(TEMPLATE),
          ...statusRows(),
          ...replicaCounters(['readyReplicas', 'availableReplicas', 'fullyLabeledReplicas']),
        ]),
      ],
      finish: referenceFinish(machineRefs(TEMPLATE)),
      checkStash: guardFields(referenceGuards(machineRefs(TEMPLATE))),
      stashBinding: referenceBinding(machineRefs(TEMPLATE)),
    },
    MachineDeployment: {
      kind: 'MachineDeployment',
      groups: [
        hopGroup('', [
          moved('spec.strategy.type', 'spec.rollout.strategy.type', 'strategy moves under rollout'),
          moved(
            'spec.strategy.rollingUpdate.maxSurge',
            'spec.rollout.strategy.rollingUpdate.maxSurge',
            'strategy moves under rollout',
          ),
          moved(
            'spec.strategy.rollingUpdate.maxUnavailable',
            'spec.rollout.strategy.rollingUpdate.maxUnavailable',
            'strategy moves under rollout',
          ),
          moved(
            'spec.strategy.rollingUpdate.deletePolicy',
            'spec.deletion.order',
            'deletePolicy is deletion.order',
          ),
          moved(
            'spec.strategy.remediation.maxInFlight',
            'spec.remediation.maxInFlight',
            'remediation leaves strategy',
          ),
          moved('spec.rolloutAfter', 'spec.rollout.after', 'rolloutAfter is rollout.after'),
          ...setSpecRows,
          removed('spec.progressDeadlineSeconds', 'v1beta2 has no progressDeadlineSeconds'),
          removed('spec.revisionHistoryLimit', 'v1beta2 has no revisionHistoryLimit'),
          ...machineSpecRows(TEMPLATE),
          ...statusRows(),
          ...replicaCounters([
            'readyReplicas',
            'availableReplicas',
            'updatedReplicas',
            'unavailableReplicas',
          ]),
        ]),
      ],
      finish: referenceFinish(machineRefs(TEMPLATE)),
      checkStash: guardFields(referenceGuards(machineRefs(TEMPLATE))),
      stashBinding: referenceBinding(machineRefs(TEMPLATE)),
    },
    MachineHealthCheck: {
      kind: 'MachineHealthCheck',
      groups: [
        hopGroup('', [
          ...healthCheckRows('spec.', 'spec.').filter((row) => row.lower !== 'spec.remediationTemplate'),
          mhcRemediationTemplate,
          ...statusRows(),
        ]),
      ],
      checkStash: guardFields(MHC_GUARDS),
    },
  },
};
