import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv, type ValidateFunction } from 'ajv';
import { parse } from 'yaml';
import { forbiddenValues } from './crd-arbitraries.js';
import type { JsonSchema } from './kubernetes-schemas.js';
import * as k8s from './kubernetes-schemas.js';

// Verdicts of the CRD OpenAPI schemas, with ajv, as the API server reaches them:
// - `crd`: the schema as written (apiextensions v1beta1), x-kubernetes-* extensions
//   honoured, formats int32/int64/date-time checked; unknown fields allowed.
// - `crdClosed`: what the server does with unknown fields. v1alpha2 CRDs are structural
//   with `preserveUnknownFields: false`, so the server prunes them (and rejects them under
//   strict field validation): every object with `properties` becomes closed. v1alpha1
//   CRDs keep unknown fields, so `crdClosed` is `crd`.
// - `reference` / `referenceClosed`: the CRD plus the documented refinements below, i.e.
//   what the codec (lenient / strict) is designed to decide. The fidelity test checks that
//   the codec equals the reference, and that the reference differs from the CRD only under
//   a refinement's path.

export const crdDirectory = join(import.meta.dirname, '..', 'crds');

/** The upstream CRDs of the later releases, byte for byte (see testdata/crds/later/README.md). */
export const laterCrdDirectory = join(
  import.meta.dirname,
  '..',
  '..',
  '..',
  '..',
  '..',
  'testdata',
  'crds',
  'later',
);

/** Each later version, and the release whose CRDs give its schema (the one that stores it). */
export const laterVersions = {
  v1alpha3: 'v0.3.25',
  v1alpha4: 'v0.4.8',
  v1beta1: 'v1.10.10',
  v1beta2: 'v1.14.0',
} as const;
export type LaterVersion = keyof typeof laterVersions;

/** The typed kinds of the later versions, by plural (the CRD file names). */
export const laterKinds = {
  clusters: 'Cluster',
  machines: 'Machine',
  machinesets: 'MachineSet',
  machinedeployments: 'MachineDeployment',
  machinehealthchecks: 'MachineHealthCheck',
} as const;

export type Version = 'v1alpha1' | 'v1alpha2' | LaterVersion;

/** Why the codec is designed to decide differently from the raw CRD under `path`. */
export type RefinementRule =
  /** The CRD says only `type: object` (or lists too few fields): the Kubernetes/Go type decides. */
  | 'embedded-type'
  /** Go writes `null` here (slice/map/RawExtension without omitempty, zero metav1.Time). */
  | 'go-null'
  /** The Go decoder bounds the integer (IntOrString → int32, `int` → int64); the CRD does not. */
  | 'int-range'
  /** `apiVersion`/`kind` are fixed per kind; the CRD only says `string`. */
  | 'type-meta'
  /** v1alpha1 CRDs preserve unknown fields; strict mode still reports them. */
  | 'strict-unknown'
  /**
   * `minProperties`: the API server prunes unknown fields before it validates, so only the
   * schema's own fields count; ajv on the raw schema counts every key.
   */
  | 'pruned-unknown';

export interface Refinement {
  /** Schema path: dotted field names, `[]` for array items. */
  readonly path: string;
  readonly rule: RefinementRule;
  readonly apply: (node: JsonSchema) => JsonSchema;
}

export interface KindOracle {
  readonly version: Version;
  readonly apiVersion: string;
  readonly kind: string;
  readonly crd: ValidateFunction;
  readonly crdClosed: ValidateFunction;
  readonly reference: ValidateFunction;
  readonly referenceClosed: ValidateFunction;
  /** The schema `reference` compiles: the CRD with the refinements applied. */
  readonly referenceSchema: JsonSchema;
  readonly refinements: readonly Refinement[];
}

const replaceWith =
  (schema: JsonSchema) =>
  (_node: JsonSchema): JsonSchema =>
    schema;
