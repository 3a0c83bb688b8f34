// Converts apiextensions.k8s.io/v1beta1 CustomResourceDefinitions to v1.
//
// kube-apiserver stopped serving CRDs at v1beta1 in Kubernetes 1.22, but the Cluster API
// manifests of the v1alpha1 and v1alpha2 era are v1beta1 documents. The conversion keeps
// their meaning as far as v1 allows:
//
// - `spec.version` becomes a one-element `spec.versions`; the top-level `validation`,
//   `subresources` and `additionalPrinterColumns` move into every version (a version's own
//   value wins), and printer columns' `JSONPath` is renamed `jsonPath`.
// - `spec.conversion.webhookClientConfig` / `conversionReviewVersions` move under
//   `spec.conversion.webhook` (v1beta1's default review version, v1beta1, is made explicit).
// - v1 requires structural schemas and `preserveUnknownFields: false`. v1beta1 defaulted to
//   preserving unknown fields, which old clients rely on (e.g. `providerSpec.value` is an
//   untyped object whose content must survive). So when the v1beta1 CRD preserved unknown
//   fields, every object node of the schema gets `x-kubernetes-preserve-unknown-fields:
//   true`: the server stores exactly what it stored before.
// - Missing types are filled in where the schema implies them (`properties` → object,
//   `items` → array); `anyOf` of string and integer becomes `x-kubernetes-int-or-string`;
//   a node with no type information at all accepts any value.
// - Constructs v1 forbids are dropped: `uniqueItems: true`, `additionalProperties` next
//   to `properties`, and fields of `metadata` at the root other than name/generateName.
// - Groups under k8s.io and kubernetes.io are protected in v1: such a CRD must carry the
//   `api-approved.kubernetes.io` annotation. v1beta1 did not check it, so CRDs such as
//   cluster.k8s.io get the value "unapproved, …", which v1 accepts (the CRD then reports
//   KubernetesAPIApprovalPolicyConformant=False).
// - `status` (which the server owns) and `metadata.creationTimestamp: null` are dropped.
//
// Every change is reported in `changes`, one line with the JSON path of what changed.

import { EnvtestError } from './errors.js';

/** A JSON object. */
export type JsonObject = Record<string, unknown>;

/** A converted CRD and a line per change, for logs and docs. */
export interface CrdConversion {
  crd: JsonObject;
  changes: string[];
}

const v1beta1 = 'apiextensions.k8s.io/v1beta1';
const v1 = 'apiextensions.k8s.io/v1';

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** True for a document `apiextensions.k8s.io/v1beta1` `CustomResourceDefinition`. */
export function isV1beta1Crd(doc: unknown): doc is JsonObject {
  return isObject(doc) && doc.apiVersion === v1beta1 && doc.kind === 'CustomResourceDefinition';
}

/** True for any CustomResourceDefinition document (v1 or v1beta1). */
export function isCrd(doc: unknown): doc is JsonObject {
  return (
    isObject(doc) &&
    doc.kind === 'CustomResourceDefinition' &&
    (doc.apiVersion === v1beta1 || doc.apiVersion === v1)
  );
}

const approvalAnnotation = 'api-approved.kubernetes.io';

function isProtectedGroup(group: string): boolean {
  return ['k8s.io', 'kubernetes.io'].some((d) => group === d || group.endsWith(`.${d}`));
}

function clone<T>(value: T): T {
  return structuredClone(value);
}

function isIntOrStringUnion(alternatives: unknown): boolean {
  if (!Array.isArray(alternatives) || alternatives.length !== 2) return false;
  const types = alternatives.map((a) => (isObject(a) ? a.type : undefined)).sort();
  return types[0] === 'integer' && types[1] === 'string';
}

/**
 * Makes an OpenAPI v3 schema structural, as v1 CRDs require. `preserveUnknown` marks
 * every object node with `x-kubernetes-preserve-unknown-fields: true` (the v1beta1
 * default, no pruning). Returns a new schema; `changes` collects what was done.
 */
export function makeStructural(
  schema: JsonObject,
  options: { preserveUnknown: boolean },
  path = 'openAPIV3Schema',
  changes: string[] = [],
): JsonObject {
  const out = visit(clone(schema), path, true, options.preserveUnknown, changes);
  return out;
}

