import { formatObjectName } from '@capi-kit/core/objects';
import { V1ALPHA2_CLUSTER_NAME_LABEL } from './metadata.js';
import { clone, dotted, getPath, isObject, type Json, type JsonObject, setPath } from './path.js';
import {
  BOOTSTRAP_V1ALPHA2,
  type ClusterPluginInput,
  type ConversionPlugin,
  type GeneratedKind,
  INFRASTRUCTURE_V1ALPHA2,
  type MachinePluginInput,
  type ObjectRef,
  type OwnerInfo,
  objectRef,
  type PluginResult,
  pluginFail,
  pluginOk,
} from './plugins.js';
import { fromBase64, STASHED_FOR_DATA_KEY, toBase64 } from './secret-fields.js';

/**
 * Building blocks shared by provider plug-ins: a providerSpec → spec field table, the
 * kubeadm bootstrap config every v1alpha1 provider embedded, and the certificate Secrets
 * v1alpha1 clusters carried as key pairs.
 */

/** One providerSpec field and where it goes in the provider's v1alpha2 object. */
export interface ProviderFieldMove {
  /** Dotted path in the providerSpec value. */
  readonly from: string;
  /** Dotted path in the new object (`spec.sshKeyName`). */
  readonly to: string;
  readonly map?: (value: Json) => Json | undefined;
}

export interface ProviderFieldResult {
  /** The new object's fields, built from the table. */
  readonly object: JsonObject;
  readonly moves: { from: string; to: string }[];
}

/**
 * Applies a providerSpec field table. `label` names the new object in the report
 * (`AWSMachine ns/x`), `reportPrefix` where the built fields sit in it (`spec.`).
 */
export function moveProviderFields(
  value: JsonObject,
  table: readonly ProviderFieldMove[],
  label: string,
  reportPrefix = '',
): ProviderFieldResult {
  const object: JsonObject = {};
  const moves: { from: string; to: string }[] = [];
  for (const { row, from, to } of fieldPaths(table)) {
    const v = getPath(value, from) as Json | undefined;
    if (v === undefined) continue;
    const mapped = row.map === undefined ? v : row.map(v);
    if (mapped === undefined) continue;
    setPath(object, to, clone(mapped));
    moves.push({ from: row.from, to: `${label} ${reportPrefix}${row.to}` });
  }
  return { object, moves };
}

/** A table row with its dotted paths parsed. */
interface FieldPaths {
  readonly row: ProviderFieldMove;
  readonly from: readonly string[];
  readonly to: readonly string[];
}

// Plug-ins pass module-constant tables: each is parsed once.
const fieldPathsCache = new WeakMap<readonly ProviderFieldMove[], readonly FieldPaths[]>();

function fieldPaths(table: readonly ProviderFieldMove[]): readonly FieldPaths[] {
  let rows = fieldPathsCache.get(table);
  if (rows === undefined) {
    rows = table.map((row) => ({ row, from: dotted(row.from), to: dotted(row.to) }));
    fieldPathsCache.set(table, rows);
  }
  return rows;
}

/**
 * providerSpec fields (top level, or under `prefix`) that neither the table nor `consumed`
 * mention: they have no v1alpha2 home and stay only in the stash.
 */
export function unmappedFields(
  value: JsonObject,
  table: readonly ProviderFieldMove[],
  consumed: readonly string[],
  prefix = '',
): string[] {
  const source = getPath(value, dotted(prefix));
  if (!isObject(source)) return [];
  const { handled, parents } = handledFields(table, consumed);
  const out: string[] = [];
  for (const key of Object.keys(source)) {
    const k = prefix === '' ? key : `${prefix}.${key}`;
    if (!handled.has(k) && !parents.has(k)) out.push(k);
  }
  return out;
}

interface HandledFields {
  /** Fields the table moves or the plug-in consumes (and a providerSpec's own type fields). */
  readonly handled: ReadonlySet<string>;
  /** Every dotted path above a handled field (`a` and `a.b` for `a.b.c`). */
  readonly parents: ReadonlySet<string>;
}

// Plug-ins pass module-constant tables and lists: their sets are made once.
const handledCache = new WeakMap<readonly ProviderFieldMove[], WeakMap<readonly string[], HandledFields>>();