const allowNull = (node: JsonSchema): JsonSchema => ({ ...node, nullable: true });
const int32OrString = (): JsonSchema => ({
  anyOf: [{ type: 'integer', format: 'int32' }, { type: 'string' }],
});
const addMachineClassRefFields = (node: JsonSchema): JsonSchema => ({
  ...node,
  properties: { ...k8s.objectReferenceProperties, ...(node.properties as object) },
});

function embedded(path: string, schema: JsonSchema): Refinement {
  return { path, rule: 'embedded-type', apply: replaceWith(schema) };
}

/** The v1alpha1 MachineSpec places the CRD leaves as bare objects. */
function v1alpha1MachineSpec(prefix: string): Refinement[] {
  return [
    embedded(`${prefix}.metadata`, k8s.objectMeta),
    embedded(`${prefix}.taints[]`, k8s.taint),
    embedded(`${prefix}.configSource`, k8s.nodeConfigSource),
    {
      path: `${prefix}.providerSpec.valueFrom.machineClass`,
      rule: 'embedded-type',
      apply: addMachineClassRefFields,
    },
  ];
}

const networkNulls: Refinement[] = ['services', 'pods'].map((ranges) => ({
  path: `spec.clusterNetwork.${ranges}.cidrBlocks`,
  rule: 'go-null',
  apply: allowNull,
}));

const intOrStringRanges: Refinement[] = ['maxSurge', 'maxUnavailable'].map((field) => ({
  path: `spec.strategy.rollingUpdate.${field}`,
  rule: 'int-range',
  apply: int32OrString,
}));

/** Refinements per `version/kind`, besides `metadata` and type meta, which every kind has. */
const refinementsByKind: Record<string, Refinement[]> = {
  'v1alpha1/Cluster': [
    ...networkNulls,
    {
      path: 'spec.providerSpec.valueFrom.machineClass',
      rule: 'embedded-type',
      apply: addMachineClassRefFields,
    },
  ],
  'v1alpha1/Machine': [
    ...v1alpha1MachineSpec('spec'),
    embedded('status.nodeRef', k8s.objectReference),
    embedded('status.addresses[]', k8s.nodeAddress),
    embedded('status.conditions[]', k8s.nodeCondition),
  ],
  'v1alpha1/MachineSet': [
    embedded('spec.selector', k8s.labelSelector),
    embedded('spec.template.metadata', k8s.objectMeta),
    ...v1alpha1MachineSpec('spec.template.spec'),
  ],
  'v1alpha1/MachineDeployment': [
    embedded('spec.selector', k8s.labelSelector),
    embedded('spec.template.metadata', k8s.objectMeta),
    ...v1alpha1MachineSpec('spec.template.spec'),
    ...intOrStringRanges,
  ],
  'v1alpha1/MachineClass': [{ path: 'providerSpec', rule: 'go-null', apply: allowNull }],
  'v1alpha2/Cluster': [
    ...networkNulls,
    { path: 'status.apiEndpoints[].port', rule: 'int-range', apply: (n) => ({ ...n, format: 'int64' }) },
  ],
  'v1alpha2/Machine': [],
  'v1alpha2/MachineSet': [],
  'v1alpha2/MachineDeployment': intOrStringRanges,
};

function typeMeta(apiVersion: string, kind: string, required: boolean): Refinement[] {
  const fix =
    (value: string) =>
    (_node: JsonSchema): JsonSchema => ({ type: 'string', enum: [value] });
  const root: Refinement = {
    path: '',
    rule: 'type-meta',
    apply: (node) => ({ ...node, required: [...((node.required as string[]) ?? []), 'apiVersion', 'kind'] }),
  };
  return [
    { path: 'apiVersion', rule: 'type-meta', apply: fix(apiVersion) },
    { path: 'kind', rule: 'type-meta', apply: fix(kind) },
    ...(required ? [root] : []),
  ];
}

function segments(path: string): string[] {
  return path === '' ? [] : path.replace(/\[\]/g, '.[]').split('.');
}

