import { type ManifestFormat, readManifest, writeManifest } from '@capi-kit/core/manifest';
import { isV1List, objectName, qualifiedName } from '@capi-kit/core/objects';
import * as E from 'fp-ts/lib/Either.js';
import { type ChainOptions, convertTo } from './chain/convert.js';
import type { ChainVersion } from './chain/versions.js';
import type { ResolvedMachineClass } from './convert.js';
import { type ConversionError, erroneousObject } from './errors.js';
import { nameFromGenerateName } from './generated-name.js';
import { WrittenOutputs, writtenTwiceMessage } from './output-identity.js';
import { getPath, isObject, type JsonObject } from './path.js';
import { quotedPlaceholders, writeYaml } from './placeholders.js';
import type { ClusterInfo, ConversionPlugin } from './plugins.js';
import { type ConversionReport, type DocumentReport, type ObjectReport, objectLabel } from './report.js';
import { V1ALPHA1 } from './versions.js';

/** A document to convert: its value and where it was in the manifest. */
export interface InputDocument {
  /** 0-based. */
  readonly index: number;
  readonly line?: number;
  readonly value: unknown;
  /** The item's path (`items[0].items[2]`) when the document is a `v1 List` expanded into its items. */
  readonly item?: string;
}

export interface ManifestConversionOptions {
  /** Any version of the chain (see chain/versions.ts). */
  readonly to: ChainVersion;
  readonly plugins?: readonly ConversionPlugin[];
  /** apiVersion of a reference's group and kind, for v1beta2 → v1beta1 (see `HopOptions`). */
  readonly referenceApiVersion?: ChainOptions['referenceApiVersion'];
  /**
   * Where the documents come from, for messages about what they lack: a manifest (the
   * default), which a user can add a missing MachineClass to, or the objects read from a
   * cluster (`@capi-kit/migrate`), where it does not exist or was not in the scope read.
   */
  readonly source?: 'manifest' | 'cluster';
}

export interface ManifestConversion {
  /** Output documents in order: each converted document followed by the objects made for it. */
  readonly documents: readonly unknown[];
  readonly report: ConversionReport;
}

