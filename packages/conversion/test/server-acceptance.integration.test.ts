import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { decode } from '@capi-kit/core';
import { readManifest } from '@capi-kit/core/manifest';
import { noControlPlane, useControlPlane } from '@capi-kit/envtest/vitest';
import { type KubernetesObject, KubernetesObjectApi } from '@kubernetes/client-node';
import fc from 'fast-check';
import * as E from 'fp-ts/lib/Either.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { awsConversionPlugin } from '../../providers-aws/src/conversion/index.js';
import { vsphereConversionPlugin } from '../../providers-vsphere/src/conversion/index.js';
import {
  convertDocuments,
  formatConversionError,
  type InputDocument,
  V1ALPHA1,
  V1ALPHA2,
} from '../src/index.js';
import { v1alpha1, v1alpha2 } from './support/arbitraries.js';

// Acceptance: every object the conversion writes is accepted by a real kube-apiserver that
// serves the real v1alpha2 CRDs (Cluster API core, CAPA, CAPV, CABPK), via server-side dry
// run, and comes back without a field pruned; Cluster API kinds also decode with the
// v1alpha2 codecs, strictly for the examples.

const crdRoot = join(import.meta.dirname, '../../../testdata/crds');
const crdDirs = [
  join(crdRoot, 'v1alpha1'),
  join(crdRoot, 'v1alpha2'),
  join(crdRoot, 'providers/aws/v1alpha2'),
  join(crdRoot, 'providers/vsphere/v1alpha2'),
  join(crdRoot, 'providers/kubeadm-bootstrap/v1alpha2'),
];

const env = useControlPlane();
const plugins = [awsConversionPlugin, vsphereConversionPlugin];
type Obj = Record<string, unknown> & { metadata?: Record<string, unknown> };

/** Puts every object (and List item) into the test's namespace. */
function intoNamespace(value: unknown, namespace: string): unknown {
  const v = structuredClone(value) as Obj;
  if (Array.isArray(v.items)) v.items = v.items.map((i) => intoNamespace(i, namespace));
  else v.metadata = { ...(v.metadata ?? {}), namespace };
  // MachineClass references that name a namespace follow the objects into the test's one.
  for (const ref of machineClassRefs(v)) if (ref.namespace !== undefined) ref.namespace = namespace;
  return v;
}

/** `valueFrom.machineClass` of a Machine, MachineSet or MachineDeployment (mutable). */
function machineClassRefs(value: unknown): Obj[] {
  const spec = (value as Obj).spec as Obj | undefined;
  return [spec?.providerSpec, ((spec?.template as Obj | undefined)?.spec as Obj | undefined)?.providerSpec]
    .map((p) => ((p as Obj | undefined)?.valueFrom as Obj | undefined)?.machineClass as Obj | undefined)
    .filter((r): r is Obj => r !== undefined);
}

/** The MachineClasses a generated object refers to, so the manifest resolves them. */
function machineClassesFor(value: unknown): Obj[] {
  const refs = machineClassRefs(value);
  return refs.map((ref) => ({
    apiVersion: 'cluster.k8s.io/v1alpha1',
    kind: 'MachineClass',
    metadata: { name: String(ref.name), namespace: env.namespace },
    providerSpec: {
      apiVersion: 'awsprovider/v1alpha1',
      kind: 'AWSMachineProviderSpec',
      instanceType: 'm5.large',
    },
  }));
}

/** Objects as a server would create them: Lists expanded, server-owned metadata dropped. */
function creatable(documents: readonly unknown[]): Obj[] {
  const out: Obj[] = [];
  for (const doc of documents) {
    const v = doc as Obj;
    if (typeof v.kind === 'string' && v.kind.endsWith('List') && Array.isArray(v.items)) {
      for (const item of v.items as Obj[]) out.push(...creatable([item]));
      continue;
    }
    const {
      uid: _u,
      resourceVersion: _r,
      generation: _g,
      creationTimestamp: _c,
      ...metadata
    } = v.metadata ?? {};
    const { status: _s, ...rest } = v;
    out.push({ ...rest, metadata });
  }
  return out;
}

function convert(values: readonly unknown[], to: typeof V1ALPHA1 | typeof V1ALPHA2 = V1ALPHA2): Obj[] {
  const docs: InputDocument[] = values.map((value, index) => ({ index, value }));
  const result = convertDocuments(docs, { to, plugins });
  if (E.isLeft(result)) throw new Error(result.left.map(formatConversionError).join('\n'));
  return result.right.documents as Obj[];
}