/** Applies `f` to the schema node at `path` (returns a new tree; the input is not changed). */
function updateAt(schema: JsonSchema, path: string[], f: (node: JsonSchema) => JsonSchema): JsonSchema {
  if (path.length === 0) return f(schema);
  const [head, ...rest] = path as [string, ...string[]];
  if (head === '[]') {
    if (typeof schema.items !== 'object') throw new Error(`no array items at ${path.join('.')}`);
    return { ...schema, items: updateAt(schema.items as JsonSchema, rest, f) };
  }
  const properties = schema.properties as Record<string, JsonSchema> | undefined;
  const child = properties?.[head];
  if (child === undefined) throw new Error(`no property ${head}`);
  return { ...schema, properties: { ...properties, [head]: updateAt(child, rest, f) } };
}

function refine(schema: JsonSchema, refinements: readonly Refinement[], prefix = ''): JsonSchema {
  return refinements.reduce(
    (tree, r) =>
      updateAt(
        tree,
        segments(prefix === '' ? r.path : r.path === '' ? prefix : `${prefix}.${r.path}`),
        r.apply,
      ),
    schema,
  );
}

/**
 * Turns an OpenAPI v3 (Kubernetes dialect) schema into a JSON schema ajv runs:
 * `nullable` → a `null` type, `x-kubernetes-int-or-string` → integer or string,
 * `x-kubernetes-embedded-resource` → apiVersion and kind required,
 * and, when `closed`, no additional properties on objects that list `properties` unless
 * `x-kubernetes-preserve-unknown-fields` keeps them.
 */
export function toAjvSchema(node: JsonSchema, closed: boolean): JsonSchema {
  if (node['x-kubernetes-int-or-string'] === true && node.anyOf === undefined) {
    return { anyOf: [{ type: 'integer' }, { type: 'string' }] };
  }
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(node)) {
    if (key.startsWith('x-kubernetes-') || key === 'nullable') continue;
    if (key === 'properties') {
      out.properties = Object.fromEntries(
        Object.entries(value as Record<string, JsonSchema>).map(([name, child]) => [
          name,
          toAjvSchema(child, closed),
        ]),
      );
    } else if (key === 'items' || (key === 'additionalProperties' && typeof value === 'object')) {
      out[key] = toAjvSchema(value as JsonSchema, closed);
    } else if (key === 'anyOf') {
      out.anyOf = (value as JsonSchema[]).map((child) => toAjvSchema(child, closed));
    } else {
      out[key] = value;
    }
  }
  if (node.nullable === true && typeof node.type === 'string') out.type = [node.type, 'null'];
  // The API server's list-map check: no two items with the same key tuple.
  if (node['x-kubernetes-list-type'] === 'map') out.uniqueListMapKeys = node['x-kubernetes-list-map-keys'];
  // The one kind of CEL rule these CRDs hold, `!(self in [...])`, as a JSON-schema `not enum`.
  const forbidden = forbiddenValues(node);
  if (forbidden.length > 0) out.not = { enum: forbidden };
  // An untyped, non-nullable node: kube-apiserver drops a `null` there (then a required one
  // is missing); ajv would take it for a value.
  if (
    node.type === undefined &&
    node['x-kubernetes-preserve-unknown-fields'] === true &&
    node.nullable !== true
  ) {
    if (out.not !== undefined) throw new Error('an untyped node with forbidden values');
    out.not = { type: 'null' };
  }
  if (node['x-kubernetes-embedded-resource'] === true) {
    out.required = [...new Set([...((out.required as string[]) ?? []), 'apiVersion', 'kind'])];
  }
  if (closed && node.properties !== undefined && node['x-kubernetes-preserve-unknown-fields'] !== true) {
    out.additionalProperties = false;
  }
  return out;
}

// The checks below are written for the test, independently of the codecs' own.
const rfc3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/i;