function str(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

const qualified = (name: string, namespace: string | undefined): string =>
  qualifiedName({ name, ...(namespace === undefined ? {} : { namespace }) }) ?? '';

/**
 * Objects of one kind and version in the manifest, looked up by namespace and name: a few map
 * reads per lookup. (A list searched on every lookup made a manifest of 40,000 Machines, each
 * with its MachineClass, take 9.3 s to convert where 20,000 took 2.4 s.)
 */
class ByName<T> {
  /** name → namespace (undefined: none given) → the first object added there, and how many. */
  private readonly names = new Map<string, Map<string | undefined, { value: T; count: number }>>();

  add(name: string, namespace: string | undefined, value: T): void {
    let namespaces = this.names.get(name);
    if (namespaces === undefined) {
      namespaces = new Map();
      this.names.set(name, namespaces);
    }
    const seen = namespaces.get(namespace);
    if (seen === undefined) namespaces.set(namespace, { value, count: 1 });
    else seen.count++;
  }

  /**
   * Exact namespace first; a side without a namespace (applied to "the current namespace")
   * matches any namespace when the name alone is unambiguous.
   */
  find(name: string, namespace: string | undefined): T | undefined {
    const namespaces = this.names.get(name);
    if (namespaces === undefined) return undefined;
    const exact = namespaces.get(namespace);
    if (exact !== undefined) return exact.value;
    // A namespace asked for: only objects given none may stand in, and only one of them.
    if (namespace !== undefined) {
      const unplaced = namespaces.get(undefined);
      return unplaced?.count === 1 ? unplaced.value : undefined;
    }
    // None asked for (and none of this name lacks one): the name must name one object.
    if (namespaces.size !== 1) return undefined;
    const [only] = namespaces.values();
    return only!.count === 1 ? only!.value : undefined;
  }
}

function isV1alpha1(value: unknown, kind: string): value is JsonObject {
  return isObject(value) && value.apiVersion === V1ALPHA1 && value.kind === kind;
}

/** Every v1alpha1 object of `kind` in the documents, Lists included. */
function collect(documents: readonly InputDocument[], kind: string): { object: JsonObject; index: number }[] {
  const out: { object: JsonObject; index: number }[] = [];
  for (const doc of documents) {
    if (isV1alpha1(doc.value, kind)) out.push({ object: doc.value, index: doc.index });
    else if (isV1alpha1(doc.value, `${kind}List`) && Array.isArray(doc.value.items)) {
      for (const item of doc.value.items) if (isObject(item)) out.push({ object: item, index: doc.index });
    }
  }
  return out;
}

/** An error's path inside a `v1 List` item, from the List itself (`items[2].spec.providerSpec`). */
function itemPath(item: string, path: string | undefined): string {
  return path === undefined || path === '' ? item : `${item}.${path}`;
}

/**
 * A `v1 List` is a container: its items (and the items of Lists inside it, as `validate`
 * and `phase` read them) convert as documents of their own, at its index. A List whose
 * `items` is not a list is refused, as `validate` refuses it, rather than passed through.
 */
function expandDocument(doc: InputDocument, errors: ConversionError[], path = ''): InputDocument[] {
  if (!isV1List(doc.value)) return [doc];
  const items = doc.value.items;
  if (!Array.isArray(items)) {
    errors.push({
      code: 'invalid-object',
      index: doc.index,
      ...(doc.line === undefined ? {} : { line: doc.line }),
      path: `${path}items`,
      message: 'a v1 List needs items to be a list of objects',
    });
    return [];
  }
  return items.flatMap((value, item) =>
    expandDocument({ ...doc, value, item: `${path}items[${item}]` }, errors, `${path}items[${item}].`),
  );
}

/**
 * Converts the documents of a manifest to `options.to`. MachineClasses (v1alpha1 only) are
 * resolved for the objects that use them and then left out: v1alpha2 has no such kind.
 * All-or-nothing: any failing document makes the result a list of errors.
 */
export function convertDocuments(
  input: readonly InputDocument[],
  options: ManifestConversionOptions,
): E.Either<ConversionError[], ManifestConversion> {
  const listErrors: ConversionError[] = [];
  const documents = input.flatMap((doc) => expandDocument(doc, listErrors));
  if (listErrors.length > 0) return E.left(listErrors);
  // MachineClass exists only in v1alpha1: going anywhere else, classes are resolved and left out.
  const up = options.to !== V1ALPHA1;
  const fromCluster = options.source === 'cluster';
  const classes = new ByName<{ object: JsonObject; index: number }>();
  const used = new Set<JsonObject>();
  for (const entry of collect(documents, 'MachineClass')) {
    const { name, namespace } = objectName(entry.object);
    if (name !== undefined) classes.add(name, namespace, entry);
  }
  const clusters = new ByName<ClusterInfo>();
  for (const { object } of collect(documents, 'Cluster')) {
    const { name, namespace } = objectName(object);
    if (name === undefined) continue;
    const value = getPath(object, ['spec', 'providerSpec', 'value']);
    clusters.add(name, namespace, {
      name,
      ...(namespace === undefined ? {} : { namespace }),
      ...(isObject(value) ? { providerSpec: value } : {}),
    });
  }
  // Going down, a Cluster's stash names the Secrets that hold its private keys (key-pairs.ts).
  const secrets = new ByName<JsonObject>();
  for (const { value } of documents) {
    if (!isObject(value) || value.apiVersion !== 'v1' || value.kind !== 'Secret') continue;
    const { name, namespace } = objectName(value);
    if (name !== undefined && isObject(value.data)) secrets.add(name, namespace, value.data);
  }
  const convertOptions: ChainOptions = {
    ...(options.plugins === undefined ? {} : { plugins: options.plugins }),
    ...(options.referenceApiVersion === undefined
      ? {}
      : { referenceApiVersion: options.referenceApiVersion }),
    findCluster: (name, namespace) => clusters.find(name, namespace),
    secretData: (namespace, name) => secrets.find(name, namespace),
    resolveMachineClass: (ref, namespace): E.Either<string, ResolvedMachineClass> => {
      const name = str(ref.name);
      if (name === undefined) return E.left('names no MachineClass (name is empty)');
      if (ref.kind !== undefined && ref.kind !== 'MachineClass') {
        return E.left(`refers to kind ${JSON.stringify(ref.kind)}, not MachineClass`);
      }
      const ns = str(ref.namespace) ?? namespace;
      const found = classes.find(name, ns);
      if (found === undefined) {
        return E.left(
          fromCluster
            ? `MachineClass ${qualified(name, ns)} was not read: it does not exist, or is outside the namespaces read`
            : `MachineClass ${qualified(name, ns)} is not in this manifest; add it so its providerSpec can be converted`,
        );
      }
      used.add(found.object);
      const providerSpec = found.object.providerSpec;
      if (!isObject(providerSpec)) {
        return E.left(
          `MachineClass ${qualified(name, ns)} (document ${found.index + 1}) has no providerSpec object`,
        );
      }
      return E.right({ providerSpec, source: `MachineClass ${qualified(name, ns)} providerSpec` });
    },
  };

  const errors: ConversionError[] = [];
  const output: unknown[] = [];
  const reports: DocumentReport[] = [];
  const warnings: string[] = [];
  const written = new WrittenOutputs<number>();
  const removed: { index: number; line?: number; object: JsonObject }[] = [];
  const at = (doc: InputDocument) => ({
    index: doc.index,
    ...(doc.line === undefined ? {} : { line: doc.line }),
  });

  for (const doc of documents) {
    if (up && (isV1alpha1(doc.value, 'MachineClass') || isV1alpha1(doc.value, 'MachineClassList'))) {
      removed.push({ ...at(doc), object: doc.value });
      continue;
    }
    const named = up ? nameFromGenerateName(doc.value, `${doc.index}/${doc.item ?? ''}`) : undefined;
    const result = convertTo(named?.value ?? doc.value, options.to, convertOptions);
    if (E.isLeft(result)) {
      const error = result.left;
      errors.push({
        ...at(doc),
        ...(error.objectKind === undefined ? erroneousObject(doc.value) : {}),
        ...error,
        ...(doc.item === undefined ? {} : { path: itemPath(doc.item, error.path) }),
      });
      continue;
    }
    const { object, generated, reports: objectReports } = result.right;
    for (const value of [object, ...generated]) {
      // Converting a manifest that already holds the objects a plug-in makes (converted
      // before, or converted back and forth) yields the same object twice: write it once.
      const added = written.add(value, doc.index);
      if (added === 'again') continue;
      if (added !== 'new') {
        errors.push({
          code: 'duplicate-output',
          ...at(doc),
          ...erroneousObject(doc.value),
          message: `${writtenTwiceMessage(value, `document ${added.conflict + 1}`)}; does the manifest mix versions of one object?`,
        });
        continue;
      }
      output.push(value);
    }
    reports.push({
      ...at(doc),
      objects:
        named === undefined
          ? objectReports
          : objectReports.map((o, i) => (i === 0 ? { ...o, warnings: [named.warning, ...o.warnings] } : o)),
    });
  }

  for (const r of removed) {
    const items = r.object.items;
    const entries =
      r.object.kind === 'MachineClass' ? [r.object] : (Array.isArray(items) ? items : []).filter(isObject);
    const objects: ObjectReport[] = entries.map((mc) => ({
      kind: 'MachineClass',
      ...objectName(mc),
      action: 'removed',
      from: V1ALPHA1,
      moves: [],
      stashed: [],
      restored: [],
      keptEdits: [],
      generated: [],
      warnings: used.has(mc)
        ? []
        : [
            fromCluster
              ? 'not used by any object read; v1alpha2 has no MachineClass, so none is made of it'
              : 'not used by any object in this manifest; v1alpha2 has no MachineClass, so it is not written',
          ],
    }));
    reports.push({ index: r.index, ...(r.line === undefined ? {} : { line: r.line }), objects });
  }
  if (errors.length > 0) return E.left(errors.sort((a, b) => (a.index ?? 0) - (b.index ?? 0)));
  reports.sort((a, b) => a.index - b.index);
  for (const doc of reports) {
    for (const o of doc.objects) {
      for (const w of o.warnings) warnings.push(`document ${doc.index + 1} (${objectLabel(o)}): ${w}`);
    }
  }
  return E.right({
    documents: output,
    report: { to: options.to, documents: reports, warnings, outputDocuments: output.length },
  });
}

/** The YAML writer `convertManifest` uses: output documents to multi-document YAML. */
export type YamlWriter = (documents: readonly unknown[]) => string;

/** How `convertManifest` writes its output. */
export interface ManifestWriteOptions {
  /** `yaml` (the default) or `json`. */
  readonly format?: ManifestFormat;
  /**
   * YAML only: called in place of the writer, with the writer (which quotes again the
   * placeholders the input quoted). A caller that writes some strings its own way wraps it:
   * the CLI writes strings holding bidi or invisible characters as escaped scalars.
   */
  readonly wrapYamlWriter?: (documents: readonly unknown[], write: YamlWriter) => string;
}

/** Reads a manifest (multi-document YAML, or JSON), converts it, and writes it back. */
export function convertManifest(
  text: string,
  options: ManifestConversionOptions & ManifestWriteOptions,
): E.Either<ConversionError[], ManifestConversion & { readonly text: string }> {
  const read = readManifest(text);
  if (E.isLeft(read)) {
    return E.left(
      read.left.map((e) => ({
        code: 'manifest-syntax' as const,
        index: e.index,
        message: `line ${e.line}, column ${e.column}: ${e.message}`,
        ...(e.omitted === undefined ? {} : { omitted: e.omitted }),
      })),
    );
  }
  const converted = convertDocuments(read.right, options);
  if (E.isLeft(converted)) return converted;
  const { documents } = converted.right;
  let out: string;
  if (options.format === 'json') out = writeManifest(documents, 'json');
  else {
    const quoted = quotedPlaceholders(text);
    const write: YamlWriter = (values) => writeYaml(values, quoted);
    out = options.wrapYamlWriter === undefined ? write(documents) : options.wrapYamlWriter(documents, write);
  }
  return E.right({ ...converted.right, text: out });
}
