import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { parse } from 'yaml';

// Objects of the later Cluster API versions, generated from the upstream CRDs' own schemas
// (testdata/crds/later): every field a version defines can appear, with values of its type,
// plus fields no version knows. Built from the CRDs, not from the converter's tables.

type Schema = {
  type?: string;
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  additionalProperties?: Schema | boolean;
  enum?: unknown[];
  format?: string;
  minimum?: number;
  maximum?: number;
  'x-kubernetes-int-or-string'?: boolean;
  'x-kubernetes-preserve-unknown-fields'?: boolean;
};

const root = new URL('../../../../testdata/crds/later/', import.meta.url);

/** Where each version's schema is taken from: the release that served it. */
const TAG: Record<string, string> = {
  v1alpha3: 'v0.4.8',
  v1alpha4: 'v0.4.8',
  v1beta1: 'v1.14.0',
  v1beta2: 'v1.14.0',
};
const PLURAL: Record<string, string> = {
  Cluster: 'clusters',
  Machine: 'machines',
  MachineSet: 'machinesets',
  MachineDeployment: 'machinedeployments',
  MachineHealthCheck: 'machinehealthchecks',
};

export function crdSchema(version: string, kind: string): Schema {
  const file = new URL(`${TAG[version]}/cluster.x-k8s.io_${PLURAL[kind]}.yaml`, root);
  const crd = parse(readFileSync(file, 'utf8'));
  const v = crd.spec.versions.find((x: { name: string }) => x.name === version);
  return v.schema.openAPIV3Schema as Schema;
}

const key = fc.stringMatching(/^[a-z][a-zA-Z0-9]{0,6}$/);
const time = fc.constantFrom('2021-08-01T10:00:00Z', '2024-02-29T23:59:59Z');
const duration = fc.constantFrom('10s', '1m30s', '90s', '1m30.5s', '250ms', '1h0m0s', '-5s', 'nope', '');
const text = fc.oneof(fc.constant(''), fc.string({ maxLength: 6 }));
const json: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    fc.boolean(),
    fc.integer({ min: -3, max: 3 }),
    fc.string({ maxLength: 4 }),
    fc.array(tie('value'), { maxLength: 2 }),
    fc.dictionary(key, tie('value'), { maxKeys: 2 }),
  ),
})).value;

function arbitrary(schema: Schema, name: string, depth: number): fc.Arbitrary<unknown> {
  if (schema.enum !== undefined) return fc.constantFrom(...schema.enum);
  if (schema['x-kubernetes-int-or-string'])
    return fc.oneof(fc.integer({ min: 0, max: 5 }), fc.constantFrom('1', '20%'));
  switch (schema.type) {
    case 'string':
      if (schema.format === 'date-time') return time;
      if (/[Tt]imeout$|^timeout$/.test(name)) return duration;
      return text;
    case 'integer':
      return fc.integer({
        min: Math.max(schema.minimum ?? -2, -2),
        max: Math.min(schema.maximum ?? 1000, 1000),
      });
    case 'number':
      return fc.integer({ min: 0, max: 9 });
    case 'boolean':
      return fc.boolean();
    case 'array':
      if (depth > 4 || schema.items === undefined) return fc.constant([]);
      return fc.array(arbitrary(schema.items, name, depth + 1), { maxLength: 2 });
    default: {
      if (schema.properties !== undefined) {
        if (depth > 4) return fc.constant({});
        const model: Record<string, fc.Arbitrary<unknown>> = {};
        for (const [k, s] of Object.entries(schema.properties)) model[k] = arbitrary(s, k, depth + 1);
        return fc.record(model, { requiredKeys: schema.required ?? [] });
      }
      if (typeof schema.additionalProperties === 'object') {
        return fc.dictionary(key, arbitrary(schema.additionalProperties, name, depth + 1), { maxKeys: 2 });
      }
      return fc.dictionary(key, json, { maxKeys: 2 });
    }
  }
}

/** Points every object reference at the object's own namespace (a stash never restores another). */
function ownNamespaceRefs(value: unknown, namespace: string | undefined): void {
  if (Array.isArray(value)) {
    for (const v of value) ownNamespaceRefs(v, namespace);
    return;
  }
  if (typeof value !== 'object' || value === null) return;
  const object = value as Record<string, unknown>;
  for (const [k, v] of Object.entries(object)) {
    if (
      (k.endsWith('Ref') || k === 'remediationTemplate') &&
      typeof v === 'object' &&
      v !== null &&
      !Array.isArray(v)
    ) {
      const ref = v as Record<string, unknown>;
      if (namespace === undefined || k === 'nodeRef') delete ref.namespace;
      else if (ref.namespace !== undefined) ref.namespace = namespace;
    }
    ownNamespaceRefs(v, namespace);
  }
}

/** The same for v1beta1's topology, which names its ClusterClass's namespace beside the class (`''`: unset). */
function ownClassNamespace(object: Record<string, unknown>, namespace: string | undefined): void {
  const topology = (object.spec as Record<string, unknown> | undefined)?.topology as
    | Record<string, unknown>
    | undefined;
  if (typeof topology?.classNamespace !== 'string' || topology.classNamespace === '') return;
  if (namespace === undefined) delete topology.classNamespace;
  else topology.classNamespace = namespace;
}

const CLUSTER_NAME = 'cluster.x-k8s.io/cluster-name';
const metadata = fc.record(
  {
    name: fc.stringMatching(/^[a-z][a-z0-9-]{0,8}$/),
    namespace: fc.constantFrom('default', 'shop'),
    labels: fc.dictionary(
      fc.constantFrom(CLUSTER_NAME, 'app', 'cluster.x-k8s.io/control-plane'),
      fc.constantFrom('c1', 'c2', ''),
      {
        maxKeys: 3,
      },
    ),
    annotations: fc.dictionary(
      fc.constantFrom(
        'machine.cluster.x-k8s.io.io/exclude-node-draining',
        'machine.cluster.x-k8s.io/exclude-node-draining',
        'machinedeployment.clusters.k8s.io/revision',
        'machinedeployment.clusters.x-k8s.io/revision',
        'note',
      ),
      fc.constantFrom('', '1', 'x'),
      { maxKeys: 3 },
    ),
  },
  { requiredKeys: ['name'] },
);

/** Objects of `kind` at cluster.x-k8s.io/`version`, from that version's CRD schema. */
export function crdObject(version: string, kind: string): fc.Arbitrary<Record<string, unknown>> {
  const schema = crdSchema(version, kind);
  const spec = arbitrary(schema.properties!.spec!, 'spec', 1);
  const status = arbitrary(schema.properties!.status!, 'status', 1);
  return fc
    .record(
      {
        apiVersion: fc.constant(`cluster.x-k8s.io/${version}`),
        kind: fc.constant(kind),
        metadata,
        spec,
        status,
        unknownField: json,
      },
      { requiredKeys: ['apiVersion', 'kind', 'metadata'] },
    )
    .map((o) => {
      const plain = JSON.parse(JSON.stringify(o)) as Record<string, unknown>;
      const namespace = (plain.metadata as { namespace?: string }).namespace;
      ownNamespaceRefs(plain, namespace);
      ownClassNamespace(plain, namespace);
      return plain;
    });
}