function visit(
  node: JsonObject,
  path: string,
  isRoot: boolean,
  preserve: boolean,
  changes: string[],
): JsonObject {
  if (node.uniqueItems === true) {
    delete node.uniqueItems;
    changes.push(`${path}: removed uniqueItems (forbidden in v1 structural schemas)`);
  }
  if (node.type === undefined && node['x-kubernetes-int-or-string'] !== true) {
    if (isRoot || isObject(node.properties) || isObject(node.additionalProperties)) {
      node.type = 'object';
      changes.push(`${path}: added type: object`);
    } else if (node.items !== undefined) {
      node.type = 'array';
      changes.push(`${path}: added type: array`);
    } else if (isIntOrStringUnion(node.anyOf) || isIntOrStringUnion(node.oneOf)) {
      // v1 accepts exactly this shape for int-or-string, integer first.
      const from = node.anyOf ? 'anyOf' : 'oneOf';
      delete node.oneOf;
      node.anyOf = [{ type: 'integer' }, { type: 'string' }];
      node['x-kubernetes-int-or-string'] = true;
      changes.push(`${path}: ${from} of string and integer → x-kubernetes-int-or-string`);
    } else if (node['x-kubernetes-preserve-unknown-fields'] !== true) {
      node['x-kubernetes-preserve-unknown-fields'] = true;
      changes.push(`${path}: no type given: accepts any value (x-kubernetes-preserve-unknown-fields)`);
    }
  }
  if (isObject(node.properties) && node.additionalProperties !== undefined) {
    delete node.additionalProperties;
    changes.push(`${path}: removed additionalProperties next to properties (mutually exclusive in v1)`);
  }
  if (isObject(node.properties)) {
    const properties = node.properties;
    for (const [key, child] of Object.entries(properties)) {
      if (!isObject(child)) continue;
      if (isRoot && key === 'metadata') {
        properties[key] = rootMetadata(child, `${path}.properties.metadata`, changes);
        continue;
      }
      properties[key] = visit(child, `${path}.properties.${key}`, false, preserve, changes);
    }
  }
  if (isObject(node.additionalProperties)) {
    node.additionalProperties = visit(
      node.additionalProperties,
      `${path}.additionalProperties`,
      false,
      preserve,
      changes,
    );
  }
  if (isObject(node.items)) {
    node.items = visit(node.items, `${path}.items`, false, preserve, changes);
  }
  if (
    preserve &&
    node.type === 'object' &&
    node.additionalProperties === undefined &&
    node['x-kubernetes-preserve-unknown-fields'] !== true
  ) {
    node['x-kubernetes-preserve-unknown-fields'] = true;
    changes.push(`${path}: x-kubernetes-preserve-unknown-fields: true (v1beta1 kept unknown fields)`);
  }
  return node;
}

// At the root, v1 allows only `type: object` and restrictions on name/generateName for
// `metadata`; the server always applies the full ObjectMeta schema itself.
function rootMetadata(node: JsonObject, path: string, changes: string[]): JsonObject {
  const allowed = new Set(['name', 'generateName']);
  const out: JsonObject = { type: 'object' };
  if (isObject(node.properties)) {
    const kept = Object.fromEntries(Object.entries(node.properties).filter(([k]) => allowed.has(k)));
    const dropped = Object.keys(node.properties).filter((k) => !allowed.has(k));
    if (dropped.length > 0)
      changes.push(`${path}: removed properties ${dropped.join(', ')} (server-defined)`);
    if (Object.keys(kept).length > 0) out.properties = kept;
  }
  if (node.type === undefined) changes.push(`${path}: added type: object`);
  return out;
}

function convertPrinterColumns(columns: unknown, path: string, changes: string[]): unknown {
  if (!Array.isArray(columns)) return columns;
  return columns.map((column, i) => {
    if (!isObject(column) || column.JSONPath === undefined) return column;
    const { JSONPath, ...rest } = column;
    changes.push(`${path}[${i}]: JSONPath → jsonPath`);
    return { ...rest, jsonPath: JSONPath };
  });
}