function handledFields(table: readonly ProviderFieldMove[], consumed: readonly string[]): HandledFields {
  let byConsumed = handledCache.get(table);
  if (byConsumed === undefined) {
    byConsumed = new WeakMap();
    handledCache.set(table, byConsumed);
  }
  let fields = byConsumed.get(consumed);
  if (fields === undefined) {
    const handled = new Set(['apiVersion', 'kind', 'metadata', ...consumed, ...table.map((r) => r.from)]);
    const parents = new Set<string>();
    for (const h of handled) {
      for (let dot = h.indexOf('.'); dot !== -1; dot = h.indexOf('.', dot + 1)) parents.add(h.slice(0, dot));
    }
    fields = { handled, parents };
    byConsumed.set(consumed, fields);
  }
  return fields;
}

export function noHomeWarnings(fields: readonly string[], source: string): string[] {
  return fields.map((f) => `${source}.${f} has no v1alpha2 field; it is kept only in the stash annotation`);
}

function meta(name: string, namespace: string | undefined, clusterName: string | undefined): JsonObject {
  // (fields added in order, without spreads: this runs for every generated object)
  const metadata: JsonObject = { name };
  if (namespace !== undefined) metadata.namespace = namespace;
  if (clusterName !== undefined) metadata.labels = { [V1ALPHA2_CLUSTER_NAME_LABEL]: clusterName };
  return metadata;
}

/** The kubeadm parts of a v1alpha1 providerSpec, wherever the provider kept them. */
export interface KubeadmParts {
  /** `kubeadmConfiguration.init` of the machine providerSpec. */
  readonly init?: JsonObject;
  /** `kubeadmConfiguration.join` of the machine providerSpec. */
  readonly join?: JsonObject;
  /** The cluster providerSpec's `clusterConfiguration` (control-plane machines only). */
  readonly clusterConfiguration?: JsonObject;
  /** KubeadmConfig `files` entries. */
  readonly files?: readonly JsonObject[];
  readonly ntpServers?: readonly string[];
  readonly users?: readonly JsonObject[];
}

/**
 * The kubeadm parts every v1alpha1 provider kept in the same places: the machine
 * providerSpec's `kubeadmConfiguration.init` / `.join`, and for control-plane machines the
 * `clusterConfiguration` of their Cluster's providerSpec.
 */
export function kubeadmConfigurationParts(input: MachinePluginInput): KubeadmParts {
  const kubeadm = input.providerSpec.kubeadmConfiguration;
  const init = isObject(kubeadm) ? kubeadm.init : undefined;
  const join = isObject(kubeadm) ? kubeadm.join : undefined;
  const clusterConfiguration = input.cluster?.providerSpec?.clusterConfiguration;
  const parts: { -readonly [K in keyof KubeadmParts]: KubeadmParts[K] } = {};
  if (isObject(init)) parts.init = init;
  if (isObject(join)) parts.join = join;
  if (input.controlPlane && isObject(clusterConfiguration)) parts.clusterConfiguration = clusterConfiguration;
  return parts;
}

/**
 * A KubeadmConfig spec from kubeadm parts. Control-plane machines get init, cluster and
 * join configuration (CABPK picks init for the first one, join for the rest); workers get a
 * join configuration, empty if the providerSpec had none, as CABPK needs one to join.
 */
export function kubeadmSpec(parts: KubeadmParts, controlPlane: boolean): JsonObject {
  const spec: JsonObject = {};
  if (controlPlane) {
    spec.clusterConfiguration = clone(parts.clusterConfiguration ?? {});
    spec.initConfiguration = clone(parts.init ?? {});
  }
  spec.joinConfiguration = clone(parts.join ?? {});
  if (parts.files !== undefined && parts.files.length > 0) spec.files = clone([...parts.files]);
  if (parts.ntpServers !== undefined && parts.ntpServers.length > 0) {
    spec.ntp = { servers: [...parts.ntpServers] };
  }
  if (parts.users !== undefined && parts.users.length > 0) spec.users = clone([...parts.users]);
  return spec;
}

export interface Named {
  readonly name: string;
  readonly namespace?: string;
  readonly clusterName?: string;
}

export function kubeadmConfig(at: Named, spec: JsonObject): { object: JsonObject; ref: ObjectRef } {
  return {
    object: {
      apiVersion: BOOTSTRAP_V1ALPHA2,
      kind: 'KubeadmConfig',
      metadata: meta(at.name, at.namespace, at.clusterName),
      spec,
    },
    ref: objectRef(BOOTSTRAP_V1ALPHA2, 'KubeadmConfig', at.name, at.namespace),
  };
}

export function kubeadmConfigTemplate(at: Named, spec: JsonObject): { object: JsonObject; ref: ObjectRef } {
  return {
    object: {
      apiVersion: BOOTSTRAP_V1ALPHA2,
      kind: 'KubeadmConfigTemplate',
      metadata: meta(at.name, at.namespace, at.clusterName),
      spec: { template: { spec } },
    },
    ref: objectRef(BOOTSTRAP_V1ALPHA2, 'KubeadmConfigTemplate', at.name, at.namespace),
  };
}

