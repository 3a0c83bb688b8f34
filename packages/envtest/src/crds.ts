import { readdirSync, readFileSync, statSync } from 'node:fs';
import { extname, join } from 'node:path';
import type { KubeConfig } from '@kubernetes/client-node';
import { parseAllDocuments } from 'yaml';
import { convertV1beta1Crd, isCrd, type JsonObject } from './crd-v1beta1.js';
import { EnvtestError } from './errors.js';
import { waitFor } from './net.js';
import { expectOk, restRequest } from './rest.js';

/**
 * What installCRDs accepts: paths of YAML/JSON files or directories (their *.yaml, *.yml
 * and *.json files, not recursive), YAML text, or CRD objects; one or an array.
 */
export type CrdInput = string | JsonObject | ReadonlyArray<string | JsonObject>;

/** One CRD as installed. */
export interface InstalledCrd {
  name: string;
  /** The CRD as the server returned it once established. */
  crd: JsonObject;
  /** What was changed to turn a v1beta1 manifest into v1 (empty for v1 input). */
  changes: string[];
}

const crdPath = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';

function documentsOfText(text: string, origin: string): unknown[] {
  return parseAllDocuments(text).flatMap((doc, i) => {
    if (doc.errors.length > 0)
      throw new EnvtestError('invalid-crd', `${origin} document ${i}: ${doc.errors[0]?.message}`);
    const value = doc.toJS() as unknown;
    return value === null || value === undefined ? [] : [value];
  });
}

function documentsOfPath(path: string): unknown[] {
  if (statSync(path).isDirectory()) {
    return readdirSync(path)
      .filter((f) => ['.yaml', '.yml', '.json'].includes(extname(f)))
      .sort()
      .flatMap((f) => documentsOfPath(join(path, f)));
  }
  return documentsOfText(readFileSync(path, 'utf8'), path);
}

/** Loads every CRD document of the input, converted to apiextensions.k8s.io/v1. */
export function loadCrds(input: CrdInput): { crd: JsonObject; changes: string[] }[] {
  const items = Array.isArray(input) ? input : [input as string | JsonObject];
  const docs = items.flatMap((item) => {
    if (typeof item !== 'string') return [item];
    return item.includes('\n') ? documentsOfText(item, 'YAML text') : documentsOfPath(item);
  });
  return docs.map((doc, i) => {
    if (!isCrd(doc)) {
      const kind = typeof doc === 'object' && doc !== null ? (doc as JsonObject).kind : typeof doc;
      throw new EnvtestError(
        'invalid-crd',
        `installCRDs: document ${i} is a ${String(kind)}, not a CustomResourceDefinition`,
        { path: 'kind' },
      );
    }
    return convertV1beta1Crd(doc);
  });
}

function nameOf(crd: JsonObject): string {
  const name = (crd.metadata as JsonObject | undefined)?.name;
  if (typeof name !== 'string')
    throw new EnvtestError('invalid-crd', 'CRD without metadata.name', { path: 'metadata.name' });
  return name;
}

function conditionTrue(crd: JsonObject, type: string): boolean {
  const conditions = ((crd.status as JsonObject | undefined)?.conditions ?? []) as JsonObject[];
  return conditions.some((c) => c.type === type && c.status === 'True');
}

// Test files running in parallel may install the same CRD at the same moment: an update
// that loses the race (409) is retried against the newer version.
async function createOrReplace(kc: KubeConfig, crd: JsonObject): Promise<void> {
  const name = nameOf(crd);
  for (let attempt = 1; ; attempt++) {
    const created = await restRequest(kc, 'POST', crdPath, crd);
    if (created.status !== 409) {
      expectOk(`create CRD ${name}`, created);
      return;
    }
    const existing = await restRequest(kc, 'GET', `${crdPath}/${name}`);
    if (existing.status === 404) continue; // deleted meanwhile: create again
    const current = expectOk(`read CRD ${name}`, existing) as JsonObject;
    const metadata = {
      ...(crd.metadata as JsonObject),
      resourceVersion: (current.metadata as JsonObject).resourceVersion,
    };
    const replaced = await restRequest(kc, 'PUT', `${crdPath}/${name}`, { ...crd, metadata });
    if (replaced.status !== 409 || attempt >= 5) {
      expectOk(`replace CRD ${name}`, replaced);
      return;
    }
  }
}

/**
 * Creates (or replaces) CRDs and waits until each is Established and every served version
 * is listed by API discovery, so objects can be created right away.
 */
export async function installCRDs(
  kc: KubeConfig,
  input: CrdInput,
  options: { timeoutMs?: number } = {},
): Promise<InstalledCrd[]> {
  const timeoutMs = options.timeoutMs ?? 30_000;
  const loaded = loadCrds(input);
  for (const { crd } of loaded) await createOrReplace(kc, crd);
  const installed: InstalledCrd[] = [];
  for (const { crd, changes } of loaded) {
    const name = nameOf(crd);
    let current: JsonObject = crd;
    await waitFor(
      `CRD ${name} established`,
      async () => {
        current = expectOk(
          `read CRD ${name}`,
          await restRequest(kc, 'GET', `${crdPath}/${name}`),
        ) as JsonObject;
        if (conditionTrue(current, 'Established')) return true;
        return JSON.stringify((current.status as JsonObject | undefined)?.conditions ?? []);
      },
      { timeoutMs, intervalMs: 50 },
    );
    const spec = current.spec as JsonObject;
    const plural = (spec.names as JsonObject).plural;
    for (const version of (spec.versions as JsonObject[]).filter((v) => v.served)) {
      const groupVersion = `/apis/${String(spec.group)}/${String(version.name)}`;
      await waitFor(
        `discovery of ${plural}.${String(spec.group)}/${String(version.name)}`,
        async () => {
          const res = await restRequest(kc, 'GET', groupVersion);
          const resources = ((res.body as JsonObject | undefined)?.resources ?? []) as JsonObject[];
          return res.status === 200 && resources.some((r) => r.name === plural);
        },
        { timeoutMs, intervalMs: 50 },
      );
    }
    installed.push({ name, crd: current, changes });
  }
  return installed;
}