/** Converts one v1beta1 CRD to v1. A v1 CRD is returned unchanged (a copy). */
export function convertV1beta1Crd(input: JsonObject): CrdConversion {
  const changes: string[] = [];
  if (!isCrd(input)) {
    throw new EnvtestError(
      'invalid-crd',
      'not a CustomResourceDefinition (apiextensions.k8s.io/v1 or v1beta1)',
      {
        path: 'kind',
      },
    );
  }
  if (input.apiVersion === v1) return { crd: clone(input), changes };
  const source = clone(input);
  const spec = isObject(source.spec) ? source.spec : {};
  const metadata = isObject(source.metadata) ? { ...source.metadata } : {};
  if (metadata.creationTimestamp === null) delete metadata.creationTimestamp;
  const group = String(spec.group ?? '');
  const annotations = isObject(metadata.annotations) ? { ...metadata.annotations } : {};
  if (isProtectedGroup(group) && annotations[approvalAnnotation] === undefined) {
    annotations[approvalAnnotation] =
      'unapproved, converted from apiextensions.k8s.io/v1beta1 by @capi-kit/envtest';
    metadata.annotations = annotations;
    changes.push(`metadata.annotations: added ${approvalAnnotation} (${group} is a protected group in v1)`);
  }

  // v1beta1 defaults preserveUnknownFields to true; v1 only accepts false.
  const preserveUnknown = spec.preserveUnknownFields !== false;
  if (preserveUnknown) {
    changes.push(
      'spec.preserveUnknownFields: true (v1beta1 default) → false, with x-kubernetes-preserve-unknown-fields on object schemas',
    );
  }

  const topSchema = isObject(spec.validation) ? spec.validation.openAPIV3Schema : undefined;
  const declared: JsonObject[] = Array.isArray(spec.versions)
    ? spec.versions.filter(isObject)
    : typeof spec.version === 'string'
      ? [{ name: spec.version, served: true, storage: true }]
      : [];
  if (declared.length === 0) {
    throw new EnvtestError('invalid-crd', 'v1beta1 CRD has neither spec.version nor spec.versions', {
      path: 'spec.versions',
    });
  }
  if (!Array.isArray(spec.versions)) changes.push(`spec.version ${String(spec.version)} → spec.versions[0]`);

  const versions = declared.map((version, i) => {
    const at = `spec.versions[${i}]`;
    const out: JsonObject = {
      name: version.name,
      served: version.served ?? true,
      storage: version.storage ?? declared.length === 1,
    };
    if (version.deprecated !== undefined) out.deprecated = version.deprecated;
    if (version.deprecationWarning !== undefined) out.deprecationWarning = version.deprecationWarning;

    const ownSchema = isObject(version.schema) ? version.schema.openAPIV3Schema : undefined;
    const schemaSource = isObject(ownSchema) ? ownSchema : isObject(topSchema) ? topSchema : undefined;
    if (!isObject(ownSchema) && isObject(topSchema)) changes.push(`spec.validation → ${at}.schema`);
    let schema: JsonObject;
    if (schemaSource) {
      schema = makeStructural(schemaSource, { preserveUnknown }, `${at}.schema.openAPIV3Schema`, changes);
    } else {
      schema = { type: 'object', 'x-kubernetes-preserve-unknown-fields': true };
      changes.push(`${at}.schema: none given → any object (x-kubernetes-preserve-unknown-fields)`);
    }
    out.schema = { openAPIV3Schema: schema };

    const subresources = version.subresources ?? spec.subresources;
    if (subresources !== undefined) {
      out.subresources = clone(subresources);
      if (version.subresources === undefined) changes.push(`spec.subresources → ${at}.subresources`);
    }
    const columns = version.additionalPrinterColumns ?? spec.additionalPrinterColumns;
    if (columns !== undefined) {
      if (version.additionalPrinterColumns === undefined) {
        changes.push(`spec.additionalPrinterColumns → ${at}.additionalPrinterColumns`);
      }
      out.additionalPrinterColumns = convertPrinterColumns(
        columns,
        `${at}.additionalPrinterColumns`,
        changes,
      );
    }
    return out;
  });

  const outSpec: JsonObject = {
    group: spec.group,
    names: spec.names,
    scope: spec.scope ?? 'Namespaced',
    versions,
  };
  if (spec.scope === undefined) changes.push('spec.scope: defaulted to Namespaced (v1 requires it)');
  if (isObject(spec.conversion)) {
    const c = spec.conversion;
    if (c.strategy === 'Webhook') {
      outSpec.conversion = {
        strategy: 'Webhook',
        webhook: {
          clientConfig: c.webhookClientConfig,
          conversionReviewVersions: c.conversionReviewVersions ?? ['v1beta1'],
        },
      };
      changes.push('spec.conversion.webhookClientConfig → spec.conversion.webhook.clientConfig');
    } else {
      outSpec.conversion = { strategy: c.strategy ?? 'None' };
    }
  }
  if (source.status !== undefined) changes.push('status: dropped (set by the server)');
  return { crd: { apiVersion: v1, kind: 'CustomResourceDefinition', metadata, spec: outSpec }, changes };
}