export function newAjv(): Ajv {
  const ajv = new Ajv({ strict: false, allErrors: false });
  ajv.addFormat('int32', { type: 'number', validate: (n: number) => n >= -2147483648 && n <= 2147483647 });
  ajv.addFormat('int64', {
    type: 'number',
    validate: (n: number) => n >= -(2 ** 63) && n < 2 ** 63,
  });
  ajv.addKeyword({
    keyword: 'uniqueListMapKeys',
    type: 'array',
    schemaType: 'array',
    validate: (keys: string[], items: unknown[]) => {
      const seen = new Set(
        items.map((item) => JSON.stringify(keys.map((k) => (item as Record<string, unknown>)?.[k] ?? null))),
      );
      return seen.size === items.length;
    },
  });
  ajv.addKeyword({
    keyword: 'knownMinProperties',
    type: 'object',
    schemaType: 'object',
    validate: ({ min, known }: { min: number; known: string[] }, value: Record<string, unknown>) =>
      known.filter((k) => value[k] !== undefined).length >= min,
  });
  ajv.addFormat('date-time', {
    type: 'string',
    validate: (s: string) => rfc3339.test(s) && !Number.isNaN(Date.parse(s)),
  });
  return ajv;
}

interface Subresources {
  scale?: { specReplicasPath: string; statusReplicasPath: string };
}

interface CrdFile {
  spec: {
    group: string;
    subresources?: Subresources;
    names: { kind: string; plural: string };
    preserveUnknownFields?: boolean;
    version?: string;
    versions?: Array<{ name: string; schema?: { openAPIV3Schema: JsonSchema }; subresources?: Subresources }>;
    validation?: { openAPIV3Schema: JsonSchema };
  };
}

/** The scale subresource makes the server reject negative replica counts at its paths. */
function withScaleMinimum(schema: JsonSchema, subresources: Subresources | undefined): JsonSchema {
  const scale = subresources?.scale;
  const replicaPaths = scale === undefined ? [] : [scale.specReplicasPath, scale.statusReplicasPath];
  return replicaPaths.reduce(
    (tree, path) =>
      updateAt(tree, segments(path.replace(/^\./, '')), (node) => ({
        ...node,
        minimum: Math.max(0, (node.minimum as number | undefined) ?? 0),
      })),
    schema,
  );
}

export interface LoadedCrd {
  readonly version: Version;
  readonly apiVersion: string;
  readonly kind: string;
  /** The openAPIV3Schema, with `type: object` at the root (the v1alpha1 files omit it). */
  readonly schema: JsonSchema;
  /** apiextensions v1beta1 defaults `preserveUnknownFields` to true. */
  readonly preservesUnknownFields: boolean;
  readonly file: string;
}

export function loadCrds(): LoadedCrd[] {
  return readdirSync(crdDirectory)
    .filter((f) => f.endsWith('.yaml'))
    .sort()
    .map((file) => {
      const crd = parse(readFileSync(join(crdDirectory, file), 'utf8')) as CrdFile;
      const version = (crd.spec.version ?? crd.spec.versions?.[0]?.name) as Version;
      const schema = crd.spec.validation?.openAPIV3Schema ?? crd.spec.versions?.[0]?.schema?.openAPIV3Schema;
      if (schema === undefined) throw new Error(`${file}: no schema`);
      return {
        version,
        apiVersion: `${crd.spec.group}/${version}`,
        kind: crd.spec.names.kind,
        schema: { type: 'object', ...withScaleMinimum(schema, crd.spec.subresources) },
        preservesUnknownFields: crd.spec.preserveUnknownFields !== false,
        file,
      };
    });
}

/** The CRD file of a later version's kind, as a path. */
export function laterCrdFile(version: LaterVersion, plural: keyof typeof laterKinds): string {
  return join(laterCrdDirectory, laterVersions[version], `cluster.x-k8s.io_${plural}.yaml`);
}