/**
 * The kinds a plug-in built from `clusterOutput` and `machineHooks` makes, for its
 * `generates`: the infrastructure cluster, machine and machine template kinds, KubeadmConfig
 * and KubeadmConfigTemplate, and the key-pair Secrets.
 */
export function generatedKinds(clusterKind: string, machineKind: string): GeneratedKind[] {
  return [
    { apiVersion: INFRASTRUCTURE_V1ALPHA2, kind: clusterKind },
    { apiVersion: INFRASTRUCTURE_V1ALPHA2, kind: machineKind },
    { apiVersion: INFRASTRUCTURE_V1ALPHA2, kind: `${machineKind}Template` },
    { apiVersion: BOOTSTRAP_V1ALPHA2, kind: 'KubeadmConfig' },
    { apiVersion: BOOTSTRAP_V1ALPHA2, kind: 'KubeadmConfigTemplate' },
    { apiVersion: 'v1', kind: 'Secret' },
  ];
}

/** An infrastructure object (or template) with standard metadata. */
export function providerObject(apiVersion: string, kind: string, at: Named, spec: JsonObject): JsonObject {
  return { apiVersion, kind, metadata: meta(at.name, at.namespace, at.clusterName), spec };
}

/** Key pair fields of v1alpha1 cluster providerSpecs and the Secret suffix CAPI v0.2 reads them from. */
export const KEY_PAIR_SECRETS: readonly (readonly [field: string, suffix: string])[] = [
  ['caKeyPair', 'ca'],
  ['etcdCAKeyPair', 'etcd'],
  ['frontProxyCAKeyPair', 'proxy'],
  ['saKeyPair', 'sa'],
];

/**
 * The cluster certificate key pairs as the Secrets v1alpha2 looks for (`<cluster>-ca`, …,
 * data `tls.crt` / `tls.key`). v1alpha1 stored cert and key as []byte, which JSON already
 * writes as base64: the strings go into Secret `data` as they are.
 */
export function certificateSecrets(
  value: JsonObject,
  cluster: { name: string; namespace?: string },
): {
  objects: JsonObject[];
  moves: { from: string; to: string }[];
  warnings: string[];
  keyPairs: { field: string; secret: string }[];
} {
  const objects: JsonObject[] = [];
  const keyPairs: { field: string; secret: string }[] = [];
  const moves: { from: string; to: string }[] = [];
  const warnings: string[] = [];
  for (const [field, suffix] of KEY_PAIR_SECRETS) {
    const pair = value[field];
    if (pair === undefined) continue;
    const cert = isObject(pair) ? pair.cert : undefined;
    const key = isObject(pair) ? pair.key : undefined;
    if (typeof cert !== 'string' || typeof key !== 'string' || cert === '' || key === '') {
      if (!(isObject(pair) && Object.keys(pair).length === 0)) {
        warnings.push(
          `${field} needs both cert and key to become a Secret; kept only in the stash annotation`,
        );
      }
      continue;
    }
    const name = `${cluster.name}-${suffix}`;
    objects.push({
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: meta(name, cluster.namespace, cluster.name),
      type: 'Opaque',
      data: { 'tls.crt': cert, 'tls.key': key },
    });
    const label = labelOf('Secret', { name, namespace: cluster.namespace });
    moves.push({ from: `${field}.cert`, to: `${label} data["tls.crt"]` });
    moves.push({ from: `${field}.key`, to: `${label} data["tls.key"]` });
    keyPairs.push({ field, secret: name });
  }
  return { objects, moves, warnings, keyPairs };
}

/**
 * Credentials (text fields of a cluster providerSpec value that no v1alpha2 object has) as one
 * Secret `<cluster>-<suffix>` made only for the way back: a data key per field, and the Cluster
 * it was made for, so the stash can name the Secret instead of keeping them (secret-fields.ts).
 * A field that is not well-formed text is not `claimed`: it stays in the stash, with the other
 * unmapped fields' warning.
 */