async function dryRunCreate(object: Obj): Promise<void> {
  const client = KubernetesObjectApi.makeApiClient(env.kubeConfig);
  let created: Obj;
  try {
    // (client-node turns core types into class instances; compare plain JSON)
    created = JSON.parse(JSON.stringify(await client.create(object as KubernetesObject, undefined, 'All')));
  } catch (error) {
    const body = (error as { body?: unknown }).body;
    throw new Error(
      `${object.kind} ${String(object.metadata?.name)} rejected: ${typeof body === 'string' ? body : String(error)}`,
    );
  }
  // Nothing pruned: every field sent is still there, unchanged.
  const { metadata: sentMeta, ...sent } = object;
  const { metadata: gotMeta, ...got } = created;
  expect(got, `${object.kind} ${String(sentMeta?.name)}`).toStrictEqual(sent);
  // The API server drops empty label / annotation maps; anything else must match.
  const nonEmpty = (v: unknown) =>
    typeof v === 'object' && v !== null && Object.keys(v).length === 0 ? undefined : v;
  for (const key of [
    'name',
    'namespace',
    'labels',
    'annotations',
    'finalizers',
    'ownerReferences',
  ] as const) {
    expect(nonEmpty(gotMeta?.[key]), `metadata.${key}`).toStrictEqual(nonEmpty(sentMeta?.[key]));
  }
}

function expectDecodes(object: Obj, strict: boolean): void {
  if (object.apiVersion !== V1ALPHA2) return;
  const decoded = decode(object, { strict });
  if (E.isLeft(decoded)) throw new Error(`${object.kind} does not decode: ${JSON.stringify(decoded.left)}`);
}

describe.skipIf(noControlPlane())('converted objects on a real kube-apiserver with the v1alpha2 CRDs', () => {
  beforeAll(async () => {
    for (const dir of crdDirs) await env.installCRDs(dir);
  });

  it.each(['aws-v1alpha1.yaml', 'vsphere-v1alpha1.yaml', 'machineclass-v1alpha1.yaml'])(
    'examples/%s: every output object decodes strictly and is accepted by dry-run create',
    async (file) => {
      const text = readFileSync(new URL(`../../../examples/${file}`, import.meta.url), 'utf8');
      const read = readManifest(text);
      if (E.isLeft(read)) throw new Error(JSON.stringify(read.left));
      const objects = creatable(convert(read.right.map((d) => intoNamespace(d.value, env.namespace))));
      expect(objects.length).toBeGreaterThanOrEqual(6);
      for (const object of objects) {
        expectDecodes(object, true);
        await dryRunCreate(object);
      }
    },
  );

  it('generated v1alpha1 objects of every kind, converted, are accepted (25 per kind)', async () => {
    for (const kind of ['Cluster', 'Machine', 'MachineSet', 'MachineDeployment'] as const) {
      // The generators add `extraField`, unknown to both versions: conversion passes it
      // through untouched and the v1alpha2 CRDs would prune it, so it is left out here.
      const samples = fc
        .sample(v1alpha1[kind], { numRuns: 25, seed: 42 })
        .map((v) =>
          JSON.parse(JSON.stringify(v, (key, value) => (key === 'extraField' ? undefined : value))),
        );
      for (const sample of samples) {
        const input = intoNamespace(sample, env.namespace);
        for (const object of creatable(convert([input, ...machineClassesFor(input)]))) {
          expectDecodes(object, false);
          await dryRunCreate(object);
        }
      }
    }
  });

  it('generated v1alpha2 objects of every kind, converted down, are accepted by the v1alpha1 CRDs (25 per kind)', async () => {
    for (const kind of ['Cluster', 'Machine', 'MachineSet', 'MachineDeployment'] as const) {
      const samples = fc
        .sample(v1alpha2[kind], { numRuns: 25, seed: 7 })
        .map((v) =>
          JSON.parse(JSON.stringify(v, (key, value) => (key === 'extraField' ? undefined : value))),
        );
      for (const sample of samples) {
        for (const object of creatable(convert([intoNamespace(sample, env.namespace)], V1ALPHA1))) {
          expect(object.apiVersion).toBe(V1ALPHA1);
          await dryRunCreate(object);
        }
      }
    }
  });
});
