/**
 * The provider plug-in step of going up: where v1alpha1 kept a providerSpec, a plug-in makes
 * the v1alpha2 infrastructure and bootstrap objects and the references to them.
 */
import * as E from 'fp-ts/lib/Either.js';
import { versionsUp } from './common-moves.js';
import type { ConversionFailure } from './errors.js';
import {
  CERT_DATA_KEY,
  claimedKeyPairs,
  KEY_DATA_KEY,
  type KeyPairRecord,
  type SecretData,
} from './key-pairs.js';
import type { KindTable } from './kind-table.js';
import { LABEL_RENAMES } from './metadata.js';
import type { AppliedMove } from './moves.js';
import { identity } from './object-conversion.js';
import {
  deepEqual,
  dotted,
  formatPath,
  getPath,
  isObject,
  isPrefix,
  type Json,
  type JsonObject,
  type OwnedSet,
  ownPath,
  setPath,
} from './path.js';
import {
  type ClusterInfo,
  type ClusterPluginInput,
  type ConversionPlugin,
  findPlugin,
  type MachinePluginInput,
  type OwnerInfo,
  type PluginOutput,
  providerSpecType,
} from './plugins.js';
import { claimedSecretFields, type SecretFieldRecord, secretHolds } from './secret-fields.js';
import type { StashEntry } from './stash.js';