export function credentialsSecret(
  value: JsonObject,
  fields: readonly string[],
  cluster: { name: string; namespace?: string },
  suffix: string,
): {
  objects: JsonObject[];
  moves: { from: string; to: string }[];
  warnings: string[];
  secretFields: { field: string; secret: string }[];
  claimed: string[];
} {
  const data: JsonObject = {};
  const claimed: string[] = [];
  for (const field of fields) {
    const text = Object.hasOwn(value, field) ? value[field] : undefined;
    if (typeof text !== 'string') continue;
    const encoded = toBase64(text);
    // (text with a lone surrogate has no exact UTF-8 encoding: it would come back changed)
    if (fromBase64(encoded) !== text) continue;
    data[field] = encoded;
    claimed.push(field);
  }
  if (claimed.length === 0) return { objects: [], moves: [], warnings: [], secretFields: [], claimed };
  const name = `${cluster.name}-${suffix}`;
  data[STASHED_FOR_DATA_KEY] = toBase64(cluster.name);
  const label = labelOf('Secret', { name, namespace: cluster.namespace });
  return {
    objects: [
      {
        apiVersion: 'v1',
        kind: 'Secret',
        metadata: meta(name, cluster.namespace, cluster.name),
        type: 'Opaque',
        data,
      },
    ],
    moves: claimed.map((field) => ({ from: field, to: `${label} data["${field}"]` })),
    warnings: [
      `${claimed.join(', ')} went into ${label} only for the way back: no v1alpha2 object reads it (give the v1alpha2 provider its credentials as it expects)`,
    ],
    secretFields: claimed.map((field) => ({ field, secret: name })),
    claimed,
  };
}

/** `Kind ns/name` for move targets. */
export function labelOf(kind: string, at: Named): string {
  return formatObjectName({ kind, ...at });
}

/** A Cluster's generated objects: named after it, and labelled with its own name. */
export function clusterNamed(input: ClusterPluginInput): Named {
  const { owner } = input;
  return {
    name: owner.name,
    clusterName: owner.name,
    ...(owner.namespace === undefined ? {} : { namespace: owner.namespace }),
  };
}

/** A Machine's (or machine template's) generated objects: named after it, labelled with its cluster. */
export function machineNamed(input: MachinePluginInput): Named {
  const named: { name: string; namespace?: string; clusterName?: string } = { name: input.owner.name };
  if (input.owner.namespace !== undefined) named.namespace = input.owner.namespace;
  if (input.clusterName !== undefined) named.clusterName = input.clusterName;
  return named;
}

/**
 * Why a hook cannot convert a providerSpec of another kind than the `expected` one
 * (`a Cluster needs an AWSClusterProviderSpec, not …`); undefined when the kind fits.
 */
export function unexpectedProviderSpecKind(
  input: { readonly owner: OwnerInfo; readonly providerSpec: JsonObject },
  expected: string,
): string | undefined {
  const kind = input.providerSpec.kind;
  if (kind === expected) return undefined;
  const article = /^[AEIOU]/.test(expected) ? 'an' : 'a';
  return `a ${input.owner.kind} needs ${article} ${expected}, not ${String(kind)}`;
}

/**
 * The whole `cluster` hook of a provider whose cluster providerSpec is a field table plus
 * the certificate key pairs: the infrastructure cluster `kind` (named after the Cluster)
 * with the table's fields in its spec, the key pairs as Secrets, and a warning for each
 * field that neither the table, the key pairs nor `consumed` (what the provider sends
 * elsewhere, such as the Machines' bootstrap config) mention. `credentials` go into their own
 * Secret (`credentialsSecret`), out of the stash.
 */
export function clusterOutput(
  input: ClusterPluginInput,
  kind: string,
  table: readonly ProviderFieldMove[],
  consumed: readonly string[],
  credentials?: { readonly fields: readonly string[]; readonly suffix: string },
): PluginResult {
  const { providerSpec } = input;
  const at = clusterNamed(input);
  const fields = moveProviderFields(providerSpec, table, labelOf(kind, at), 'spec.');
  const secrets = certificateSecrets(providerSpec, at);
  const kept =
    credentials === undefined
      ? undefined
      : credentialsSecret(providerSpec, credentials.fields, at, credentials.suffix);
  const handled = [...KEY_PAIR_SECRETS.map(([field]) => field), ...consumed, ...(kept?.claimed ?? [])];
  return pluginOk({
    infrastructureRef: objectRef(INFRASTRUCTURE_V1ALPHA2, kind, at.name, at.namespace),
    objects: [
      providerObject(INFRASTRUCTURE_V1ALPHA2, kind, at, fields.object),
      ...secrets.objects,
      ...(kept?.objects ?? []),
    ],
    moves: [...fields.moves, ...secrets.moves, ...(kept?.moves ?? [])],
    warnings: [
      ...noHomeWarnings(unmappedFields(providerSpec, table, handled), input.providerSpecSource),
      ...secrets.warnings,
      ...(kept?.warnings ?? []),
    ],
    keyPairs: secrets.keyPairs,
    ...(kept === undefined || kept.secretFields.length === 0 ? {} : { secretFields: kept.secretFields }),
  });
}