/** Each later version's schema of each typed kind, from the release that stores that version. */
export function loadLaterCrds(): LoadedCrd[] {
  return Object.keys(laterVersions).flatMap((version) =>
    Object.keys(laterKinds).map((plural) => {
      const file = laterCrdFile(version as LaterVersion, plural as keyof typeof laterKinds);
      const crd = parse(readFileSync(file, 'utf8')) as CrdFile;
      const served = crd.spec.versions?.find((v) => v.name === version);
      const schema = served?.schema?.openAPIV3Schema;
      if (schema === undefined) throw new Error(`${file}: no schema for ${version}`);
      return {
        version: version as LaterVersion,
        apiVersion: `${crd.spec.group}/${version}`,
        kind: crd.spec.names.kind,
        schema: withScaleMinimum(schema, served?.subresources),
        preservesUnknownFields: crd.spec.preserveUnknownFields === true,
        file,
      };
    }),
  );
}

/** The paths (refinement syntax) of every schema node that satisfies `test`. */
function pathsWhere(node: JsonSchema, test: (n: JsonSchema) => boolean, path = ''): string[] {
  const here = test(node) ? [path] : [];
  const properties = (node.properties ?? {}) as Record<string, JsonSchema>;
  const children = Object.entries(properties).flatMap(([key, child]) =>
    pathsWhere(child, test, path === '' ? key : `${path}.${key}`),
  );
  const items = typeof node.items === 'object' ? pathsWhere(node.items as JsonSchema, test, `${path}[]`) : [];
  return [...here, ...children, ...items];
}

/**
 * The refinements of a later version, found in its schema: every IntOrString is an int32 or
 * a string for Go; every `minProperties` counts only known fields (the server prunes the
 * others first); `cidrBlocks` has no `omitempty` before v1beta2, so Go writes null.
 */
function laterRefinements(crd: LoadedCrd): Refinement[] {
  const intOrString = pathsWhere(crd.schema, (n) => n['x-kubernetes-int-or-string'] === true).map(
    (path): Refinement => ({ path, rule: 'int-range', apply: int32OrString }),
  );
  const minProperties = pathsWhere(crd.schema, (n) => n.minProperties !== undefined).map(
    (path): Refinement => ({
      path,
      rule: 'pruned-unknown',
      apply: ({ minProperties, ...node }) => ({
        ...node,
        knownMinProperties: { min: minProperties, known: Object.keys(node.properties as object) },
      }),
    }),
  );
  const cidrNulls =
    crd.version === 'v1beta2' || crd.kind !== 'Cluster'
      ? []
      : networkNulls.filter((r) => pathsWhere(crd.schema, () => true).includes(r.path));
  return [...intOrString, ...minProperties, ...cidrNulls];
}

function listSchema(item: JsonSchema): JsonSchema {
  return {
    type: 'object',
    properties: {
      apiVersion: { type: 'string' },
      kind: { type: 'string' },
      metadata: k8s.listMeta,
      items: { type: 'array', items: item },
    },
    required: ['items'],
  };
}

function compile(ajv: Ajv, schema: JsonSchema, closed: boolean): ValidateFunction {
  return ajv.compile(toAjvSchema(schema, closed));
}

/**
 * The oracles of every kind and List in the CRD files; with `lists: false`, of the kinds only
 * (each oracle compiles four schemas, which takes a while).
 */