function str(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** A MachineClass found for a `valueFrom.machineClass` reference. */
export interface ResolvedMachineClass {
  readonly providerSpec: JsonObject;
  /** `MachineClass ns/name`, for the report. */
  readonly source: string;
}

export interface ConvertOptions {
  /** Provider plug-ins, asked in order. Needed going up for every Machine, MachineSet and MachineDeployment. */
  readonly plugins?: readonly ConversionPlugin[];
  /**
   * Finds the MachineClass a `spec.providerSpec.valueFrom.machineClass` names (manifest
   * conversion looks in the same manifest). Left: why it cannot be found.
   */
  readonly resolveMachineClass?: (
    ref: JsonObject,
    namespace: string | undefined,
  ) => E.Either<string, ResolvedMachineClass>;
  /** Finds the Cluster a Machine belongs to, so plug-ins can use its providerSpec. */
  readonly findCluster?: (name: string, namespace: string | undefined) => ClusterInfo | undefined;
  /**
   * Going down: a Secret's data, looked up in the object's namespace. A stash names the
   * Secrets that hold a Cluster's private keys instead of keeping them (key-pairs.ts); without
   * this, or without the Secret, such a Cluster is refused. Manifest conversion looks in the
   * manifest.
   */
  readonly secretData?: SecretData;
  /**
   * Going up: keep private keys and credentials in the stash instead of naming the Secrets a
   * plug-in made of them. Only for callers that throw the generated Secrets away and whose
   * input already shows them to the same readers (the conversion webhook), so the way back
   * needs none.
   */
  readonly keysInStash?: boolean;
}

const [V1ALPHA1_CLUSTER_LABEL] = LABEL_RENAMES[0]!;
const OBJECT_CLUSTER_LABEL_PATH = ['metadata', 'labels', V1ALPHA1_CLUSTER_LABEL];

/**
 * The paths runPlugin reads and writes for one kind table, made once per table (they depend
 * only on `table.infrastructure.at`), so a conversion builds none of them.
 */
interface PluginPaths {
  readonly spec: readonly string[];
  readonly infrastructureRef: readonly string[];
  readonly bootstrap: readonly string[];
  readonly providerSpec: readonly string[];
  readonly versions: readonly string[];
  readonly providerID: readonly string[];
  /** The cluster-name label of the template (`at`) itself. */
  readonly clusterLabel: readonly string[];
  /** `formatPath(providerSpec)`, for messages and the report. */
  readonly where: string;
  readonly whereValue: string;
}

const pluginPathsCache = new WeakMap<KindTable, PluginPaths>();

function pluginPaths(table: KindTable): PluginPaths {
  let paths = pluginPathsCache.get(table);
  if (paths === undefined) {
    const base = dotted(table.infrastructure.at);
    const spec = [...base, 'spec'];
    const providerSpec = [...spec, 'providerSpec'];
    const where = formatPath(providerSpec);
    paths = {
      spec,
      infrastructureRef: [...spec, 'infrastructureRef'],
      bootstrap: [...spec, 'bootstrap'],
      providerSpec,
      versions: [...spec, 'versions'],
      providerID: [...spec, 'providerID'],
      clusterLabel: [...base, ...OBJECT_CLUSTER_LABEL_PATH],
      where,
      whereValue: `${where}.value`,
    };
    pluginPathsCache.set(table, paths);
  }
  return paths;
}

function clusterNameLabel(object: JsonObject, paths: PluginPaths): string | undefined {
  return str(getPath(object, paths.clusterLabel)) ?? str(getPath(object, OBJECT_CLUSTER_LABEL_PATH));
}

/** Whether a stash entry put back `path` (or something inside it). */
function restoredPath(restored: readonly StashEntry[], path: readonly string[]): boolean {
  for (const entry of restored) if (isPrefix(path, entry.path)) return true;
  return false;
}

/**
 * Going down: the stash entry that keeps a missing infrastructure reference missing on the
 * way back up. A v1alpha2 object without one (a Cluster's is optional; a Machine's may have
 * been taken out, or never made for a template without a spec) converts to a v1alpha1 object
 * with a providerSpec (from the stash, or the empty one v1alpha1 requires), from which the
 * way up would make one, or refuse to. Undefined when the way up would make none anyway.
 */
export function missingReference(
  source: JsonObject,
  converted: JsonObject,
  table: KindTable,
): StashEntry | undefined {
  const paths = pluginPaths(table);
  if (getPath(source, paths.infrastructureRef) !== undefined) return undefined;
  if (!isObject(getPath(converted, paths.spec))) return undefined;
  if (!table.infrastructure.required) {
    // (the way up's own test: a value or class reference of another type makes no reference)
    if (!hasProviderSpecSource(getPath(converted, paths.providerSpec))) return undefined;
  }
  return { path: [...paths.infrastructureRef] };
}

/**
 * Whether a providerSpec holds what the way up builds an infrastructure reference from: an
 * inline value or a MachineClass reference, each an object. (`value: null`, `value: x` or
 * `valueFrom: {}` builds none: a Cluster's is left unset, a Machine's is refused.)
 */
function hasProviderSpecSource(providerSpec: unknown): providerSpec is JsonObject {
  return (
    isObject(providerSpec) &&
    (isObject(providerSpec.value) ||
      (isObject(providerSpec.valueFrom) && isObject(providerSpec.valueFrom.machineClass)))
  );
}

/**
 * Going down: whether the plug-in would make exactly the stash's `generated` references again
 * from `converted`, the v1alpha1 result (its providerSpec put back by the stash). Only then may
 * the way down leave them out of the stash it writes. The list is data from whoever could
 * annotate the object: a forged one naming an `Evil` infrastructureRef as generated had the
 * plug-in's `AWSMachine` reference replace it on the way back up, without a word. A list the
 * loaded plug-ins cannot confirm (none handles the providerSpec, or it makes other references)
 * is not trusted: the references stay in the stash, and the way up restores them as they were.
 * With no plug-in loaded at all there is nothing to ask, and the list is trusted as before, so
 * a plain `toV1alpha1(object)` still gives back the v1alpha1 input exactly (the CLI and
 * migrate load the plug-ins both ways; a webhook has those its operator passes).
 */
export function generatedByPlugin(
  converted: JsonObject,
  table: KindTable,
  options: ConvertOptions,
  generated: readonly { readonly path: readonly string[]; readonly value: Json }[],
): boolean {
  if (options.plugins === undefined || options.plugins.length === 0) return true;
  const output = pluginReferences(converted, table, options);
  if (output === undefined) return false;
  const paths = pluginPaths(table);
  for (const g of generated) {
    const made = samePath(g.path, paths.infrastructureRef)
      ? output.infrastructureRef
      : samePath(g.path, paths.bootstrap) && output.bootstrap !== undefined
        ? { configRef: output.bootstrap.configRef }
        : undefined;
    if (made === undefined || !deepEqual(g.value, made as unknown as Json)) return false;
  }
  return true;
}

/**
 * The references the plug-in would set going up from `source`: from its `machineReferences`
 * when it has them (nothing built: this runs on every object going down), else from its
 * hook's whole output. Undefined when it would set none, or refuse.
 */
function pluginReferences(
  source: JsonObject,
  table: KindTable,
  options: ConvertOptions,
): Pick<PluginOutput, 'infrastructureRef' | 'bootstrap'> | undefined {
  const question = pluginQuestion(source, table, options);
  if (E.isLeft(question) || !question.right.made) return undefined;
  const { plugin, input } = question.right;
  const { role } = table.infrastructure;
  if (role !== 'cluster' && plugin.machineReferences !== undefined)
    return plugin.machineReferences(input as MachinePluginInput, role === 'template');
  const asked = answer(question.right, table);
  return E.isLeft(asked) || !asked.right.made ? undefined : asked.right.output;
}

function samePath(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && isPrefix(a, b);
}

/** Whether a stash entry put back `path` as absent. */
function restoredAbsent(restored: readonly StashEntry[], path: readonly string[]): boolean {
  for (const entry of restored) {
    if (entry.value === undefined && entry.path.length === path.length && isPrefix(path, entry.path))
      return true;
  }
  return false;
}

/** The records of what the plug-in keeps in Secrets: key pairs and fields (credentials). */
interface SecretRecords {
  readonly keyPairs: readonly KeyPairRecord[];
  readonly secretFields: readonly SecretFieldRecord[];
}

const NO_SECRET_RECORDS: SecretRecords = { keyPairs: [], secretFields: [] };

/**
 * Going up when no plug-in runs (the stash put the references back): the key pairs and fields
 * the plug-in would keep in Secrets, for those whose Secret (`secretData`) already holds the
 * same value, so they stay out of the stash as they do when it runs (key-pairs.ts,
 * secret-fields.ts). Only a Cluster's hook is asked (both are a Cluster's); whatever it cannot
 * answer, or a Secret that is not given, leaves the value in the stash, with a warning.
 */
function recordsInSecrets(
  source: JsonObject,
  table: KindTable,
  options: ConvertOptions,
  warnings: string[],
): SecretRecords {
  const value = getPath(source, [...pluginPaths(table).providerSpec, 'value']);
  const { name, namespace } = identity(source);
  if (options.keysInStash === true || table.infrastructure.role !== 'cluster' || !isObject(value))
    return NO_SECRET_RECORDS;
  const plugin = findPlugin(options.plugins ?? [], value);
  if (plugin === undefined || name === undefined) return NO_SECRET_RECORDS;
  const owner = { kind: table.kind, name, ...(namespace === undefined ? {} : { namespace }) };
  const made = plugin.cluster({
    owner,
    providerSpec: value,
    providerSpecSource: pluginPaths(table).whereValue,
  });
  if (E.isLeft(made)) return NO_SECRET_RECORDS;
  const claimedPairs = claimedKeyPairs(made.right, value, table, owner);
  const claimedFields = claimedSecretFields(made.right, value, table, owner);
  const notGiven = (path: string, secret: string, holding: string, value: string) =>
    warnings.push(
      `${path} is kept in the stash annotation: Secret ${secret} holding ${holding} was not given (convert it together with the Secret to keep the ${value} out)`,
    );
  const keyPairs = E.isLeft(claimedPairs)
    ? []
    : claimedPairs.right.filter((record) => {
        const pair = getPath(source, record.path) as JsonObject;
        const data = options.secretData?.(namespace, record.secret);
        if (data?.[CERT_DATA_KEY] === pair.cert && data?.[KEY_DATA_KEY] === pair.key) return true;
        notGiven(`${formatPath(record.path)}.key`, record.secret, 'this pair', 'key');
        return false;
      });
  const secretFields = E.isLeft(claimedFields)
    ? []
    : claimedFields.right.filter((record) => {
        const field = record.path[record.path.length - 1]!;
        const data = options.secretData?.(namespace, record.secret);
        if (secretHolds(data, field, getPath(source, record.path), name)) return true;
        notGiven(formatPath(record.path), record.secret, 'this field', 'value');
        return false;
      });
  return { keyPairs, secretFields };
}

/** A plug-in's claim on a Secret that does not hold, as its refusal. */
function refusedClaim(
  plugin: ConversionPlugin,
  path: string,
  why: string,
): E.Either<ConversionFailure, never> {
  return E.left({ code: 'plugin-refused', path, message: `${plugin.name} plug-in ${why}` });
}

/** The plug-in a v1alpha1 object's providerSpec calls for, and what to ask it; or why none is asked. */
type PluginQuestion =
  | { readonly made: false; readonly warning: string }
  | {
      readonly made: true;
      readonly plugin: ConversionPlugin;
      /** The providerSpec value it converts, and where that came from. */
      readonly value: JsonObject;
      readonly valueSource: string;
      readonly owner: OwnerInfo;
      /** Where errors about the value point: the value when inline, else the reference. */
      readonly valuePath: string;
      readonly input: ClusterPluginInput | MachinePluginInput;
    };

/** The plug-in's answer: its output (or why an optional reference is left unset). */
type PluginAnswer =
  | Extract<PluginQuestion, { made: false }>
  | (Extract<PluginQuestion, { made: true }> & { readonly output: PluginOutput });

/**
 * Asks the plug-in that handles a v1alpha1 `source`'s providerSpec for the v1alpha2 objects
 * and references. Left: why it cannot.
 */
function askPlugin(
  source: JsonObject,
  table: KindTable,
  options: ConvertOptions,
): E.Either<ConversionFailure, PluginAnswer> {
  const question = pluginQuestion(source, table, options);
  if (E.isLeft(question)) return question;
  return question.right.made ? answer(question.right, table) : E.right(question.right);
}

/** The plug-in's hook for the table's role, asked `question`. */
function answer(
  question: Extract<PluginQuestion, { made: true }>,
  table: KindTable,
): E.Either<ConversionFailure, PluginAnswer> {
  const { plugin, input, valuePath } = question;
  const { role } = table.infrastructure;
  const result =
    role === 'cluster'
      ? plugin.cluster(input)
      : role === 'machine'
        ? plugin.machine(input as MachinePluginInput)
        : plugin.machineTemplate(input as MachinePluginInput);
  if (E.isLeft(result)) {
    const { path, message } = result.left;
    return E.left({
      code: 'plugin-refused',
      path: path === undefined ? valuePath : `${valuePath}.${path}`,
      message: `${plugin.name} plug-in: ${message}`,
    });
  }
  return E.right({ ...question, output: result.right });
}

/**
 * Finds the providerSpec value of a v1alpha1 `source` (inline, or a MachineClass's), the
 * plug-in that handles it, and the input to give it. Left: why there is none.
 */
function pluginQuestion(
  source: JsonObject,
  table: KindTable,
  options: ConvertOptions,
): E.Either<ConversionFailure, PluginQuestion> {
  const { role } = table.infrastructure;
  const paths = pluginPaths(table);
  const where = paths.where;
  const providerSpec = getPath(source, paths.providerSpec);
  const { name, namespace } = identity(source);
  const ps = isObject(providerSpec) ? providerSpec : undefined;
  let value: JsonObject | undefined;
  let valueSource = paths.whereValue;
  if (ps !== undefined && isObject(ps.value)) {
    value = ps.value;
  } else if (ps !== undefined && isObject(ps.valueFrom) && isObject(ps.valueFrom.machineClass)) {
    const ref = ps.valueFrom.machineClass;
    if (options.resolveMachineClass === undefined) {
      return E.left({
        code: 'machine-class',
        path: `${where}.valueFrom.machineClass`,
        message: 'refers to a MachineClass; convert the whole manifest that holds it',
      });
    }
    const resolved = options.resolveMachineClass(ref, namespace);
    if (E.isLeft(resolved))
      return E.left({
        code: 'machine-class',
        path: `${where}.valueFrom.machineClass`,
        message: resolved.left,
      });
    value = resolved.right.providerSpec;
    valueSource = resolved.right.source;
  } else {
    // (a value that is there but no object is named as such, not as missing)
    const given = ps?.value;
    const missing = given === undefined || given === null;
    const notObject = missing
      ? ''
      : `${Array.isArray(given) ? 'a list' : `a ${typeof given}`}, not an object`;
    if (!table.infrastructure.required) {
      return E.right({
        made: false,
        warning: missing
          ? 'no spec.providerSpec.value: spec.infrastructureRef left unset'
          : `spec.providerSpec.value is ${notObject}: spec.infrastructureRef left unset`,
      });
    }
    const required = `the required ${formatPath(paths.infrastructureRef)} and ${formatPath(paths.bootstrap)}`;
    return E.left(
      missing
        ? {
            path: where,
            message: `has neither value nor valueFrom.machineClass, so there is nothing to build ${required} from`,
          }
        : {
            path: paths.whereValue,
            message: `is ${notObject}, so there is nothing to build ${required} from`,
          },
    );
  }

  // Errors about the value point at it when inline, at the reference when it came from a class.
  const inline = valueSource === paths.whereValue;
  const valuePath = inline ? valueSource : where;
  const plugins = options.plugins ?? [];
  const plugin = findPlugin(plugins, value);
  if (plugin === undefined) {
    const t = providerSpecType(value);
    const loaded = plugins.length === 0 ? 'none loaded' : `loaded: ${plugins.map((p) => p.name).join(', ')}`;
    const type = `apiVersion ${JSON.stringify(t.apiVersion ?? '(none)')} kind ${JSON.stringify(t.kind ?? '(none)')}`;
    return E.left({
      code: 'no-plugin',
      path: valuePath,
      message: `no conversion plug-in handles providerSpec ${type}${inline ? '' : ` (from ${valueSource})`} (${loaded})`,
    });
  }
  if (name === undefined) {
    return E.left({
      path: 'metadata.name',
      message: 'is required: the generated provider objects are named after it',
    });
  }
  const owner: { -readonly [K in keyof OwnerInfo]: OwnerInfo[K] } = { kind: table.kind, name };
  if (namespace !== undefined) owner.namespace = namespace;
  const asked = { plugin, value, valueSource, owner, valuePath };
  if (role === 'cluster') {
    return E.right({
      made: true,
      ...asked,
      input: { owner, providerSpec: value, providerSpecSource: valueSource },
    });
  }
  const clusterName = clusterNameLabel(source, paths);
  const cluster = clusterName === undefined ? undefined : options.findCluster?.(clusterName, namespace);
  const versions = getPath(source, paths.versions) as Json | undefined;
  const version = versionsUp(versions);
  const providerID = str(getPath(source, paths.providerID));
  // (optional fields added one by one, without spreads: this runs for every object going up)
  const input: { -readonly [K in keyof MachinePluginInput]: MachinePluginInput[K] } = {
    owner,
    providerSpec: value,
    providerSpecSource: valueSource,
    controlPlane: isObject(versions) && str(versions.controlPlane) !== undefined,
  };
  if (clusterName !== undefined) input.clusterName = clusterName;
  if (cluster !== undefined) input.cluster = cluster;
  if (typeof version === 'string') input.version = version;
  if (providerID !== undefined) input.providerID = providerID;
  return E.right({ made: true, ...asked, input });
}

interface PluginStep {
  readonly generated: { path: string[]; value: Json }[];
  /** The key pairs whose private keys went into Secrets the plug-in made (key-pairs.ts). */
  readonly keyPairs: readonly KeyPairRecord[];
  /** The fields whose values went into Secrets the plug-in made (secret-fields.ts). */
  readonly secretFields: readonly SecretFieldRecord[];
  readonly objects: readonly JsonObject[];
  readonly moves: AppliedMove[];
  readonly warnings: string[];
}

/**
 * Going up: asks a provider plug-in for the references v1alpha2 needs where v1alpha1 had a
 * providerSpec, unless the object already has them (restored from a stash). With `owned`,
 * `out` is a copy-on-write result (ownPath).
 *
 * `restored` are the stash entries applied to `out`. One that restored the infrastructure
 * reference says the object was v1alpha2 before, and the stash put back all of it: a
 * bootstrap it lacks, it lacked then too (a later version's `bootstrap.dataSecretName` waits
 * in the next hop's stash), so there is nothing for a plug-in to make.
 */
export function runPlugin(
  source: JsonObject,
  out: JsonObject,
  table: KindTable,
  options: ConvertOptions,
  restored: readonly StashEntry[],
  owned?: OwnedSet,
): E.Either<ConversionFailure, PluginStep> {
  const { required } = table.infrastructure;
  const paths = pluginPaths(table);
  const step: PluginStep = {
    generated: [],
    keyPairs: [],
    secretFields: [],
    objects: [],
    moves: [],
    warnings: [],
  };
  const specPath = paths.spec;
  // A MachineSet without a template, or a template without a spec, stamps out nothing.
  if (!isObject(getPath(source, specPath))) return E.right(step);
  const hasRef = getPath(out, paths.infrastructureRef) !== undefined;
  const hasBootstrap = getPath(out, paths.bootstrap) !== undefined;
  // The stash put back the reference, or its absence (`missingReference`): nothing to make.
  if (
    (hasRef && (hasBootstrap || !required || restoredPath(restored, paths.infrastructureRef))) ||
    (!hasRef && restoredAbsent(restored, paths.infrastructureRef))
  )
    return E.right({ ...step, ...recordsInSecrets(source, table, options, step.warnings) });

  const asked = askPlugin(source, table, options);
  if (E.isLeft(asked)) return asked;
  if (asked.right.made === false) {
    step.warnings.push(asked.right.warning);
    return E.right(step);
  }
  const { plugin, output, value, valueSource, owner, valuePath } = asked.right;
  const where = paths.where;
  const inline = valueSource === paths.whereValue;
  // (a MachineClass's keys were never in the object, so never in its stash)
  const keyPairs = inline ? claimedKeyPairs(output, value, table, owner) : E.right([]);
  if (E.isLeft(keyPairs)) return refusedClaim(plugin, valuePath, keyPairs.left);
  const secretFields = inline ? claimedSecretFields(output, value, table, owner) : E.right([]);
  if (E.isLeft(secretFields)) return refusedClaim(plugin, valuePath, secretFields.left);
  if (owned !== undefined) ownPath(out, specPath, owned);
  if (!hasRef) {
    const path = [...paths.infrastructureRef];
    const ref = { ...output.infrastructureRef } as JsonObject;
    setPath(out, path, ref);
    step.generated.push({ path, value: ref });
  }
  if (required && !hasBootstrap) {
    if (output.bootstrap === undefined) {
      return E.left({
        code: 'plugin-refused',
        path: where,
        message: `${plugin.name} plug-in made no bootstrap config, which v1alpha2 requires`,
      });
    }
    const path = [...paths.bootstrap];
    const bootstrap = { configRef: { ...output.bootstrap.configRef } } as JsonObject;
    setPath(out, path, bootstrap);
    step.generated.push({ path, value: bootstrap });
  }
  for (const m of output.moves) {
    step.moves.push({ from: `${valueSource}.${m.from}`, to: m.to, note: `${plugin.name} plug-in` });
  }
  for (const warning of output.warnings) step.warnings.push(warning);
  return E.right({
    generated: step.generated,
    keyPairs: keyPairs.right,
    secretFields: secretFields.right,
    objects: output.objects,
    moves: step.moves,
    warnings: step.warnings,
  });
}