/** What a plug-in built from a machine providerSpec, for `machineOutput` / `machineTemplateOutput`. */
export interface MachineParts {
  /** `machineNamed(input)`: `machineHooks`' references name the objects so. */
  readonly at: Named;
  /** The infrastructure spec's fields (`moveProviderFields(…).object`). */
  readonly spec: JsonObject;
  readonly moves: readonly { from: string; to: string }[];
  /** The KubeadmConfig spec (`kubeadmSpec`). */
  readonly bootstrap: JsonObject;
  readonly warnings: readonly string[];
}

/**
 * A `machine` hook's output: the infrastructure machine `kind` (with the Machine's
 * providerID, if any) and a KubeadmConfig, both named after the Machine.
 */
export function machineOutput(input: MachinePluginInput, kind: string, parts: MachineParts): PluginResult {
  const { at, spec } = parts;
  const moves = parts.moves.slice();
  if (input.providerID !== undefined) {
    spec.providerID = input.providerID;
    moves.push({ from: '(Machine spec.providerID)', to: `${labelOf(kind, at)} spec.providerID` });
  }
  moves.push({ from: 'kubeadmConfiguration', to: `${labelOf('KubeadmConfig', at)} spec` });
  const bootstrap = kubeadmConfig(at, parts.bootstrap);
  return pluginOk({
    infrastructureRef: objectRef(INFRASTRUCTURE_V1ALPHA2, kind, at.name, at.namespace),
    bootstrap: { configRef: bootstrap.ref },
    objects: [providerObject(INFRASTRUCTURE_V1ALPHA2, kind, at, spec), bootstrap.object],
    moves,
    warnings: parts.warnings,
  });
}

/**
 * A `machineTemplate` hook's output: the infrastructure machine template `kind` and a
 * KubeadmConfigTemplate, named after the MachineSet / MachineDeployment and referenced by
 * that same name.
 */
export function machineTemplateOutput(kind: string, parts: MachineParts): PluginResult {
  const { at } = parts;
  const bootstrap = kubeadmConfigTemplate(at, parts.bootstrap);
  return pluginOk({
    infrastructureRef: objectRef(INFRASTRUCTURE_V1ALPHA2, kind, at.name, at.namespace),
    bootstrap: { configRef: bootstrap.ref },
    objects: [
      providerObject(INFRASTRUCTURE_V1ALPHA2, kind, at, { template: { spec: parts.spec } }),
      bootstrap.object,
    ],
    moves: [
      ...parts.moves,
      { from: 'kubeadmConfiguration', to: `${labelOf('KubeadmConfigTemplate', at)} spec.template.spec` },
    ],
    warnings: parts.warnings,
  });
}

/**
 * Builds a provider's infrastructure machine parts: for a Machine (`kind`, fields at
 * `spec.`) or for the machine template of a MachineSet / MachineDeployment (`kind` +
 * `Template`, fields at `spec.template.spec.`). Returns why it cannot, as a message.
 */
export type MachinePartsBuilder = (
  input: MachinePluginInput,
  kind: string,
  reportPrefix: string,
) => MachineParts | string;

/**
 * A provider's `machine` and `machineTemplate` hooks from one builder: the infrastructure
 * machine `kind` (`AWSMachine`) and its template (`AWSMachineTemplate`), each with its
 * KubeadmConfig(Template), or the builder's message as the plug-in's failure; and
 * `machineReferences`, the references those hooks set, without building anything. (The
 * builder names its objects `machineNamed(input)`, as `MachineParts.at` says.)
 */
export function machineHooks(
  kind: string,
  build: MachinePartsBuilder,
): Required<Pick<ConversionPlugin, 'machine' | 'machineTemplate' | 'machineReferences'>> {
  const template = `${kind}Template`;
  return {
    machine(input) {
      const built = build(input, kind, 'spec.');
      return typeof built === 'string' ? pluginFail(built) : machineOutput(input, kind, built);
    },
    machineTemplate(input) {
      const built = build(input, template, 'spec.template.spec.');
      return typeof built === 'string' ? pluginFail(built) : machineTemplateOutput(template, built);
    },
    machineReferences(input, isTemplate) {
      const { name, namespace } = machineNamed(input);
      return {
        infrastructureRef: objectRef(INFRASTRUCTURE_V1ALPHA2, isTemplate ? template : kind, name, namespace),
        bootstrap: {
          configRef: objectRef(
            BOOTSTRAP_V1ALPHA2,
            isTemplate ? 'KubeadmConfigTemplate' : 'KubeadmConfig',
            name,
            namespace,
          ),
        },
      };
    },
  };
}