export function buildOracles(
  ajv: Ajv = newAjv(),
  crds: LoadedCrd[] = loadCrds(),
  { lists = true }: { lists?: boolean } = {},
): KindOracle[] {
  return crds.flatMap((crd) => {
    const own = [
      embedded('metadata', k8s.objectMeta),
      ...(refinementsByKind[`${crd.version}/${crd.kind}`] ?? []),
      ...(crd.version in laterVersions ? laterRefinements(crd) : []),
    ];
    const unknown: Refinement[] = crd.preservesUnknownFields
      ? [{ path: '', rule: 'strict-unknown', apply: (n) => n }]
      : [];
    const objectRefinements = [...typeMeta(crd.apiVersion, crd.kind, true), ...own];
    const reference = refine(crd.schema, objectRefinements);
    const object: KindOracle = {
      version: crd.version,
      apiVersion: crd.apiVersion,
      kind: crd.kind,
      crd: compile(ajv, crd.schema, false),
      crdClosed: compile(ajv, crd.schema, !crd.preservesUnknownFields),
      reference: compile(ajv, reference, false),
      referenceClosed: compile(ajv, reference, true),
      referenceSchema: reference,
      refinements: [...objectRefinements, ...unknown],
    };
    if (!lists) return [object];
    // A List: Kubernetes' List wrapper around the kind's schema. Items may omit apiVersion/kind.
    const listKind = `${crd.kind}List`;
    const itemRefinements = [...typeMeta(crd.apiVersion, crd.kind, false), ...own];
    const listReference = refine(listSchema(refine(crd.schema, itemRefinements)), [
      ...typeMeta(crd.apiVersion, listKind, true),
      { path: 'items', rule: 'go-null', apply: allowNull },
    ]);
    const prefixed = (r: Refinement): Refinement => ({
      ...r,
      path: r.path === '' ? 'items[]' : `items[].${r.path}`,
    });
    const list: KindOracle = {
      version: crd.version,
      apiVersion: crd.apiVersion,
      kind: listKind,
      crd: compile(ajv, listSchema(crd.schema), false),
      crdClosed: compile(ajv, listSchema(crd.schema), !crd.preservesUnknownFields),
      reference: compile(ajv, listReference, false),
      referenceClosed: compile(ajv, listReference, true),
      referenceSchema: listReference,
      refinements: [
        ...typeMeta(crd.apiVersion, listKind, true),
        { path: 'items', rule: 'go-null', apply: allowNull },
        ...itemRefinements.map(prefixed),
        ...unknown,
      ],
    };
    return [object, list];
  });
}

/** The schema path of a value path: array indexes become `[]`. */
export function schemaPath(path: readonly (string | number)[]): string {
  return path.reduce<string>(
    (out, key) => (typeof key === 'number' ? `${out}[]` : out === '' ? key : `${out}.${key}`),
    '',
  );
}

/**
 * Whether `path` goes through a field that `schema` does not declare: a key that is not
 * among its object's `properties` (and not a key of a map, `additionalProperties`).
 */
export function isUndeclaredPath(schema: JsonSchema, path: readonly (string | number)[]): boolean {
  let node: JsonSchema | undefined = schema;
  for (const key of path) {
    if (node === undefined) return true;
    if (typeof key === 'number') {
      node = node.items as JsonSchema | undefined;
      continue;
    }
    const properties = node.properties as Record<string, JsonSchema> | undefined;
    const additional = node.additionalProperties;
    if (properties !== undefined && Object.hasOwn(properties, key)) node = properties[key];
    else if (typeof additional === 'object' && additional !== null) node = additional as JsonSchema;
    else return true;
  }
  return false;
}

/**
 * The refinements that explain a different verdict at `path`, most specific first.
 * `go-null`, `int-range` and `type-meta` change one field's own type, so they cover only
 * their exact path; `embedded-type` covers the whole embedded object; `strict-unknown`
 * covers a path through a field the (refined) schema does not declare, and nothing else:
 * a strict-mode disagreement about a declared field is a bug, not a divergence. (The root
 * `type-meta` refinement only makes apiVersion and kind required, which their own
 * refinements cover.)
 */
export function refinementsCovering(oracle: KindOracle, path: readonly (string | number)[]): Refinement[] {
  const target = schemaPath(path);
  const under = (r: Refinement) =>
    target === r.path || target.startsWith(`${r.path}.`) || target.startsWith(`${r.path}[`);
  return oracle.refinements
    .filter((r) => {
      if (r.rule === 'strict-unknown') return isUndeclaredPath(oracle.referenceSchema, path);
      if (r.path === '') return false;
      return r.rule === 'embedded-type' || r.rule === 'pruned-unknown' ? under(r) : target === r.path;
    })
    .sort((a, b) => b.path.length - a.path.length);
}
