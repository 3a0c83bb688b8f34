import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { convertV1beta1Crd, isV1beta1Crd, type JsonObject, makeStructural } from '../src/crd-v1beta1.js';
import { loadCrds } from '../src/crds.js';

type Schema = JsonObject & { properties?: Record<string, Schema>; items?: Schema };

const base = {
  apiVersion: 'apiextensions.k8s.io/v1beta1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'things.example.com', creationTimestamp: null },
  spec: {
    group: 'example.com',
    names: { kind: 'Thing', plural: 'things' },
    version: 'v1alpha1',
    validation: {
      openAPIV3Schema: {
        properties: {
          metadata: { type: 'object' },
          spec: {
            properties: {
              size: { type: 'integer', format: 'int32' },
              raw: { type: 'object' },
              anything: { description: 'no type' },
              surge: { anyOf: [{ type: 'string' }, { type: 'integer' }] },
              tags: { type: 'array', items: { type: 'string' }, uniqueItems: true },
              list: { items: { properties: { a: { type: 'string' } } } },
            },
            required: ['size'],
          },
        },
      },
    },
    subresources: {
      status: {},
      scale: { specReplicasPath: '.spec.size', statusReplicasPath: '.status.size' },
    },
    additionalPrinterColumns: [{ JSONPath: '.spec.size', name: 'Size', type: 'integer', priority: 1 }],
  },
  status: { acceptedNames: { kind: '', plural: '' }, conditions: [], storedVersions: [] },
};

function convertedSchema(crd: JsonObject, version = 0): Schema {
  const versions = (crd.spec as { versions: { schema: { openAPIV3Schema: Schema } }[] }).versions;
  const schema = versions[version]?.schema.openAPIV3Schema;
  if (!schema) throw new Error('no schema');
  return schema;
}

describe('convertV1beta1Crd', () => {
  it('moves version, validation, subresources and printer columns into spec.versions', () => {
    const { crd } = convertV1beta1Crd(structuredClone(base));
    expect(crd.apiVersion).toBe('apiextensions.k8s.io/v1');
    expect(crd).not.toHaveProperty('status');
    expect(crd.metadata).toEqual({ name: 'things.example.com' });
    const spec = crd.spec as JsonObject;
    expect(spec).not.toHaveProperty('validation');
    expect(spec).not.toHaveProperty('version');
    expect(spec).not.toHaveProperty('subresources');
    expect(spec.scope).toBe('Namespaced');
    const [version] = spec.versions as JsonObject[];
    expect(version).toMatchObject({ name: 'v1alpha1', served: true, storage: true });
    expect(version?.subresources).toEqual(base.spec.subresources);
    expect(version?.additionalPrinterColumns).toEqual([
      { jsonPath: '.spec.size', name: 'Size', type: 'integer', priority: 1 },
    ]);
  });

  it('keeps v1beta1 no-pruning semantics by marking every object node', () => {
    const { crd, changes } = convertV1beta1Crd(structuredClone(base));
    const schema = convertedSchema(crd);
    expect(schema.type).toBe('object');
    expect(schema['x-kubernetes-preserve-unknown-fields']).toBe(true);
    const spec = schema.properties?.spec as Schema;
    expect(spec.type).toBe('object');
    expect(spec['x-kubernetes-preserve-unknown-fields']).toBe(true);
    expect(spec.properties?.raw).toEqual({ type: 'object', 'x-kubernetes-preserve-unknown-fields': true });
    expect(spec.required).toEqual(['size']);
    expect(changes).toContain(
      'spec.preserveUnknownFields: true (v1beta1 default) → false, with x-kubernetes-preserve-unknown-fields on object schemas',
    );
  });

  it('fills in implied types and rewrites int-or-string unions', () => {
    const { crd, changes } = convertV1beta1Crd(structuredClone(base));
    const spec = convertedSchema(crd).properties?.spec as Schema;
    expect(spec.properties?.anything).toEqual({
      description: 'no type',
      'x-kubernetes-preserve-unknown-fields': true,
    });
    expect(spec.properties?.surge).toEqual({
      anyOf: [{ type: 'integer' }, { type: 'string' }],
      'x-kubernetes-int-or-string': true,
    });
    expect(spec.properties?.tags).toEqual({ type: 'array', items: { type: 'string' } });
    const list = spec.properties?.list as Schema;
    expect(list.type).toBe('array');
    expect(list.items?.type).toBe('object');
    const path = 'spec.versions[0].schema.openAPIV3Schema.properties.spec';
    expect(changes).toContain(
      `${path}.properties.tags: removed uniqueItems (forbidden in v1 structural schemas)`,
    );
    expect(changes).toContain(`${path}.properties.list: added type: array`);
  });

  it('leaves schemas alone beyond that when preserveUnknownFields is false', () => {
    const input = structuredClone(base) as JsonObject & { spec: JsonObject };
    input.spec.preserveUnknownFields = false;
    const { crd } = convertV1beta1Crd(input);
    const schema = convertedSchema(crd);
    expect(schema).not.toHaveProperty('x-kubernetes-preserve-unknown-fields');
    const spec = schema.properties?.spec as Schema;
    expect(spec.properties?.raw).toEqual({ type: 'object' });
    expect(spec.properties?.size).toEqual({ type: 'integer', format: 'int32' });
  });

  it('converts per-version fields and the conversion webhook of multi-version CRDs', () => {
    const input = {
      ...structuredClone(base),
      spec: {
        group: 'example.com',
        names: { kind: 'Thing', plural: 'things' },
        scope: 'Cluster',
        preserveUnknownFields: false,
        versions: [
          { name: 'v1', served: true, storage: true },
          {
            name: 'v2',
            served: true,
            storage: false,
            schema: { openAPIV3Schema: { type: 'object', properties: { v2only: { type: 'string' } } } },
          },
        ],
        validation: { openAPIV3Schema: { type: 'object', properties: { shared: { type: 'string' } } } },
        conversion: {
          strategy: 'Webhook',
          webhookClientConfig: { url: 'https://127.0.0.1:9443/convert', caBundle: 'Q0E=' },
        },
      },
    };
    const { crd } = convertV1beta1Crd(input);
    const spec = crd.spec as JsonObject;
    expect(spec.scope).toBe('Cluster');
    expect(convertedSchema(crd, 0).properties).toEqual({ shared: { type: 'string' } });
    expect(convertedSchema(crd, 1).properties).toEqual({ v2only: { type: 'string' } });
    expect(spec.conversion).toEqual({
      strategy: 'Webhook',
      webhook: {
        clientConfig: { url: 'https://127.0.0.1:9443/convert', caBundle: 'Q0E=' },
        conversionReviewVersions: ['v1beta1'],
      },
    });
  });

  it('adds the API approval annotation for protected groups only', () => {
    const protectedCrd = structuredClone(base) as JsonObject & { spec: JsonObject };
    protectedCrd.spec.group = 'cluster.k8s.io';
    const annotations = (convertV1beta1Crd(protectedCrd).crd.metadata as JsonObject)
      .annotations as JsonObject;
    expect(annotations['api-approved.kubernetes.io']).toMatch(/^unapproved, /);
    expect((convertV1beta1Crd(structuredClone(base)).crd.metadata as JsonObject).annotations).toBeUndefined();
  });

  it('restricts root metadata to name and generateName', () => {
    const schema = makeStructural(
      { properties: { metadata: { properties: { name: { type: 'string' }, labels: { type: 'object' } } } } },
      { preserveUnknown: false },
    );
    expect((schema.properties as JsonObject).metadata).toEqual({
      type: 'object',
      properties: { name: { type: 'string' } },
    });
  });

  it('returns v1 CRDs unchanged and rejects other documents', () => {
    const v1 = { apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', spec: { x: 1 } };
    expect(convertV1beta1Crd(v1)).toEqual({ crd: v1, changes: [] });
    expect(() => convertV1beta1Crd({ apiVersion: 'v1', kind: 'ConfigMap' })).toThrow(
      /not a CustomResourceDefinition/,
    );
  });
});

// The real manifests: every v1beta1 CRD of the reference set must come out structural
// in the ways this module can check without a server (the integration test installs them).
const crdRoot = join(import.meta.dirname, '../../../testdata/crds');
describe('the Cluster API reference manifests', () => {
  function everyNode(schema: Schema, visit: (node: Schema, path: string) => void, path = ''): void {
    visit(schema, path);
    for (const [k, v] of Object.entries(schema.properties ?? {})) everyNode(v, visit, `${path}.${k}`);
    if (schema.items) everyNode(schema.items, visit, `${path}[]`);
    if (schema.additionalProperties && typeof schema.additionalProperties === 'object') {
      everyNode(schema.additionalProperties as Schema, visit, `${path}{}`);
    }
  }

  for (const dir of ['v1alpha1', 'v1alpha2']) {
    it(`converts every ${dir} CRD into a schema where each node has a type or an exemption`, () => {
      const files = readdirSync(join(crdRoot, dir)).filter((f) => f.endsWith('.yaml'));
      expect(files.length).toBeGreaterThanOrEqual(4);
      for (const file of files) {
        const [doc] = parseAllDocuments(readFileSync(join(crdRoot, dir, file), 'utf8'))
          .map((d) => d.toJS() as unknown)
          .filter(Boolean);
        expect(isV1beta1Crd(doc)).toBe(true);
        const [loaded] = loadCrds(join(crdRoot, dir, file));
        if (!loaded) throw new Error(`nothing loaded from ${file}`);
        everyNode(convertedSchema(loaded.crd), (node, path) => {
          const exempt =
            node['x-kubernetes-int-or-string'] === true ||
            node['x-kubernetes-preserve-unknown-fields'] === true;
          if (!exempt && typeof node.type !== 'string') throw new Error(`${file}${path}: no type`);
          expect(node).not.toHaveProperty('uniqueItems');
        });
      }
    });
  }
});
